"""`render.py doctor`: everything a render needs, checked in about a second, one line per check.

Each check is a function returning a :class:`Check` (ok, warn, fail or skip) whose failure line says
what is missing and how to fix it. ``coursekit.cli.preflight``, run before every render, raises the
same checks' lines as one-line ``UserError``\\ s: each check is defined here once.

The checks: ffmpeg and ffprobe with the encoders and filters the engine runs (:data:`ENCODERS`,
:data:`FILTERS`); PyAV with libx264 (Manim's encoder); the course font (fontconfig) and its glyphs for
every text a viewer reads (``coursekit.content.glyphs``, as ``render.py check``); Typst (a two-line
document in the course font); the models' files against their pinned sizes and sha256
(``coursekit.speech.model_files``); espeak-ng and its pinyin voice; Chromium and Playwright (the page
tests); edge-tts (one probe of at most a second: unreachable is a warning unless the config asks for
edge); the voice ``auto`` would choose and why (``coursekit.speech.voices.auto``); and the free disk
space against an estimate for the course at its quality (:func:`disk_needed`).

Speed (about a second; docs/reliability.md): the checks run at once in threads, most of them waiting
on a program (ffmpeg, fc-list, espeak-ng, Chromium) or PyAV's child process (importing av in a child
keeps a broken PyAV from taking doctor down); the voice check builds no voice and imports no voice
library but edge-tts; the glyph check and the disk estimate share one read of the course, kept between
runs (:class:`CourseFacts`). Exit status 0 when nothing failed (warnings do not count), else 1.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import typst
from rich.console import Console
from rich.markup import escape

from coursekit.cli import doctor_voices
from coursekit.content.glyphs import GLYPH_FIX, course_texts, font_cmap, font_files, missing_glyphs
from coursekit.content.narration import load_course
from coursekit.core.atomic import write_text
from coursekit.core.config import DEFAULT_FONT, Config, VoiceConfig
from coursekit.core.errors import UserError
from coursekit.core.paths import ENGINE_ROOT, course_packages, narration_dir, shown
from coursekit.plan.model import LessonPlan
from coursekit.project.base import ProjectBase
from coursekit.speech import model_files as models
from coursekit.speech.voices.espeak import espeak_voice_name
from coursekit.zh.lexicon import Lexicon

OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skip"

#: ffmpeg encoders the engine runs, and what for.
ENCODERS = {
    "aac": "the narration tracks",
    "pcm_s16le": "the limited narration clips",
    "mov_text": "the soft subtitles in the MP4s",
    "libx264": "burned-in subtitles (subtitles.burn_in)",
}
#: ffmpeg filters the engine runs (coursekit/speech/audio.py, coursekit/assemble/lesson_video.py).
FILTERS = ("aformat", "aresample", "volume", "pan", "alimiter", "ebur128", "subtitles")
FFMPEG_FIX = "install Debian's ffmpeg, whose build has them all: apt-get install ffmpeg"
#: Chromium as the page tests find it (tests/engine/deliver/test_page.py): on PATH, else this file.
CHROMIUM_FALLBACK = Path("/usr/bin/chromium")

#: Bytes written per second of video at each quality, for a render from scratch: Manim's partial
#: movies and its whole scene, the scene with narration (media/scenes/), the lesson video
#: (media/course/), the narration's audio cache (about 44 kB/s) and work files (about 13 kB/s).
#: Measured on two scenes of this project's course (109 s of video) at low, medium and high at
#: 33d7c2d; 4k is high's video part times 2.3, the 4k/1080p60 ratio of the mini course's two scenes.
BYTES_PER_VIDEO_S = {"low": 160_000, "medium": 170_000, "high": 235_000, "4k": 430_000}
DISK_MARGIN = 1.5  # the estimate times this must be free (scenes differ from the measured two)


@dataclass(frozen=True)
class Check:
    """One check's outcome: ``detail`` is what was found, or what is wrong; ``fix`` how to mend it."""

    name: str
    status: str
    detail: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        return self.status == FAIL

    def line(self) -> str:
        """The one line preflight raises: what is wrong; how to fix it."""
        return f"{self.detail}; {self.fix}" if self.fix else self.detail


