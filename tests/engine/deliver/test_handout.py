"""``render.py export handout`` (coursekit/deliver/handout.py): the course as a PDF for students, each cue's
last frame beside its text, chapter by chapter, made from the delivered mini course (``made_mini``) without
rendering again. The PDF's text is read back with pypdf: every cue's text is in it as often as the course
says it, in the cues' order; its images are the delivered video's frames at the cues' last frames (decoded
here with PyAV, not with the ffmpeg command the handout uses). A missing or damaged delivery is one line and
exit status 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from coursekit.core.paths import COURSE_ENV

pypdf = pytest.importorskip("pypdf")

#: a handout image and the video's frame it should be, both shrunk to THUMB, differ by at most this on average
#: (of 255: the JPEG's loss); the image is nearer to that frame than to any other of the video but those that
#: look the same (within NEAR of it)
SAME_FRAME = 0.25
NEAR = 0.02
THUMB = (160, 90)


def _squeezed(text: str) -> str:
    return "".join(text.split())


def order_problems(pdf_text: str, cues: list[dict]) -> list[str]:
    """What is wrong with the cues' texts in the PDF's text: each must be there as often as the cues say it
    (whitespace aside: the PDF breaks lines where it likes), and found one after the other in the cues'
    order."""
    text = _squeezed(pdf_text)
    problems = []
    wanted: dict[str, int] = {}
    for c in cues:
        wanted[_squeezed(c["text"])] = wanted.get(_squeezed(c["text"]), 0) + 1
    for t, n in wanted.items():
        if text.count(t) != n:
            problems.append(f"{t!r} is there {text.count(t)} times, not {n}")
    at = 0
    for c in cues:
        found = text.find(_squeezed(c["text"]), at)
        if found < 0:
            problems.append(f"{c['id']} is not after the cue before it")
            continue
        at = found + len(_squeezed(c["text"]))
    return problems


def test_the_order_check_finds_a_missing_a_doubled_and_a_swapped_cue():
    cues = [{"id": "a.x", "text": "屏幕上有3个点。"}, {"id": "a.y", "text": "是4个。"}, {"id": "b.z", "text": "再见。"}]
    assert order_problems("屏幕上有3\n个点。 是4个。\n再见。", cues) == []
    assert order_problems("屏幕上有3个点。再见。", cues) == [
        "'是4个。' is there 0 times, not 1",
        "a.y is not after the cue before it",
    ]
    assert order_problems("屏幕上有3个点。是4个。是4个。再见。", cues) == ["'是4个。' is there 2 times, not 1"]
    assert order_problems("是4个。屏幕上有3个点。再见。", cues) == ["a.y is not after the cue before it"]


def _frames(video: Path) -> list[np.ndarray]:
    """Every frame of ``video``, decoded by PyAV, shrunk to THUMB."""
    with av.open(str(video)) as container:
        return [_thumb(frame.to_ndarray(format="rgb24")) for frame in container.decode(video=0)]


def _thumb(rgb: np.ndarray) -> np.ndarray:
    return np.asarray(Image.fromarray(rgb).resize(THUMB, Image.BILINEAR), dtype=float)


def _pdf_images(pdf: Path) -> list[np.ndarray]:
    reader = pypdf.PdfReader(pdf)
    return [np.asarray(img.image.convert("RGB")) for page in reader.pages for img in page.images]


def _run(monkeypatch, capsys, root: Path, *args: str) -> tuple[int, str, str]:
    from coursekit.cli.main import main

    monkeypatch.setenv(COURSE_ENV, str(root))
    code = main(["export", "handout", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def handout(made_mini, tmp_path_factory):
    """The made mini course's delivery copied into a course root of its own, and its handout written by
    the command: (root, manifest, the PDF's path, what the command printed)."""
    root = tmp_path_factory.mktemp("handout")
    shutil.copytree(made_mini.course / "media" / "course", root / "media" / "course")
    manifest = json.loads((root / "media" / "course" / "manifest.json").read_text(encoding="utf-8"))
    mp = pytest.MonkeyPatch()
    try:
        from coursekit.cli.main import main

        mp.setenv(COURSE_ENV, str(root))
        code = main(["export", "handout"])
    finally:
        mp.undo()
    assert code == 0
    return root, manifest, root / "media" / "export" / "handout" / "course.pdf"


@pytest.mark.render
def test_every_cue_is_in_the_handout_once_in_order(handout):
    _, manifest, pdf = handout
    [lesson] = manifest["lessons"]
    cues = lesson["cues"]
    assert [c["id"] for c in cues] == ["count_dots.show", "count_dots.ask", "count_dots.answer", "closing.bye"]
    reader = pypdf.PdfReader(pdf)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert order_problems(text, cues) == []
    squeezed = _squeezed(text)
    # the course's title, the lesson's, then each chapter's title before its cues
    titles = [manifest["title"], lesson["title"], *(c["title"] for c in lesson["chapters"])]
    assert [squeezed.find(_squeezed(t)) for t in titles] == sorted(squeezed.find(_squeezed(t)) for t in titles)
    assert squeezed.find(_squeezed(lesson["chapters"][1]["title"])) > squeezed.find(_squeezed(cues[2]["text"]))
    assert squeezed.find(_squeezed(lesson["chapters"][1]["title"])) < squeezed.find(_squeezed(cues[3]["text"]))


@pytest.mark.render
def test_each_picture_is_the_delivered_videos_frame_at_its_cues_end(handout):
    root, manifest, pdf = handout
    [lesson] = manifest["lessons"]
    video = root / "media" / "course" / lesson["lesson"] / f"{lesson['lesson']}.mp4"
    fps = lesson["fps"]
    images = _pdf_images(pdf)
    assert len(images) == len(lesson["cues"])
    frames = _frames(video)
    for image, cue in zip(images, lesson["cues"]):
        last = round(cue["end_ms"] * fps / 1000) - 1  # the cue's last frame
        diffs = [float(np.abs(_thumb(image) - f).mean()) for f in frames]
        assert diffs[last] <= SAME_FRAME, (cue["id"], diffs[last])
        assert diffs[last] <= min(diffs) + NEAR, (cue["id"], last, int(np.argmin(diffs)), diffs[last], min(diffs))
        # and the check tells frames apart: the video's pictures change over the lesson
        assert max(diffs) > 4 * SAME_FRAME, (cue["id"], max(diffs))


@pytest.mark.render
def test_one_lesson_is_its_own_file(handout, monkeypatch, capsys):
    root, manifest, _ = handout
    lid = manifest["lessons"][0]["lesson"]
    code, out, err = _run(monkeypatch, capsys, root, "--lesson", lid)
    assert code == 0, err
    pdf = root / "media" / "export" / "handout" / f"{lid}.pdf"
    assert f"media/export/handout/{lid}.pdf" in out and pdf.stat().st_size > 0
    code, _, err = _run(monkeypatch, capsys, root, "--lesson", "no_such_lesson")
    assert code == 2
    (line,) = err.strip().splitlines()
    assert "no_such_lesson" in line and lid in line


# --- bad input: one line, exit 2, nothing written ---------------------------------------------------------
def _lesson(**change) -> dict:
    """A lesson entry the manifest's schema accepts, with ``change`` (None drops a key)."""
    lesson = {
        "lesson": "counting",
        "title": "数一数",
        "fps": 15,
        "duration_s": 2.0,
        "quality": "low",
        "scenes": ["count_dots"],
        "chapters": [{"start_ms": 0, "end_ms": 2000, "title": "数点"}],
        "subtitles": [],
        "cues": [{"id": "count_dots.show", "text": "有三个点。", "start_ms": 0, "end_ms": 2000}],
    }
    return {k: v for k, v in (lesson | change).items() if v is not None}


def _course(*lessons: dict) -> str:
    return json.dumps({"title": "课", "font": "Noto Sans CJK SC", "quality": "low", "lessons": list(lessons)})


# the schema's own lines (coursekit.deliver.manifest) come first; the handout's are for what the schema allows
@pytest.mark.parametrize(
    ("manifest", "says"),
    [
        (None, "no delivered course"),
        ("{", "not JSON"),
        (b"\xff\xfe{}", "is not UTF-8"),
        (_course(), "has no lesson"),
        (_course(_lesson(cues=None)), "lists no cues"),
        (_course(_lesson(cues=[{"id": "count_dots.show"}])), "cue 1: text: missing"),
        (_course(_lesson(fps="15")), "fps"),
        (_course(_lesson()), "its video"),  # no video delivered beside it
    ],
)
def test_a_missing_or_damaged_delivery_is_one_line(manifest, says, tmp_path, monkeypatch, capsys):
    if manifest is not None:
        course = tmp_path / "media" / "course"
        course.mkdir(parents=True)
        data = manifest if isinstance(manifest, bytes) else manifest.encode("utf-8")
        (course / "manifest.json").write_bytes(data)
    code, _, err = _run(monkeypatch, capsys, tmp_path)
    assert code == 2
    (line,) = err.strip().splitlines()
    assert says in line and "render.py course" in line and "Traceback" not in err
    assert not (tmp_path / "media" / "export").exists()
