"""`render.py studio`: the server's guards and Range answers, and the studio in headless Chromium.

The browser tests run the real command on a copy of the mini course (tests/fixtures/mini_course, espeak,
480p15) as the quiet commands made it (conftest's ``made_mini``) but for its previews, so the narration and
scene code they edit are the copy's. Checked there: the timeline has one bar
per planned cue at the plan's start frames; clicking a cue presents that cue's first frame (the presented
frame's media time, from requestVideoFrameCallback); an edit of the narration updates the cue's text
and the video; a broken edit (bad YAML, an overrun cue, an exception in the scene) shows its one-line
error and keeps the last good video. Screenshots go to tests/.tmp/studio-*.png.
"""

import hashlib
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from coursekit.cli.main import main
from coursekit.core.errors import UserError
from coursekit.studio.server import RangeNotSatisfiable, check_bind, host_allowed, is_loopback, own_hosts, parse_range
from coursekit.studio.watcher import observe
from tests.support.browser import chromium
from tests.support.mini_runs import copy_made, copy_mini_course
from tests.support.studio_process import BUILD_S, open_scene_page, running_studio, studio_env

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "tests" / ".tmp"


# -- the guards, without a server ------------------------------------------------------------------
@pytest.mark.parametrize(
    "header, size, span",
    [
        (None, 1000, None),
        ("bytes=0-99", 1000, (0, 99)),
        ("bytes=100-", 1000, (100, 999)),
        ("bytes=-100", 1000, (900, 999)),
        ("bytes=-5000", 1000, (0, 999)),  # a suffix longer than the file: all of it
        ("bytes=990-2000", 1000, (990, 999)),  # a last byte past the end: up to the end
        ("bytes=999-999", 1000, (999, 999)),
        ("bytes=0-0", 1, (0, 0)),
        ("bytes=5-2", 1000, None),  # malformed: ignored, the whole file
        ("bytes=0-1,5-9", 1000, None),  # several ranges: the whole file (allowed by RFC 9110)
        ("items=0-5", 1000, None),  # another unit: ignored
        ("bytes=-", 1000, None),
    ],
)
def test_parse_range(header, size, span):
    assert parse_range(header, size) == span


@pytest.mark.parametrize(
    "header, size",
    [("bytes=1000-", 1000), ("bytes=5000-6000", 1000), ("bytes=-0", 1000), ("bytes=0-", 0), ("bytes=-10", 0)],
)
def test_parse_range_unsatisfiable(header, size):
    with pytest.raises(RangeNotSatisfiable):
        parse_range(header, size)


def test_host_check_accepts_only_the_servers_own_address():
    allowed = own_hosts("127.0.0.1", 8123)
    for ok in ("127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", "[::1]:8123"):
        assert host_allowed(ok, allowed), ok
    for bad in (
        None,
        "",
        "127.0.0.1",
        "127.0.0.1:8124",
        "evil.example:8123",
        "evil.example",
        "127.0.0.1.evil.example:8123",
        "localhost:8123.evil.example",
    ):
        assert not host_allowed(bad, allowed), bad


def test_only_loopback_without_public():
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"):
        assert is_loopback(host)
        check_bind(host, public=False)
    for host in ("0.0.0.0", "::", "192.168.1.10", "10.0.0.5"):
        assert not is_loopback(host)
        with pytest.raises(UserError, match="not a loopback address.*--public"):
            check_bind(host, public=False)
        check_bind(host, public=True)  # asked for


