"""The course's narration: one YAML file per lesson, the lexicon, and the figures they quote."""
