"""A preview remade after an edit: only the stretch of frames the edit changed is rendered again.

A scene's preview is kept as **stretches**, silent videos of frames ``start..end-1`` cut at cue starts
(``coursekit.render.pieces``: each rendered by its own Manim process, which steps through the plays before
its start). Each stretch is stored under the **prefix signature** of its end: a digest of the scene's code
and settings and of every cue before ``end`` (its text, audio, frames and bookmarks). A scene's frames up to
a cue's start depend only on the cues before it (``NarratedScene.cue`` holds up to the start), so a stretch
whose end signature is unchanged is the very frames a new render would draw.

After an edit to cue *j* (the first cue whose signature changed), a remake renders at most three stretches,
two at a time, the edited one first (the one after it starts when the edited one is done):

- **edited**: cue *j*'s own frames;
- **between**: from the last reusable stretch to cue *j*'s start (none when the stored stretches reach it);
- **after**: from cue *j*'s end to the scene's end (none for the last cue).

Before the after-stretch is done, a **provisional** preview can be shown: the stored stretches, the edited
cue, then the previous preview's stretches after it, reused where they start. It is made only when the
cues after *j* are unchanged apart from where they start, and the frame after cue *j*, drawn by the edited
stretch's process, is the same pixels as the first frame of the old stretch there (the check of
``pieces.join_problems``). Its sound is the new mix with a plain gain (``soundtrack.RemadeSounds``: the
limited one takes twice as long, and would be made while the edited cue is drawn), or the limited one if it is
ready first. The remake's own preview follows; only it is recorded under the scene-cache key.

The remade preview is checked as a scene in pieces is (``pieces.join_problems``: each stretch holds its
frames, the frames beside every cut agree); a scene that cannot be cut where asked, or whose stretches do not
join, is rendered whole. ``COURSEKIT_PIECES=off`` renders every preview whole.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.layout import MediaLayout
from coursekit.core.media_tools import video_frames
from coursekit.plan.model import ScenePlan
from coursekit.render import pieces
from coursekit.render.manim_process import CANNOT_CUT
from coursekit.render.pieces import Piece
from coursekit.render.scene_cache import scene_key

INDEX = "index.json"


def cue_signature(cue, absolute: bool) -> str:
    """A digest of what a cue gives the scene; without ``absolute``, as if it started on frame 0 (its
    bookmarks relative to its start), so that a cue moved by an edit before it keeps its signature."""
    data = dataclasses.asdict(cue)
    if not absolute:
        data["start_frame"] = 0
        data["bookmarks"] = {k: v - cue.start_frame for k, v in cue.bookmarks.items()}
        data["subtitles"] = None  # soft subtitles: not drawn by the scene
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def boundaries(scene: ScenePlan) -> list[int]:
    """Where stretches may start and end: frame 0, every cue start, the scene's last frame + 1."""
    return [0, *pieces.cut_points(scene), scene.frames]


def prefix_signatures(scene: ScenePlan, code: str) -> dict[int, str]:
    """Each boundary's prefix signature: the scene's ``code`` key and every cue that starts before it."""
    out: dict[int, str] = {}
    for b in boundaries(scene):
        h = hashlib.sha256(code.encode())
        h.update(str(b).encode())
        for c in scene.cues:
            if c.start_frame < b:
                h.update(cue_signature(c, absolute=True).encode())
        out[b] = h.hexdigest()
    return out


@dataclass
class Stretch:
    """A stored silent video of the scene's frames ``start..end-1`` and its piece report."""

    start: int
    end: int
    sig: str  # the prefix signature of ``end``
    report: dict

    @property
    def file(self) -> str:
        return f"{self.sig[:24]}-{self.start}-{self.end}.mp4"


@dataclass
class Remake:
    """What a remake did: the stretches reused and rendered (``start..end`` each), and whether a
    provisional preview was offered, or why the scene was rendered whole."""

    reused: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    rendered: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    provisional: bool = False
    whole: str = ""
    edited: tuple[int, int] | None = None  # the edited cue's stretch, when an edit was found


