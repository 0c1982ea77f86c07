"""The polyphone check over a course: both spoken forms of every cue (``python -m coursekit.content.reading_check``)."""

from __future__ import annotations

from coursekit.content.cue_text import cue_text
from coursekit.content.narration import Course, load_course
from coursekit.core.config import load_config
from coursekit.zh.lexicon import Lexicon
from coursekit.zh.readings import Report, check_text


def check_course(course: Course, lexicon: Lexicon) -> Report:
    """Check both spoken forms of every cue of ``course`` (``coursekit.zh.readings.check_text``)."""
    report = Report()
    for lesson in course.lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                for form, latin in (("chinese", False), ("latin", True)):
                    spoken = cue_text(cue, lexicon, reads_latin=latin).spoken
                    report.occurrences += check_text(spoken, lexicon, lesson=lesson.id, cue=cue.id, form=form)
    return report


def main(argv: list[str] | None = None) -> int:
    """Print the counts and every occurrence the check cannot justify; 1 if there is one."""
    course = load_course(load_config().lessons)
    report = check_course(course, Lexicon.load())
    print(report.summary())
    for o in report.failures:
        print("  " + o.line())
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
