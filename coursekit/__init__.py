"""coursekit: an engine that turns a course (narration, scenes, figures) into narrated lesson videos.

It knows nothing of any particular course. Its packages run one way, each importing only the ones
below it: cli > deliver > assemble > render > plan > speech > content > core (tests/engine/test_layers.py).
"""