def _run(args: list[str], timeout: float = 10) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------- tools, font, glyphs, Typst


def tool(name: str, package: str) -> Check:
    """``name`` on PATH, else the Debian package that has it."""
    if shutil.which(name) is None:
        return Check(
            name, FAIL, f"{name} not found on PATH", f"install the Debian package {package}: apt-get install {package}"
        )
    return Check(name, OK, shutil.which(name) or name)


def font(family: str = DEFAULT_FONT, package: str = "fonts-noto-cjk") -> Check:
    """The font family installed, as fontconfig lists it."""
    try:
        found = _run(["fc-list", f":family={family}", "family"]).stdout
    except OSError:
        return Check(
            "font", FAIL, "fc-list not found", "install the Debian package fontconfig: apt-get install fontconfig"
        )
    if family not in found:
        other = "" if family == DEFAULT_FONT else " (or set course.font in config.yaml to an installed family)"
        return Check(
            "font",
            FAIL,
            f"font '{family}' not found",
            f"install the Debian package {package}: apt-get install {package}{other}",
        )
    return Check("font", OK, f"'{family}' installed")


def ffmpeg() -> Check:
    """ffmpeg and ffprobe on PATH, with every encoder, filter and the soxr resampler the engine uses."""
    for name in ("ffmpeg", "ffprobe"):
        if (found := tool(name, "ffmpeg")).failed:
            return Check("ffmpeg", FAIL, found.detail, found.fix)
    exe = shutil.which("ffmpeg")
    calls = {
        k: subprocess.Popen([exe, "-hide_banner", k], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for k in ("-version", "-encoders", "-filters")
    }
    out = {k: p.communicate(timeout=10)[0] for k, p in calls.items()}
    listed = {
        k: {line.split()[1] for line in out[k].splitlines() if len(line.split()) > 1} for k in ("-encoders", "-filters")
    }
    name = " ".join(out["-version"].split()[:3]).replace(" version", "") or "ffmpeg"
    lacks = [f"the encoder {e} ({why})" for e, why in ENCODERS.items() if e not in listed["-encoders"]]
    lacks += [f"the filter {f}" for f in FILTERS if f not in listed["-filters"]]
    if "--enable-libsoxr" not in out["-version"]:
        lacks.append("the soxr resampler (--enable-libsoxr)")
    if lacks:
        return Check("ffmpeg", FAIL, f"{name} lacks {', '.join(lacks)}", FFMPEG_FIX)
    return Check("ffmpeg", OK, f"{name}; encoders {', '.join(ENCODERS)}; filters {', '.join(FILTERS)}; soxr")


_PYAV = "import json, av; print(json.dumps([av.__version__, 'libx264' in av.codecs_available]))"


def pyav() -> Check:
    """PyAV, which Manim encodes every scene with, has libx264 (in a child process: importing av is slow)."""
    res = _run([sys.executable, "-c", _PYAV], timeout=30)
    if res.returncode:
        tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
        return Check(
            "pyav",
            FAIL,
            f"PyAV (Manim's video encoder) does not import: {tail[:120]}",
            "reinstall the project's packages: make setup",
        )
    ver, x264 = json.loads(res.stdout)
    if not x264:
        return Check(
            "pyav",
            FAIL,
            f"PyAV {ver} has no libx264 encoder, which Manim needs",
            "reinstall PyAV from its wheel (it bundles libx264): .venv/bin/pip install --force-reinstall av",
        )
    return Check("pyav", OK, f"PyAV {ver} with libx264 (Manim's encoder)")


def glyphs(cfg: Config, font_found: bool, facts: CourseFacts) -> Check:
    """Every character of every title and cue (both kinds of voice) has a glyph in the course font; the
    outcome is kept in the course's facts (:class:`CourseFacts`) until a file it comes from changes."""
    family = cfg.course.font
    if not font_found:
        return Check("glyphs", SKIP, f"not checked: the font '{family}' is missing")
    return facts.glyphs(family)


def _glyph_check(cfg: Config, course) -> Check:
    """The glyph check itself (what :meth:`CourseFacts.glyphs` keeps)."""
    family = cfg.course.font
    # the lexicon's pinned readings are checked by render.py check; the texts need only its terms
    texts = course_texts(cfg.course.title, course, Lexicon.load(check_readings=False))
    missing = missing_glyphs(texts, font_cmap(family))
    if missing:
        more = f" (and {len(missing) - 1} more: render.py check lists them)" if len(missing) > 1 else ""
        return Check("glyphs", FAIL, missing[0].line(family) + more, GLYPH_FIX)
    chars = {ch for _, t in texts for ch in t}
    return Check("glyphs", OK, f"{len(chars)} distinct characters in {len(texts)} titles and cues, all in '{family}'")


def typst_check(family: str) -> Check:
    """Typst (Manim's formulas) compiles a formula and text in the course font, and finds the font."""
    try:
        ver = version("typst")
    except PackageNotFoundError:
        ver = "?"
    source = f'#set text(font: "{family}")\n中文 $x^2 + y_k$'
    try:
        _, warnings = typst.compile_with_warnings(source.encode("utf-8"), format="svg")
    except Exception as exc:  # noqa: BLE001 - TypstError or a broken install: either way it cannot draw
        return Check(
            "typst",
            FAIL,
            f"Typst {ver} cannot compile a formula: {str(exc)[:120]}",
            "reinstall the project's packages: make setup",
        )
    unknown = [w.message for w in warnings if "unknown font" in w.message]
    if unknown:
        return Check(
            "typst",
            FAIL,
            f"Typst {ver} does not find the font '{family}' ({unknown[0]})",
            "install the font in a system font folder (Typst reads /usr/share/fonts), e.g. apt-get "
            "install fonts-noto-cjk",
        )
    return Check("typst", OK, f"Typst {ver} compiles a formula in '{family}'")


# ---------------------------------------------------------------- models, espeak-ng, Chromium


def model_files() -> Check:
    """The models are the pinned files (size, then sha256 cached by size and mtime), each where the engine
    finds it (``coursekit.speech.model_files``: the course's models/, the checkout's, the user's)."""
    good, problems = models.check_files()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return Check("models", FAIL, problems[0] + more, models.fix())
    found: dict[Path, list[str]] = {}
    for name in models.MODELS:
        found.setdefault(models.find(name), []).append(name)
    where = "; ".join(f"{', '.join(names)} in {models.where(root)}/" for root, names in found.items())
    return Check("models", OK, f"{good} files match their pinned size and sha256 ({where})")


def espeak(cfg: VoiceConfig) -> Check:
    """espeak-ng (the last offline voice; bench and tests use it) with the pinyin voice it reads."""
    if (found := tool("espeak-ng", "espeak-ng")).failed:
        return Check("espeak-ng", FAIL, found.detail, found.fix)
    voice = espeak_voice_name(cfg.espeak.voice)
    res = _run([found.detail, "-v", voice, "-q", "ni3hao3"])
    ver = " ".join(_run([found.detail, "--version"]).stdout.split()[:4]).replace(" text-to-speech:", "")
    if res.returncode:
        return Check(
            "espeak-ng",
            FAIL,
            f"{ver} has no voice {voice}",
            "install Debian's espeak-ng with its data: apt-get install espeak-ng espeak-ng-data",
        )
    return Check("espeak-ng", OK, f"{ver}, voice {voice}")


def find_chromium() -> str | None:
    """Chromium as the page tests find it: ``chromium`` on PATH, else /usr/bin/chromium."""
    found = shutil.which("chromium")
    if found:
        return found
    return str(CHROMIUM_FALLBACK) if CHROMIUM_FALLBACK.is_file() else None


def chromium() -> Check:
    """Chromium starts, and Playwright (which drives it in the page tests) is installed."""
    exe = find_chromium()
    if exe is None:
        return Check(
            "chromium",
            FAIL,
            "Chromium not found (the page and studio tests need it)",
            "install the Debian package chromium: apt-get install chromium",
        )
    res = _run([exe, "--version"], timeout=20)
    ver = next((line for line in res.stdout.splitlines() if line.startswith("Chromium")), "").split(" built")[0]
    if res.returncode or not ver:
        return Check(
            "chromium",
            FAIL,
            f"{exe} --version failed (exit {res.returncode})",
            "reinstall the Debian package chromium: apt-get install --reinstall chromium",
        )
    if importlib.util.find_spec("playwright") is None:
        return Check(
            "chromium",
            FAIL,
            f"{ver} found, but Playwright (which drives it in the tests) is not installed",
            "install the test packages: .venv/bin/pip install -e '.[test]' (make setup)",
        )
    return Check("chromium", OK, f"{ver} ({exe}), Playwright installed")


# ---------------------------------------------------------------- the voices


def voices(cfg: VoiceConfig) -> list[Check]:
    """edge-tts's answer and the voice ``auto`` would choose (``coursekit.cli.doctor_voices.report``). It
    runs in this process, in its thread: it builds no offline voice and imports no voice library but
    edge-tts, so a child process would cost more (an interpreter, the config's models) than it saves."""
    got = doctor_voices.report(cfg)
    checks: list[Check] = []
    for name, (label, ok, why) in got["probes"].items():
        if ok:
            checks.append(Check(label, OK, f"{label} answered: {why}"))
        elif cfg.backend == name:
            checks.append(
                Check(
                    label,
                    FAIL,
                    f"{label} is unreachable ({why}) and voice.backend is {name}",
                    "connect to the internet, or set voice.backend: auto in config.yaml (an offline voice)",
                )
            )
        else:
            checks.append(
                Check(
                    label,
                    WARN,
                    f"{label} is unreachable ({why}); auto uses an offline voice",
                    "none needed offline; online, check the network",
                )
            )
    if "error" in got:
        return [*checks, Check("voice", FAIL, got["error"], "see docs/voices.md")]
    chosen = str(got["auto"]).removeprefix("voice: ")
    detail = f"auto would choose {chosen}"
    if "offline" in got:
        detail += f"; if it gives up mid-plan, {str(got['offline']).removeprefix('voice: ')}"
    if cfg.backend != "auto":
        ok, why = got["configured"]
        if not ok:
            return [
                *checks,
                Check(
                    "voice",
                    FAIL,
                    f"voice.backend is {cfg.backend}, which cannot be used: {why}",
                    f"see docs/voices.md, or set voice.backend: auto ({detail})",
                ),
            ]
        detail = f"voice.backend is {cfg.backend} (usable); {detail}"
    if chosen.startswith("silent") and cfg.backend == "auto":
        return [
            *checks,
            Check(
                "voice",
                WARN,
                detail + ": the videos would have no narration",
                "make setup (kokoro), or apt-get install espeak-ng",
            ),
        ]
    return [*checks, Check("voice", OK, detail)]


# ---------------------------------------------------------------- disk space


def planned_seconds(project: ProjectBase, facts: CourseFacts) -> tuple[float, str]:
    """The course's video length and where it comes from: each lesson's plan (at the config's frame
    rate, else at any other: the length hardly differs) where one exists, else an estimate from its
    narration (the silent voice's reading rate, plus the timeline's pauses)."""
    cfg, layout = project.config, project.layout
    fps = cfg.video.frame_rate
    total, planned, read = 0.0, 0, 0
    t = cfg.timeline
    for lesson_id, counts in facts.lessons().items():
        plans = [layout.lesson_plan(lesson_id, fps), *layout.lesson_plans(lesson_id)]
        plan = next((p for p in plans if p.is_file()), None)
        seconds = facts.plan_seconds(plan) if plan is not None else None
        if seconds is not None:
            total += seconds
            planned += 1
            continue
        total += counts["scenes"] * (t.scene_lead_in_s + t.scene_tail_s)
        total += counts["chars"] / cfg.voice.silent.chars_per_second + counts["cues"] * t.cue_gap_s + counts["pause"]
        read += 1
    parts = ([f"{planned} lesson plan{'s' * (planned != 1)}"] if planned else []) + (
        [
            f"{read} lesson{'s' * (read != 1)} estimated from the narration at "
            f"{cfg.voice.silent.chars_per_second:g} characters/s"
        ]
        if read
        else []
    )
    return total, " and ".join(parts)


def disk_needed(quality: str, seconds: float) -> int:
    """Bytes a render of ``seconds`` of video at ``quality`` writes from scratch (:data:`BYTES_PER_VIDEO_S`)."""
    return int(seconds * BYTES_PER_VIDEO_S[quality])


def _free_bytes(folder: Path) -> int:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return shutil.disk_usage(folder).free


def disk(project: ProjectBase, facts: CourseFacts) -> Check:
    """Free space where the output goes against the estimate for the whole course at its quality."""
    seconds, source = planned_seconds(project, facts)
    q = project.config.video.quality
    need = disk_needed(q, seconds)
    free = _free_bytes(project.layout.root)
    what = (
        f"the course at {q} ({seconds / 60:.0f} min of video, from {source}) needs about "
        f"{need / 1e9:.1f} GB ({BYTES_PER_VIDEO_S[q] / 1e3:.0f} kB per second of video, measured)"
    )
    where = f"{free / 1e9:.1f} GB free for {shown(project.layout.root)}/"
    if free < need * DISK_MARGIN:
        return Check(
            "disk",
            FAIL,
            f"{what}; only {where}, less than {DISK_MARGIN:g}× that",
            "free some space, set output in config.yaml to a folder on a larger disk, or render at a "
            "lower quality (--quality)",
        )
    return Check("disk", OK, f"{what}; {where}")


# ---------------------------------------------------------------- what doctor reads of the course

FACTS_FORMAT = 1  #: bump when what CourseFacts keeps, or how it is computed, changes
FACTS_KEPT = 16  #: how many courses' facts the cache file keeps (the most recently checked)


def facts_file() -> Path:
    """Where doctor keeps what it read of each course between runs: the user cache's doctor.json
    (``coursekit.speech.model_files.user_cache``)."""
    return models.user_cache() / "doctor.json"


def _stats(paths) -> list[list]:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            out.append([str(p), None])
            continue
        out.append([str(p), st.st_size, st.st_mtime_ns])
    return out


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


#: The engine's packages that turn a cue into the texts a viewer reads (the narration's loader and cue
#: text, the lexicon and numbers read out, the config): a change in them reads the course again.
TEXT_PACKAGES = ("content", "zh", "core")


def course_sources(root: Path) -> list[Path]:
    """The files the course's texts are made from, as far as is known before they are read: the narration
    folder (lessons, lexicon, figures.py), the config and the engine's Python that makes a cue's texts
    (:data:`TEXT_PACKAGES`). What figures.py imports from the course's own Python is added once it is
    loaded (:meth:`CourseFacts.save`)."""
    found = {p for p in narration_dir().rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    for package in TEXT_PACKAGES:
        found.update((ENGINE_ROOT / "coursekit" / package).rglob("*.py"))
    found.add(root / "config.yaml")
    return sorted(found)


def _course_modules(root: Path) -> set[Path]:
    """The files of the modules imported from the course's own Python (figures.py and what it imports:
    its packages and the modules at its top; not a venv inside the course folder), ``root`` the course's."""
    packages = [p.resolve() for p in course_packages(root)]
    out = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and file.endswith(".py"):
            path = Path(file).resolve()
            if path.parent == root or any(path.is_relative_to(p) for p in packages):
                out.add(path)
    return out


class CourseFacts:
    """What the glyph and disk checks read of the course, read once per run and kept between runs in
    :func:`facts_file`, keyed by the config's course settings and the size and mtime of every file it came
    from (:func:`course_sources`, and the course's modules its figures imported); the glyph check's
    outcome also by the font's files (``fc-match``'s regular and bold faces). Kept: the glyph check's
    line, and per lesson its scenes, cues, characters and pauses (the disk estimate); a plan's length by
    its size and mtime. An unchanged course is not loaded at all (loading it, its figures, its lexicon and
    the font's character map takes about a second); any change loads it again. A narration error is
    never kept: it is raised every time."""

    def __init__(self, project: ProjectBase) -> None:
        self.cfg = cfg = project.config
        self.root = str(project.root)
        self.key = _digest(
            FACTS_FORMAT,
            self.root,
            str(narration_dir()),
            cfg.course.title,
            list(cfg.lessons),
            sorted(cfg.course.allowed_format),
        )
        self.sources = course_sources(project.root)
        self._stamp = _stats(self.sources)  # before anything is read
        self._lock = threading.RLock()
        self._course = None
        self._changed = False
        self.loaded = False  #: whether this run loaded the course (a test reads it)
        got = self._read_file().get(self.root)
        self._record: dict = got if self._valid(got) else {"key": self.key, "sources": self._stamp}

    def _valid(self, got) -> bool:
        if not isinstance(got, dict) or got.get("key") != self.key or not isinstance(got.get("sources"), list):
            return False
        kept = got["sources"]
        return [p for p, *_ in kept][: len(self.sources)] == [str(p) for p in self.sources] and _stats(
            p for p, *_ in kept
        ) == kept

    def _read_file(self) -> dict:
        try:
            got = json.loads(facts_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return got.get("courses", {}) if isinstance(got, dict) and got.get("format") == FACTS_FORMAT else {}

    def course(self):
        with self._lock:
            if self._course is None:
                self._course = load_course(self.cfg.lessons, allowed_format=self.cfg.course.allowed_format)
                self.loaded = True
            return self._course

    def _put(self, name: str, value) -> None:
        with self._lock:
            self._record[name] = value
            self._changed = True

    def lessons(self) -> dict[str, dict]:
        """Per lesson id: its ``scenes``, ``cues``, ``chars`` (not whitespace) and ``pause`` (seconds)."""
        got = self._record.get("lessons")
        if isinstance(got, dict):
            return got
        got = {}
        for lesson in self.course().lessons:
            cues = [cue for scene in lesson.scenes for cue in scene.cues]
            got[lesson.id] = {
                "scenes": len(lesson.scenes),
                "cues": len(cues),
                "chars": sum(not ch.isspace() for cue in cues for ch in cue.text),
                "pause": sum(cue.pause for cue in cues),
            }
        self._put("lessons", got)
        return got

    def plan_seconds(self, plan: Path) -> float | None:
        """The length of a lesson plan in seconds, or None if it cannot be read (an old plan)."""
        from_plan = self._record.get("plans", {})
        stamp = _stats([plan])[0]
        hit = from_plan.get(str(plan))
        if isinstance(hit, list) and hit[:-1] == stamp[1:]:
            return hit[-1]
        try:
            got = LessonPlan.read(plan)
            seconds = got.frames / got.fps
        except UserError:  # an unreadable or old plan: estimated instead
            seconds = None
        self._put("plans", {**from_plan, str(plan): [*stamp[1:], seconds]})
        return seconds

    def glyphs(self, family: str) -> Check:
        faces = font_files(family)
        key = _digest(family, faces, _stats(path for path, _ in faces))
        hit = self._record.get("glyphs")
        if isinstance(hit, list) and len(hit) == 2 and hit[0] == key:
            return Check(*hit[1])
        check = _glyph_check(self.cfg, self.course())
        self._put("glyphs", [key, [check.name, check.status, check.detail, check.fix]])
        return check

    def save(self) -> None:
        """Keep what changed in :func:`facts_file` (the newest :data:`FACTS_KEPT` courses); a cache
        that cannot be written is read again next time."""
        if not self._changed:
            return
        if self.loaded:  # what its figures imported from the course's Python, now known
            known = set(self.sources)
            self._record["sources"] = self._stamp + _stats(
                sorted(p for p in _course_modules(Path(self.root)) if p not in known)
            )
        courses = self._read_file()
        courses.pop(self.root, None)
        courses[self.root] = self._record
        kept = dict(list(courses.items())[-FACTS_KEPT:])
        try:
            write_text(facts_file(), json.dumps({"format": FACTS_FORMAT, "courses": kept}, ensure_ascii=False))
        except OSError:
            pass


# ---------------------------------------------------------------- running them


def _guarded(name: str, fn: Callable[[], Check | list[Check]]) -> list[Check]:
    try:
        got = fn()
    except UserError as exc:
        return [Check(name, FAIL, str(exc), "")]
    except Exception as exc:  # noqa: BLE001 - one broken check must not hide the others
        return [
            Check(
                name,
                FAIL,
                f"the check itself failed: {type(exc).__name__}: {str(exc)[:160]}",
                "report it with this line",
            )
        ]
    return got if isinstance(got, list) else [got]


def run_checks(project: ProjectBase) -> list[Check]:
    """Every check, run at once, in a fixed order. Most wait on a program (ffmpeg, fc-list, espeak-ng,
    Chromium), PyAV's child process, Typst (which compiles without holding the interpreter) or edge-tts's
    answer, so threads run them side by side; the glyph and disk checks share one read of the course
    (:class:`CourseFacts`)."""
    cfg = project.config
    with ThreadPoolExecutor(max_workers=12) as pool:
        slow = {
            "voices": pool.submit(_guarded, "voice", lambda: voices(cfg.voice)),
            "pyav": pool.submit(_guarded, "pyav", pyav),
        }
        facts_ready = pool.submit(CourseFacts, project)
        fast = {
            name: pool.submit(_guarded, name, fn)
            for name, fn in (
                ("ffmpeg", ffmpeg),
                ("font", lambda: font(cfg.course.font)),
                ("typst", lambda: typst_check(cfg.course.font)),
                ("models", model_files),
                ("espeak-ng", lambda: espeak(cfg.voice)),
                ("chromium", chromium),
            )
        }
        fast["disk"] = pool.submit(_guarded, "disk", lambda: disk(project, facts_ready.result()))
        font_found = not fast["font"].result()[0].failed
        glyph = _guarded("glyphs", lambda: glyphs(cfg, font_found, facts_ready.result()))
        order = [fast["ffmpeg"], slow["pyav"], fast["font"]]
        out = [c for f in order for c in f.result()] + glyph
        for f in (fast["typst"], fast["models"], fast["espeak-ng"], fast["chromium"], slow["voices"], fast["disk"]):
            out += f.result()
        try:
            facts_ready.result().save()
        except Exception:  # noqa: BLE001 - CourseFacts failed: the checks that use it said so
            pass
    return out


_MARK = {
    OK: "[green]ok  [/green]",
    WARN: "[yellow]warn[/yellow]",
    FAIL: "[bold red]FAIL[/bold red]",
    SKIP: "[dim]skip[/dim]",
}


def command(project: ProjectBase, args=None) -> int:
    """``render.py doctor`` (``commands.cmd_doctor`` is the same): the checks, printed to the terminal."""
    return run(project, Console(highlight=False, soft_wrap=True).print)


def run(project: ProjectBase, say: Callable[[str], None]) -> int:
    """Run every check, print one line each (a failing one with its fix) and a summary; 1 if any failed."""
    t0 = time.perf_counter()
    checks = run_checks(project)
    width = max(len(c.name) for c in checks)
    for c in checks:
        fix = f" [bold]— fix:[/bold] {escape(c.fix)}" if c.fix and c.status in (FAIL, WARN) else ""
        say(f"{_MARK[c.status]}  {c.name:<{width}}  {escape(c.detail)}{fix}")
    failed = [c.name for c in checks if c.failed]
    warned = sum(c.status == WARN for c in checks)
    took = f"{time.perf_counter() - t0:.1f} s"
    if failed:
        say(
            f"doctor: {len(failed)} of {len(checks)} checks failed ({', '.join(failed)}); "
            f"{warned} warning{'s' * (warned != 1)}; {took}"
        )
        return 1
    say(f"doctor: all {len(checks)} checks passed, {warned} warning{'s' * (warned != 1)}; {took}")
    return 0
