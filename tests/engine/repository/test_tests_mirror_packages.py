"""Engine tests live in a folder per package of coursekit/ (or properties/, repository/, scaffold/): none at the top."""

from pathlib import Path

ENGINE_TESTS = Path(__file__).resolve().parents[1]
ROOT = ENGINE_TESTS.parents[1]
#: folders that are no package: cross-cutting properties, whole-repository checks, init's scaffold
OTHER_FOLDERS = {"properties", "repository", "scaffold"}


def misplaced(engine_tests: Path, packages: set[str]) -> list[str]:
    """Test files at the top of ``engine_tests``, or in a folder that is neither a package nor OTHER_FOLDERS."""
    out = [p.name for p in engine_tests.glob("test_*.py")]
    for folder in sorted(p for p in engine_tests.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if folder.name not in packages | OTHER_FOLDERS and any(folder.glob("test_*.py")):
            out.append(f"{folder.name}/")
    return out


def packages() -> set[str]:
    return {p.name for p in (ROOT / "coursekit").iterdir() if (p / "__init__.py").is_file()}


def test_every_engine_test_is_in_its_packages_folder():
    assert misplaced(ENGINE_TESTS, packages()) == []


def test_the_check_sees_a_test_left_at_the_top(tmp_path):
    (tmp_path / "render").mkdir()
    (tmp_path / "render" / "test_a.py").write_text("")
    (tmp_path / "test_stray.py").write_text("")
    (tmp_path / "nopackage").mkdir()
    (tmp_path / "nopackage" / "test_b.py").write_text("")
    assert misplaced(tmp_path, {"render"}) == ["test_stray.py", "nopackage/"]
