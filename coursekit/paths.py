"""Where things live. Every path built from user input is checked to stay inside the project."""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# COURSEKIT_NARRATION points at another narration folder (tests and drafts); default: narration/
NARRATION_DIR = Path(os.environ.get("COURSEKIT_NARRATION") or PROJECT_ROOT / "narration").resolve()
SCENES_DIR = PROJECT_ROOT / "scenes"


def inside(path: Path, root: Path) -> bool:
    """True if ``path`` (resolved, following symlinks) lies within ``root``."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False
