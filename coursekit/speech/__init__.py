"""Turning text into sound: the voices, audio mixing and loudness, the audio cache, synthesis, the listening check."""
