"""Chinese subtitles: the line rules (rules), lines (lines), events cut and timed from speech (events),
SRT and WebVTT files (files), and when each character is spoken, for the page (word_times)."""
