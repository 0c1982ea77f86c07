"""This course's tests: the narration, mathcore and the figures, the glossary and the glyphs, the narration as
the voices read it (test_lexicon.py), and the scenes: one file per scene, test_scene_<scene_id>.py, or, for the
scenes with one or two checks, per lesson, test_lesson_<lesson>.py (with the lesson's checks across scenes).

A scene's checks: what it draws equals mathcore, and its labels equal the drawing. Each scene is built once per
run from its real narration plan (silent-voice timing, a dry run without pixels: conftest's ``narrated_scene``,
``tests.support.course_scenes.built_scene``), recording on every drawn frame what its ``watch()`` probes read,
a label's text as drawn and the raw points of the geometry it describes. A label check is a function
``samples -> list of disagreements``: the real scene gives none, and perturbed samples (the drawing moved, or
the label's value changed) give some. Frames and layout are checked for every scene by test_viewer_check.py.
Under ``--dist loadfile`` the files that build scenes run on one worker together
(``tests.support.xdist_units.xdist_unit_of``).
"""
