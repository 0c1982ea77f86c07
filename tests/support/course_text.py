"""Every text a viewer of the course meets, for the glossary and glyph tests.

- :func:`narration_places`: each cue's written form (subtitles) and ``say:`` form (voice), figures filled
  and bookmarks removed (as coursekit/content/cue_text.py makes them), and the course, lesson and scene
  titles;
- :func:`drawn_texts`: every string a scene draws, recorded while the scene is built in a dry run
  (``scene.drawn_texts`` from ``coursekit.render.viewer_check.build_dry_run``, through
  ``tests.support.course_scenes.built_scene``, so a scene another test of this process built is not built again).

Under pytest-xdist every test that builds a scene of one lesson runs on one worker (tests/support/xdist_units.py:
``xdist_unit_of``: a unit per lesson), so each scene is built once per run.
"""

from __future__ import annotations

from functools import lru_cache

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from coursekit.render.drawn_text import DrawnText
from narration.glossary import Place


@lru_cache(maxsize=None)
def course():
    cfg = load_config()
    return cfg, load_course(cfg.lessons)


def scene_ids() -> list[str]:
    return list(course()[1].scenes)


def lesson_of(scene_id: str) -> str:
    return course()[1].scenes[scene_id].lesson


def lesson_ids() -> list[str]:
    return [lesson.id for lesson in course()[1].lessons]


def scenes_of(lesson_id: str) -> list[str]:
    return [sid for sid in scene_ids() if lesson_of(sid) == lesson_id]


def narration_places() -> list[Place]:
    """The cues' subtitle and voice forms and every title, each with where it is."""
    cfg, c = course()
    out = [Place("course title (config.yaml)", "titles", "", None, cfg.course.title)]
    for lesson in c.lessons:
        out.append(Place(f"{lesson.id} · lesson title", "titles", lesson.id, None, lesson.title))
        for scene in lesson.scenes:
            out.append(Place(f"{lesson.id} · scene {scene.id} title", "titles", lesson.id, scene.id, scene.title))
            for cue in scene.cues:
                written, _ = strip_bookmarks(cue.figures.fill(cue.text))
                out.append(Place(f"{lesson.id} · cue {cue.id}", "subtitles", lesson.id, scene.id, written))
                if cue.say is not None:
                    said, _ = strip_bookmarks(cue.figures.fill(cue.say))
                    out.append(Place(f"{lesson.id} · cue {cue.id} (say)", "voice", lesson.id, scene.id, said))
    return out


def screen_places(texts: list[DrawnText], lesson: str) -> list[Place]:
    """Drawn strings as places: Typst sources are ``formulas``, everything else ``screen``."""
    return [
        Place(
            f"{lesson} · scene {t.scene} · on screen in {t.cue}, frame {t.frame} ({t.kind})",
            "formulas" if t.typst else "screen",
            lesson,
            t.scene,
            t.text,
        )
        for t in texts
    ]


# -- drawn texts ---------------------------------------------------------------------------------
def drawn_texts(scene_id: str) -> list[DrawnText]:
    """Every string ``scene_id`` draws (see the module doc); raises if the scene does not build."""
    from tests.support.course_scenes import built_scene

    return list(built_scene(scene_id)[0].drawn_texts)