class StretchStore:
    """A scene's stored stretches (``folder``: the videos and ``index.json``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def read(self) -> dict:
        try:
            return json.loads((self.folder / INDEX).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def write(self, code: str, scene: ScenePlan, chain: list[Stretch]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        index = {
            "code": code,
            "cues": [{"start": c.start_frame, "own": cue_signature(c, absolute=False), "id": c.id} for c in scene.cues],
            "frames": scene.frames,
            "stretches": [dataclasses.asdict(s) for s in chain],
        }
        write_text(self.folder / INDEX, json.dumps(index, sort_keys=True) + "\n")
        keep = {s.file for s in chain} | {INDEX}
        for f in self.folder.iterdir():
            if f.name not in keep and f.suffix == ".mp4":
                f.unlink(missing_ok=True)

    def stretches(self, index: dict) -> list[Stretch]:
        stored = [Stretch(**s) for s in index.get("stretches", [])]
        return [s for s in stored if (self.folder / s.file).is_file()]


RenderPiece = Callable[[Piece], tuple[Path, dict]]


def _chain_from(start: int, stored: list[Stretch], sigs: dict[int, str]) -> list[Stretch]:
    """The longest run of stored stretches from ``start`` whose end signatures are the new ones."""
    chain, pos = [], start
    while True:
        nxt = next((s for s in stored if s.start == pos and sigs.get(s.end) == s.sig), None)
        if nxt is None:
            return chain
        chain.append(nxt)
        pos = nxt.end


def remake(
    scene: ScenePlan,
    code: str,
    store: StretchStore,
    render_piece: RenderPiece,
    join_to: Path,
    provisional: Callable[[Path], None] | None = None,
) -> tuple[Path | None, Remake]:
    """The scene's silent video at ``join_to``, made from stored stretches and new ones (module docstring),
    ``render_piece(piece)`` rendering one stretch (its video and report). ``provisional(video)`` is called with
    a provisional silent video when one can be shown early. Returns (None, what) when the scene must be
    rendered whole (``what.whole`` says why)."""
    did = Remake()
    sigs = prefix_signatures(scene, code)
    index = store.read()
    stored = store.stretches(index) if index.get("code") == code and index.get("frames") else []
    head = _chain_from(0, stored, sigs)
    pos = head[-1].end if head else 0
    did.reused = [(s.start, s.end) for s in head]
    if pos == scene.frames:
        return pieces.join([store.folder / s.file for s in head], join_to), did

    bounds = boundaries(scene)
    old_cues = index.get("cues", []) if stored else []
    old_own = [c["own"] for c in old_cues]
    new_own = [cue_signature(c, absolute=False) for c in scene.cues]
    # the edited cue: the first cue from ``pos`` on that the stored preview did not have as it is now
    # (with no stored preview, the scene is cut in two at the cue start nearest its middle)
    edited = None
    if stored:
        for j, c in enumerate(scene.cues):
            if c.start_frame >= pos and (j >= len(old_own) or old_own[j] != new_own[j]):
                edited = j
                break
    jobs: list[Piece] = []
    if edited is None:
        cut = [p for p in pieces.cut(scene, 2) if p.end > pos]
        jobs = [Piece(scene.id, i, len(cut), max(p.start, pos), p.end) for i, p in enumerate(cut)]
        first = None
    else:
        s = scene.cues[edited].start_frame
        e = next((b for b in bounds if b > s), scene.frames)
        first = Piece(scene.id, 0, 3, s, e)
        did.edited = (s, e)
        jobs = [first]
        if pos < s:
            jobs.append(Piece(scene.id, 1, 3, pos, s))
        if e < scene.frames:
            jobs.append(Piece(scene.id, 2, 3, e, scene.frames))
    jobs = [j for j in jobs if j.frames > 0]

    made: dict[tuple[int, int], Stretch] = {}
    tmp = store.folder / "new"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True, exist_ok=True)

    def run(p: Piece) -> Stretch:
        video, report = render_piece(p)
        st = Stretch(p.start, p.end, sigs[p.end], report)
        shutil.copyfile(video, tmp / st.file)
        return st

    # the stretch after the edited cue waits for it: the provisional preview needs the edited one (and the
    # one before it) alone on the cores, and only the remade preview needs what follows
    after = [p for p in jobs if first is not None and p is not first and p.start >= first.end]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = {(p.start, p.end): pool.submit(run, p) for p in jobs if p not in after}
            if first is not None:
                futures[(first.start, first.end)].result()
            futures.update({(p.start, p.end): pool.submit(run, p) for p in after})
            if first is not None and provisional is not None:
                early = _provisional(scene, index, stored, head, first, futures, new_own, edited, store, tmp)
                if early is not None:
                    did.provisional = True
                    provisional(early)
            for k, f in futures.items():
                made[k] = f.result()
    except Exception as exc:
        if CANNOT_CUT in str(exc) or "in its piece" in str(exc):
            did.whole = f"rendered whole: {exc}"
            return None, did
        raise
    for st in made.values():
        shutil.move(tmp / st.file, store.folder / st.file)
    chain = head + sorted(made.values(), key=lambda s: s.start)
    did.rendered = sorted(made)
    problems = pieces.join_problems(
        scene,
        [Piece(scene.id, i, len(chain), s.start, s.end) for i, s in enumerate(chain)],
        [s.report for s in chain],
        [video_frames(store.folder / s.file) for s in chain],
    )
    if problems:
        did.whole = f"rendered whole: {problems[0]}"
        return None, did
    store.write(code, scene, chain)
    return pieces.join([store.folder / s.file for s in chain], join_to), did


def _provisional(scene, index, stored, head, first, futures, new_own, edited, store, tmp) -> Path | None:
    """The provisional silent video (module docstring), once the stretches before the edited cue and the
    edited cue are rendered; None when the old stretches after it cannot be reused."""
    old_cues = index.get("cues", [])
    later_new = new_own[edited + 1 :]
    if len(old_cues) != len(scene.cues) or [c["own"] for c in old_cues[edited + 1 :]] != later_new:
        return None
    old_start = old_cues[edited + 1]["start"] if edited + 1 < len(old_cues) else index.get("frames")
    tail: list[Stretch] = []
    pos = old_start
    while pos != index.get("frames"):
        nxt = next((s for s in stored if s.start == pos), None)
        if nxt is None:
            return None
        tail.append(nxt)
        pos = nxt.end
    before = [f.result() for k, f in futures.items() if k[1] == first.start]
    edited_stretch = futures[(first.start, first.end)].result()
    if tail and edited_stretch.report.get("after") != tail[0].report.get("first"):
        return None
    parts = [store.folder / s.file for s in head] + [tmp / s.file for s in before + [edited_stretch]]
    parts += [store.folder / s.file for s in tail]
    return pieces.join(parts, tmp / "provisional.mp4")


def code_key(scene: ScenePlan, module: Path, quality: str, font: str) -> str:
    """The scene's code and settings, without its cues: the scene-cache key of the plan emptied."""
    bare = dataclasses.replace(scene, cues=[], frames=0, start_frame=0)
    return scene_key(bare, module, quality, extra="stretches", font=font)


def store_for(layout: MediaLayout, scene: ScenePlan) -> StretchStore:
    return StretchStore(layout.preview_stretches(scene.id))


__all__ = ["Remake", "Stretch", "StretchStore", "code_key", "remake", "store_for"]
