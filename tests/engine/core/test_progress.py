"""Progress of long work off a terminal: one line at each 10% of the weight, with items, audio and time left."""

from coursekit.core.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_line_at_every_tenth_of_the_weight_with_the_time_left_from_the_rate():
    clock, said = Clock(), []
    with Progress(
        "synthesis", total_weight=100, items=20, unit="cues", say=said.append, terminal=False, clock=clock
    ) as work:
        for i in range(20):
            clock.t += 3.0
            work.advance(5, seconds_made=2.5)
    # 20 items of weight 5: a tenth every 2 items, the last one left to the caller's summary
    assert len(said) == 9
    assert said[0] == "synthesis: 2 of 20 cues (10%), 5 s of speech, about 0:54 left"
    assert said[-1] == "synthesis: 18 of 20 cues (90%), 45 s of speech, about 0:06 left"


def test_one_heavy_item_crossing_several_tenths_is_one_line():
    clock, said = Clock(), []
    with Progress(
        "listening check",
        total_weight=10,
        items=3,
        unit="cues",
        audio_word="of speech heard",
        say=said.append,
        terminal=False,
        clock=clock,
    ) as work:
        clock.t = 8.0
        work.advance(8, seconds_made=30)
        clock.t = 9.0
        work.advance(1)
        work.advance(1)
    assert said == [
        "listening check: 1 of 3 cues (80%), 30 s of speech heard, about 0:02 left",
        "listening check: 2 of 3 cues (90%), 30 s of speech heard, about 0:01 left",
    ]
