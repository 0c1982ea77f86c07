"""The engine's tests (coursekit/): on synthetic data, the mini course (tests/fixtures/mini_course), and this
course's narration and scenes where a real course is the input; the CLI, the page, the player, the studio, the
voices, subtitles, the output layout, doctor, the wheel, init and the docs."""
