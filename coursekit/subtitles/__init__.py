"""Chinese subtitles: events cut and timed from a cue's speech, SRT and WebVTT, each character's time."""
