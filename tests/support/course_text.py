"""Every text a viewer of the course meets, for the glossary and glyph tests.

- :func:`narration_places`: each cue's written form (subtitles) and ``say:`` form (voice), figures filled
  and bookmarks removed (as coursekit/content/cue_text.py makes them), and the course, lesson and scene
  titles;
- :func:`drawn_texts`: every string a scene draws, recorded while the scene is built in a dry run
  (``scene.drawn_texts`` from ``coursekit.render.viewer_check.build_dry_run``, through
  ``tests.support.course_scenes.built_scene``, so a scene another test of this process built is not built again).

Under pytest-xdist the workers of one run share the recorded texts through files in
``tests/.tmp/drawn-text/<run id>/``: each worker builds the scenes no other worker has taken (a lock per
scene) and reads the others', so the course is built once per run however the test files are spread.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from functools import lru_cache
from pathlib import Path

from filelock import FileLock, Timeout

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from coursekit.render.drawn_text import DrawnText
from narration.glossary import Place

TMP = Path(__file__).resolve().parents[1] / ".tmp"


@lru_cache(maxsize=None)
def course():
    cfg = load_config()
    return cfg, load_course(cfg.lessons)


def scene_ids() -> list[str]:
    return list(course()[1].scenes)


def lesson_of(scene_id: str) -> str:
    return course()[1].scenes[scene_id].lesson


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
    return [Place(f"{lesson} · scene {t.scene} · on screen in {t.cue}, frame {t.frame} ({t.kind})",
                  "formulas" if t.typst else "screen", lesson, t.scene, t.text) for t in texts]


# -- drawn texts ---------------------------------------------------------------------------------
def _build(scene_id: str) -> list[DrawnText]:
    from tests.support.course_scenes import built_scene
    return list(built_scene(scene_id)[0].drawn_texts)


def _run_dir() -> Path | None:
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    root = TMP / "drawn-text"
    d = root / run
    if not d.exists():
        root.mkdir(parents=True, exist_ok=True)
        for old in root.iterdir():              # earlier runs' files (a day old)
            if old.is_dir() and old.name != run and time.time() - old.stat().st_mtime > 86400:
                shutil.rmtree(old, ignore_errors=True)
        d.mkdir(exist_ok=True)
    return d


def _read(f: Path) -> list[DrawnText]:
    data = json.loads(f.read_text(encoding="utf-8"))
    if "error" in data:
        raise RuntimeError(data["error"])
    return [DrawnText.from_dict(d) for d in data["texts"]]


def _build_to(f: Path, scene_id: str) -> list[DrawnText]:
    try:
        texts = _build(scene_id)
    except Exception as exc:
        f.write_text(json.dumps({"error": f"building scene {scene_id} failed: {type(exc).__name__}: {exc}"}),
                     encoding="utf-8")
        raise
    tmp = f.with_suffix(".part")
    tmp.write_text(json.dumps({"texts": [t.to_dict() for t in texts]}, ensure_ascii=False), encoding="utf-8")
    tmp.replace(f)
    return texts


@lru_cache(maxsize=None)
def _shared() -> dict[str, list[DrawnText] | str]:
    """Under xdist: every scene's texts, built here or by another worker of this run (error text if the
    scene did not build)."""
    d = _run_dir()
    assert d is not None
    out: dict[str, list[DrawnText] | str] = {}
    later = []
    for sid in scene_ids():                      # first pass: take what nobody else is building
        f = d / f"{sid}.json"
        lock = FileLock(str(f) + ".lock")
        try:
            lock.acquire(timeout=0)
        except Timeout:
            later.append(sid)
            continue
        try:
            out[sid] = _read(f) if f.exists() else _build_to(f, sid)
        except Exception as exc:
            out[sid] = str(exc)
        finally:
            lock.release()
    for sid in later:                            # then wait for the others' work
        f = d / f"{sid}.json"
        with FileLock(str(f) + ".lock"):
            try:
                out[sid] = _read(f) if f.exists() else _build_to(f, sid)
            except Exception as exc:
                out[sid] = str(exc)
    return out


def drawn_texts(scene_id: str) -> list[DrawnText]:
    """Every string ``scene_id`` draws (see the module doc); raises if the scene does not build."""
    if _run_dir() is None:
        return _build(scene_id)
    got = _shared()[scene_id]
    if isinstance(got, str):
        raise RuntimeError(got)
    return got
