"""Mandarin text: Chinese characters and punctuation, numbers read out, the lexicon, pinyin, the polyphone check."""
