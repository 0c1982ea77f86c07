"""Progress of long work (synthesis, the listening check): a rich bar on a terminal, else a line every 10%.

    with Progress("synthesis", total_weight=sum(len(t) for t in texts), items=len(texts), unit="cues") as work:
        for text in texts:
            seconds = speak(text)
            work.advance(len(text), seconds_made=seconds)

The weight is what the time left is estimated from (characters to speak, seconds to transcribe), so a
long cue counts for more than a short one; the bar shows items done, seconds of audio made, and the time
left. Off a terminal (a log, CI) it prints one plain line at every 10% of the weight, and one at the end.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """One long task's progress. ``say`` receives the plain lines off a terminal (default: print)."""

    def __init__(
        self,
        label: str,
        *,
        total_weight: float,
        items: int,
        unit: str,
        audio_word: str = "of speech",
        say: Callable[[str], None] | None = None,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.label, self.unit, self.audio_word = label, unit, audio_word
        self.total = max(float(total_weight), 1e-9)
        self.items = items
        self.done_items = 0
        self.done_weight = 0.0
        self.audio_s = 0.0
        self._say = say or print
        self._terminal = sys.stdout.isatty() if terminal is None else terminal
        self._clock = clock
        self._t0 = clock()
        self._next_tenth = 1
        self._bar = None
        self._task = None

    # -- what it shows

    def left_s(self) -> float | None:
        """Seconds left, from the rate so far by weight (None before anything is done)."""
        if self.done_weight <= 0:
            return None
        elapsed = self._clock() - self._t0
        return elapsed * (self.total - self.done_weight) / self.done_weight

    def line(self) -> str:
        left = self.left_s()
        pct = min(100, int(round(100 * self.done_weight / self.total)))
        return (
            f"{self.label}: {self.done_items} of {self.items} {self.unit} ({pct}%), "
            f"{self.audio_s:.0f} s {self.audio_word}, "
            + (
                f"about {_clock(left)} left"
                if left is not None and self.done_items < self.items
                else f"{_clock(self._clock() - self._t0)} elapsed"
            )
        )

    # -- the work

    def __enter__(self) -> "Progress":
        if self._terminal:
            from rich import progress as bar  # rich: only on a terminal

            self._bar = bar.Progress(
                bar.TextColumn("{task.description}"),
                bar.BarColumn(),
                bar.TaskProgressColumn(),
                bar.TextColumn("{task.fields[items]}"),
                bar.TextColumn("{task.fields[audio]}"),
                bar.TimeRemainingColumn(),
                transient=False,
            )
            self._bar.start()
            self._task = self._bar.add_task(
                self.label, total=self.total, items=self._items_text(), audio=self._audio_text()
            )
        return self

    def _items_text(self) -> str:
        return f"{self.done_items}/{self.items} {self.unit}"

    def _audio_text(self) -> str:
        return f"{self.audio_s:.0f} s {self.audio_word}"

    def advance(self, weight: float, seconds_made: float = 0.0) -> None:
        self.done_items += 1
        self.done_weight = min(self.total, self.done_weight + float(weight))
        self.audio_s += float(seconds_made)
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done_weight, items=self._items_text(), audio=self._audio_text())
            return
        crossed = False
        while self._next_tenth <= 10 and self.done_weight >= self.total * self._next_tenth / 10 - 1e-9:
            self._next_tenth += 1
            crossed = True
        if crossed and self.done_items < self.items:  # the caller says when the work is done
            self._say(self.line())

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
