"""`render.py clean` removes only what no current plan or scene refers to, and reports the bytes freed."""
import shutil
from pathlib import Path

from coursekit.cli.clean import clean
from coursekit.core.config import parse_config
from coursekit.content.narration import load_course
from tests.conftest import _narration_plans

ROOT = Path(__file__).resolve().parents[1]


def test_clean_keeps_referenced_and_removes_stale():
    out = "tests/.tmp/clean_media"
    media = ROOT / out
    shutil.rmtree(media, ignore_errors=True)
    cfg = parse_config({"output": out})
    course = load_course(cfg.lessons)
    plan = _narration_plans(15)["trig_to_rope"]
    (media / "plan" / "15fps").mkdir(parents=True)
    # give two cues an audio file so the plan refers to them
    import dataclasses
    s0 = plan.scenes[0]
    cues = [dataclasses.replace(c, audio=f"{out}/cache/audio/{'a' * 63}{i}.wav") for i, c in enumerate(s0.cues[:2])]
    plan = dataclasses.replace(plan, scenes=[dataclasses.replace(s0, cues=cues + s0.cues[2:])] + plan.scenes[1:])
    (media / "plan" / "15fps" / "trig_to_rope.json").write_text(plan.to_json(), encoding="utf-8")
    audio = media / "cache" / "audio"
    audio.mkdir(parents=True)
    keep = [audio / f"{'a' * 63}{i}{ext}" for i in range(2) for ext in (".wav", ".json")]
    stale = [audio / f"{'b' * 64}{ext}" for ext in (".wav", ".json")]
    for f in keep + stale:
        f.write_bytes(b"x" * 1000)
    (media / "manim" / "unit_circle").mkdir(parents=True)
    (media / "manim" / "gone_scene").mkdir(parents=True)
    (media / "manim" / "gone_scene" / "v.mp4").write_bytes(b"y" * 5000)
    n, freed = clean(cfg, course)
    assert all(f.exists() for f in keep)
    assert not any(f.exists() for f in stale)
    assert (media / "manim" / "unit_circle").exists() and not (media / "manim" / "gone_scene").exists()
    assert n == 3 and freed == 2000 + 5000
    shutil.rmtree(media)
