"""Manim: one process, one scene, a batch, the executors, the scene cache, NarratedScene, the viewer check,
what the engine changes in Manim."""
