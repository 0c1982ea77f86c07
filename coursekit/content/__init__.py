"""What the course says: the narration schema, cue text, figures, the glyph check and the polyphone check over the course."""
