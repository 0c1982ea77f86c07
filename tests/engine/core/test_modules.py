"""coursekit.core.modules: a course's file loaded by path is loaded once, and a module already imported from
that very file is reused, however it was imported and whatever path (a link, ``..``) names it."""

from __future__ import annotations

import importlib.util
import sys

from coursekit.core.modules import load_by_path


def test_a_file_imported_under_another_name_is_reused_not_loaded_twice(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    (tmp_path / "pkg").mkdir()
    src = tmp_path / "pkg" / "figures_here.py"
    src.write_text("import random\nTOKEN = random.random()\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(tmp_path / "pkg")
    # imported through the link: its __file__ names the link, not the file
    spec = importlib.util.spec_from_file_location("pkg.figures_here", tmp_path / "link" / "figures_here.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["pkg.figures_here"] = mod
    spec.loader.exec_module(mod)
    assert load_by_path(src, "figures") is mod
    assert load_by_path(tmp_path / "pkg" / ".." / "pkg" / "figures_here.py", "figures") is mod


def test_a_file_of_the_same_name_in_another_folder_is_its_own_module(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    for folder, value in (("one", 1), ("two", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "figures.py").write_text(f"VALUE = {value}\n", encoding="utf-8")
    one = load_by_path(tmp_path / "one" / "figures.py", "figures")
    two = load_by_path(tmp_path / "two" / "figures.py", "figures")
    assert (one.VALUE, two.VALUE) == (1, 2)
    assert load_by_path(tmp_path / "one" / "figures.py", "figures") is one  # loaded once
