"""The one kind of error a user sees: a single line, exit status 2."""
from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input or machine, reported as one line.

    The message says what is wrong, where, and how to fix it.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
