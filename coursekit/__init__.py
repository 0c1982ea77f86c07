"""coursekit: an engine that turns a course (narration, scenes, figures) into narrated lesson videos.

It knows nothing of any particular course. Its packages import one way, each only from those below it:
the order is the import-linter contract in pyproject.toml (``[tool.importlinter]``), which
tests/engine/repository/test_layers.py checks.
"""
