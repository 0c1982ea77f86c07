"""What the course says: the narration schema, cue text, the lexicon and its readings, figures."""