def test_the_command_refuses_a_public_address(tmp_path, capsys):
    course = tmp_path / "mini"
    copy_mini_course(course)
    res = subprocess.run(
        [
            sys.executable,
            str(ROOT / "render.py"),
            "studio",
            "--course",
            str(course),
            "--host",
            "0.0.0.0",
            "--port",
            "8199",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=studio_env(),
        timeout=120,
    )
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "0.0.0.0 is not a loopback address" in lines[0] and "--public" in lines[0]
    # a bad port is refused by the parser, before a course is chosen: the entry render.py exits with, run
    # here (three more processes, each importing the engine, would prove nothing more)
    for bad in ("0", "65536", "http"):
        code = main(["studio", "--port", bad])
        err = capsys.readouterr().err
        assert code == 2 and "--port" in err, err


def test_the_watcher_takes_writes_not_reads(tmp_path):
    """inotify reports opens and read-only closes too; a build's own reads must not start another build."""
    f = tmp_path / "lesson.yaml"
    f.write_text("a: 1\n", encoding="utf-8")
    seen: list[tuple[Path, bool]] = []
    got = threading.Event()
    stop = observe({f}, lambda p, whole: (seen.append((p, whole)), whole and got.set()))
    try:
        f.read_text(encoding="utf-8")
        time.sleep(0.5)
        assert seen == []
        f.write_text("a: 2\n", encoding="utf-8")
        assert got.wait(5)  # the write's close says the file is whole (the studio builds sooner after it)
        assert seen and all(p == f.resolve() for p, _ in seen)
        assert seen[-1][1] and not seen[0][1], seen  # a write opens (modified) before it closes
    finally:
        stop()


class _Shared:
    """What the builder's grace reads of the studio's state: its lock, whether it stops, the open pages."""

    def __init__(self, *open_scenes: str) -> None:
        self.lock = threading.RLock()
        self.stopping = threading.Event()
        self.idle = threading.Event()
        self.pages = set(open_scenes)

    def open_scenes(self) -> set[str]:
        return set(self.pages)


class _Checks:
    def kill(self) -> None:
        pass


def _later(seconds: float, *steps) -> threading.Thread:
    def run():
        for step in steps:
            time.sleep(seconds)
            step()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_the_grace_after_a_preview_waits_for_the_page_to_fetch_it():
    """After a new preview the builder waits (at most GRACE_S, the real 3 s here) for the page that shows
    the scene to fetch that very video; an older video's fetch does not end the wait, a build asked for
    does, and no page on the scene means no wait."""
    from coursekit.studio.builder import GRACE_S, Builder

    assert GRACE_S == 3.0
    builder = Builder(_Shared("count_dots"), None, None, _Checks())
    assert builder.grace_s == GRACE_S
    assert builder.grace("closing", "v2") == "no page"
    t = _later(0.2, lambda: builder.served("count_dots", "v2"))
    assert builder.grace("count_dots", "v2") == "fetched"
    t.join()
    assert builder.grace("count_dots", "v2") == "fetched"  # fetched before: no second wait
    t = _later(
        0.2,
        lambda: builder.served("count_dots", "v1"),
        lambda: builder.served("closing", "v3"),
        lambda: builder.request("closing", "asked"),
    )
    assert builder.grace("count_dots", "v3") == "next build"  # another video's fetches did not end it
    t.join()
    stopping = Builder(_Shared("count_dots"), None, None, _Checks())
    t = _later(0.2, stopping.shared.stopping.set, stopping.wake)
    assert stopping.grace("count_dots", "v1") == "stopping"
    t.join()
    assert Builder(_Shared("count_dots"), None, None, _Checks(), grace_s=0.2).grace("count_dots", "v1") == "timeout"


# -- the studio, running ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def course(tmp_path_factory, made_mini) -> Path:
    """A copy of the made mini course without its previews: the studio builds count_dots's preview itself,
    as on a fresh copy, but from the voice's audio cache and Manim's partial movies (espeak's synthesis of
    the four cues was most of the first build)."""
    return copy_made(made_mini.course, tmp_path_factory.mktemp("studio") / "mini_course", without=("preview",))


@pytest.fixture(scope="module")
def studio(course):
    """`render.py studio --course COPY` on a free port; yields its address."""
    yield from running_studio(course)


def _get(url: str, headers: dict | None = None, method: str = "GET") -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.mark.render  # the module's studio renders: it starts under this test's environment
def test_requests_for_another_host_or_site_are_refused(studio):
    port = studio.rsplit(":", 1)[1].strip("/")
    assert _get(studio + "api/scenes")[0] == 200
    assert _get(studio + "api/scenes", {"Host": f"localhost:{port}"})[0] == 200
    status, _, body = _get(studio + "api/scenes", {"Host": f"attacker.example:{port}"})  # DNS rebinding
    assert status == 421 and b"Host header" in body
    assert _get(studio + "", {"Host": f"attacker.example:{port}"})[0] == 421
    assert _get(studio + "api/scenes", {"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert _get(studio + "", {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})[0] == 200  # a link to it
    build = studio + "api/scene/closing/build"
    assert _get(build, method="POST")[0] == 403  # a form elsewhere
    assert _get(build, {"X-Coursekit-Studio": "1", "Origin": "http://attacker.example"}, "POST")[0] == 403
    assert _get(studio + "api/scene/nope/build", {"X-Coursekit-Studio": "1"}, "POST")[0] == 404
    assert _get(studio + "api/scene/nope")[0] == 404
    assert _get(studio + "audio/closing/nope")[0] == 404


@pytest.mark.render  # the module's studio renders: it starts under this test's environment
def test_scene_list(studio):
    _, _, body = _get(studio + "api/scenes")
    data = json.loads(body)
    assert data["title"] == "小小测试课" and data["error"] is None
    rows = {r["scene"]: r for lesson in data["lessons"] for r in lesson["scenes"]}
    assert list(rows) == ["count_dots", "closing"]
    assert rows["count_dots"]["cues"] == 3 and rows["closing"]["cues"] == 1
    assert all(r["preview"] in ("none", "unknown") for r in rows.values())


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def scene_page(studio, browser):
    """count_dots open in the studio (its page asks for the first build), with the video loaded."""
    context, page, errors = open_scene_page(browser, studio, "count_dots", "v.src.includes('/preview/count_dots.mp4')")
    page.wait_for_function("() => document.querySelectorAll('.cue-bar').length > 0")
    yield page
    assert errors == []
    context.close()


def _plan(course: Path) -> dict:
    plan = json.loads((course / "media" / "plan" / "15fps" / "counting.json").read_text(encoding="utf-8"))
    return next(s for s in plan["scenes"] if s["id"] == "count_dots")


@pytest.mark.render
@pytest.mark.browser
def test_timeline_has_a_bar_per_cue_at_the_plans_start(course, scene_page):
    page = scene_page
    plan = _plan(course)
    bars = page.evaluate("""() => {
        const track = document.querySelector('#track').getBoundingClientRect();
        return [...document.querySelectorAll('.cue-bar')].map(b => { const r = b.getBoundingClientRect();
            return {cue: b.dataset.cue, start: +b.dataset.start, end: +b.dataset.end,
                    x: (r.left - track.left) / track.width, w: r.width / track.width,
                    text: b.querySelector('.cue-text').textContent}; }); }""")
    assert len(bars) == len(plan["cues"]) == 3
    for bar, cue in zip(bars, plan["cues"]):
        assert bar["cue"] == cue["id"] and bar["text"] == cue["text"]
        assert bar["start"] == cue["start_frame"] and bar["end"] == cue["start_frame"] + cue["frames"]
        assert bar["x"] == pytest.approx(cue["start_frame"] / plan["frames"], abs=0.002)  # to scale
        assert bar["w"] == pytest.approx(cue["frames"] / plan["frames"], abs=0.002)
    # the pause of the question cue is drawn as a pause; bookmarks and subtitle events have lanes of their own
    ask = next(c for c in plan["cues"] if c["id"] == "count_dots.ask")
    assert page.locator('.cue-bar[data-cue="count_dots.ask"] .pause').inner_text().startswith("pause 0.5")
    assert page.locator(".mark").count() == sum(len(c["bookmarks"]) for c in plan["cues"]) == 1
    assert page.locator(".sub-bar").count() == sum(len(c["subtitles"]) for c in plan["cues"])
    assert page.locator(".sub-bar").first.inner_text() == plan["cues"][0]["subtitles"][0]["text"].replace("\n", " ")
    assert ask["frames"] > ask["speech_frames"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "studio-scene.png"), full_page=True)


def _presented_after(page, action) -> float:
    """The media time of the next frame the video presents after ``action`` (requestVideoFrameCallback)."""
    page.evaluate("() => document.querySelector('video').pause()")
    page.wait_for_function(
        "() => { const v = document.querySelector('video'); return !v.seeking && v.readyState >= 2; }"
    )
    page.wait_for_timeout(300)
    page.evaluate(
        "() => { window.__presented = new Promise(ok => { document.querySelector('video')"
        ".requestVideoFrameCallback((now, meta) => ok(meta.mediaTime)); setTimeout(() => ok(null), 15000); }); }"
    )
    action()
    t = page.evaluate("() => window.__presented")
    assert t is not None, "no frame was presented (a seek to the frame already shown presents none)"
    return t


@pytest.mark.render
@pytest.mark.browser
def test_clicking_a_cue_presents_its_first_frame(course, scene_page):
    page = scene_page
    plan = _plan(course)
    fps = plan["fps"]
    for cue in reversed(plan["cues"]):
        t = _presented_after(page, lambda: page.click(f'.cue-bar[data-cue="{cue["id"]}"]', position={"x": 8, "y": 40}))
        assert round(t * fps) == cue["start_frame"], (cue["id"], t)
        assert abs(t - cue["start_frame"] / fps) < 0.5 / fps
        page.wait_for_function(
            "f => document.querySelector('#readout').textContent.startsWith('frame ' + f + ' /')",
            arg=cue["start_frame"],
        )
        assert cue["text"] in page.locator("#now-text").inner_text()
    # a subtitle event seeks to its first frame; one frame on, then back
    sub = plan["cues"][1]["subtitles"][0]
    first = -(-sub["start_ms"] * fps // 1000)
    t = _presented_after(page, lambda: page.click('.sub-bar[data-start-ms="%d"]' % sub["start_ms"]))
    assert round(t * fps) == first
    t = _presented_after(page, lambda: page.get_by_role("button", name="frame ▶").click())
    assert round(t * fps) == first + 1
    t = _presented_after(page, lambda: page.get_by_role("button", name="◀ frame").click())
    assert round(t * fps) == first


@pytest.mark.render
@pytest.mark.browser
def test_playback_rate_and_listen(course, scene_page):
    page = scene_page
    page.select_option("#rate", "0.5")
    assert page.evaluate("() => document.querySelector('video').playbackRate") == 0.5
    page.select_option("#rate", "1")
    page.locator('.cue-bar[data-cue="count_dots.show"] .listen').click()
    page.wait_for_function(
        "() => { const a = document.querySelector('#listen'); return a.src.endsWith('/audio/count_dots/show')"
        " && (a.currentTime > 0 || a.ended); }",
        timeout=20000,
    )
    assert page.evaluate("() => document.querySelector('video').paused")
    audio = _plan(course)["cues"][0]["audio"]
    status, headers, body = _get(page.url.split("/scene/")[0] + "/audio/count_dots/show")
    assert status == 200 and body == (course / audio).read_bytes()


@pytest.mark.render
@pytest.mark.browser
def test_the_preview_is_served_with_ranges(course, studio, scene_page):
    mp4 = course / "media" / "preview" / "count_dots.mp4"
    data = mp4.read_bytes()
    url = studio + "preview/count_dots.mp4"
    status, headers, body = _get(url, {"Range": "bytes=100-199"})
    assert status == 206 and body == data[100:200]
    assert headers["Content-Range"] == f"bytes 100-199/{len(data)}" and headers["Accept-Ranges"] == "bytes"
    status, headers, body = _get(url, {"Range": "bytes=-10"})
    assert status == 206 and body == data[-10:]
    status, headers, _ = _get(url, {"Range": f"bytes={len(data)}-"})
    assert status == 416 and headers["Content-Range"] == f"bytes */{len(data)}"
    status, _, body = _get(url)
    assert status == 200 and body == data
    # the browser seeks it: a presented frame in the middle of the scene
    page = scene_page
    t = _presented_after(page, lambda: page.evaluate("() => { document.querySelector('video').currentTime = 3.1; }"))
    assert round(t * 15) == 46


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _video_state(page) -> dict:
    return page.evaluate(
        "() => { const v = document.querySelector('video');"
        " return {src: v.src, ready: v.readyState, hidden: v.hidden}; }"
    )


@pytest.mark.render
@pytest.mark.browser
def test_stopping_on_a_cue_readies_a_manim_process_for_its_edit(course, scene_page):
    """Paused on a cue for a moment, the page tells the studio, which parks a Manim process at the cue's start
    (``Builder.focus``); an edit of it then draws only the cue (tests/engine/render/test_preview_pieces.py)."""
    page = scene_page
    log = course / "studio.log"
    page.click('.cue-bar[data-cue="count_dots.answer"]', position={"x": 8, "y": 40})
    deadline = time.time() + 30
    while "count_dots: a Manim process waits at answer" not in log.read_text():
        assert time.time() < deadline, log.read_text()[-2000:]
        time.sleep(0.2)


@pytest.mark.render
@pytest.mark.browser
def test_editing_the_narration_updates_the_page(course, scene_page):
    page = scene_page
    before = _video_state(page)
    _edit(course / "narration" / "counting.yaml", "再加一个，是几个？", "再加一个点，是几个？")
    page.wait_for_function(
        "() => document.querySelector('.cue-bar[data-cue=\"count_dots.ask\"] .cue-text')"
        ".textContent === '再加一个点，是几个？'",
        timeout=BUILD_S * 1000,
    )
    page.wait_for_function(
        "src => { const v = document.querySelector('video'); return v.src !== src && v.readyState >= 2; }",
        arg=before["src"],
        timeout=30000,
    )
    assert page.locator("#error").is_hidden()
    plan = _plan(course)
    assert [c["text"] for c in plan["cues"]][1] == "再加一个点，是几个？"
    starts = page.evaluate("() => [...document.querySelectorAll('.cue-bar')].map(b => +b.dataset.start)")
    assert starts == [c["start_frame"] for c in plan["cues"]]
    duration = page.evaluate("() => document.querySelector('video').duration")
    assert abs(duration - plan["frames"] / plan["fps"]) < 0.1


BAD_EDITS = [
    # (file, old, new, what the error line says)
    ("narration/counting.yaml", "      - id: answer\n", "      - id: answer\n     bad: [\n", r"counting\.yaml:\d+"),
    (
        "scenes/counting.py",
        "self.play(Write(label), run_time=cue.remaining())",
        "self.play(Write(label), run_time=cue.remaining() + 1.0)",
        r"overran its cue by \d+ frames",
    ),
    (
        "scenes/counting.py",
        '        with self.cue("answer") as cue:\n',
        '        with self.cue("answer") as cue:\n            1 / 0\n',
        r"ZeroDivisionError",
    ),
]


@pytest.mark.parametrize("rel, old, new, says", BAD_EDITS, ids=["broken-yaml", "overrun-cue", "scene-exception"])
@pytest.mark.render
@pytest.mark.browser
def test_a_bad_edit_shows_its_error_and_keeps_the_last_good_video(course, scene_page, rel, old, new, says):
    page = scene_page
    mp4 = course / "media" / "preview" / "count_dots.mp4"
    kept = hashlib.sha256(mp4.read_bytes()).hexdigest()
    before = _video_state(page)
    path = course / rel
    original = path.read_text(encoding="utf-8")
    _edit(path, old, new)
    try:
        page.wait_for_function("() => !document.querySelector('#error').hidden", timeout=BUILD_S * 1000)
        line = page.locator("#error").inner_text()
        assert re.search(says, line), line
        assert "\n" not in line.strip()
        page.wait_for_function("() => document.querySelector('#state').textContent.startsWith('last edit failed')")
        if rel.endswith(".yaml"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "studio-scene-error.png"), full_page=True)
        after = _video_state(page)
        assert after["src"] == before["src"] and after["ready"] >= 2 and not after["hidden"]
        assert hashlib.sha256(mp4.read_bytes()).hexdigest() == kept
        for cue in ("count_dots.show", "count_dots.answer"):  # the second is where the last test left off
            t = _presented_after(page, lambda: page.click(f'.cue-bar[data-cue="{cue}"]', position={"x": 8, "y": 40}))
        starts = page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.cue-bar')]"
            ".map(b => [b.dataset.cue, +b.dataset.start]))"
        )
        assert round(t * 15) == starts["count_dots.answer"]  # the old timeline still drives the old video
    finally:
        path.write_text(original, encoding="utf-8")
    page.wait_for_function("() => document.querySelector('#error').hidden", timeout=BUILD_S * 1000)


@pytest.mark.render
@pytest.mark.browser
def test_findings_are_markers_at_their_frames(course, scene_page):
    """An edit that makes the answer's number too small to read: the viewer check (run in the background
    after the build) puts a marker at the frames it found it, with the finding in words."""
    page = scene_page
    path = course / "scenes" / "counting.py"
    original = path.read_text(encoding="utf-8")
    _edit(path, "font=FONT, font_size=72).next_to(dots", "font=FONT, font_size=8).next_to(dots")
    try:
        page.wait_for_function("() => document.querySelectorAll('.finding').length > 0", timeout=BUILD_S * 1000)
        plan = _plan(course)
        answer = plan["cues"][2]
        marks = page.evaluate("""() => {
            const track = document.querySelector('#track').getBoundingClientRect();
            return [...document.querySelectorAll('.finding')].map(m => ({frame: +m.dataset.frame, rule: m.dataset.rule,
                title: m.title, x: (m.getBoundingClientRect().left + 6 - track.left) / track.width})); }""")
        assert {m["rule"] for m in marks} == {"size"}
        for m in marks:
            assert answer["start_frame"] <= m["frame"] <= plan["frames"]
            assert m["x"] == pytest.approx(m["frame"] / plan["frames"], abs=0.003)
            assert f"frame {m['frame']}" in m["title"] and "size:" in m["title"] and "count_dots.answer" in m["title"]
        assert "size" in page.locator("#findings").inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "studio-scene-findings.png"), full_page=True)
    finally:
        path.write_text(original, encoding="utf-8")
    page.wait_for_function("() => document.querySelectorAll('.finding').length === 0", timeout=BUILD_S * 1000)


@pytest.mark.render
@pytest.mark.browser
def test_the_list_shows_status_and_findings(studio, browser, scene_page):
    context = browser.new_context(viewport={"width": 1200, "height": 700}, bypass_csp=True)
    page = context.new_page()
    page.goto(studio)
    page.wait_for_function("() => document.querySelectorAll('tr[data-scene]').length === 2")
    row = page.locator('tr[data-scene="count_dots"]')
    page.wait_for_function(
        "() => document.querySelector('tr[data-scene=\"count_dots\"]').textContent.includes('fresh')", timeout=60000
    )
    assert "6." in row.locator("td").nth(3).inner_text()  # planned duration, seconds
    # the viewer check runs in the background and its count lands in the list, for both scenes
    page.wait_for_function(
        "() => document.querySelectorAll('td.findings[data-count]').length === 2", timeout=BUILD_S * 1000
    )
    assert row.locator("td.findings").inner_text() == "0"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "studio-list.png"), full_page=True)
    context.close()
