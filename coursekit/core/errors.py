"""The errors a user sees: each problem a single line, exit status 2."""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input or machine, reported as one line.

    The message says what is wrong, where, and how to fix it.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class UserErrors(UserError):
    """Several independent problems found by one check (``check`` reports every mismatch between the
    narration and the scenes at once): one line each, in order, exit status 2."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = [" ".join(line.split()) for line in lines]
        super().__init__(f"{self.lines[0]} (and {len(self.lines) - 1} more)" if len(self.lines) > 1 else self.lines[0])
