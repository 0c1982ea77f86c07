"""One jieba tokenizer (Chinese word segmentation) for the project: quiet, initialised once, thread-safe.

Used where words matter without guessing: subtitle line breaks never split a word, and the
polyphone check's witness segmentation. Dictionary-only cuts (``HMM=False``) are deterministic.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_tokenizer = None


def tokenizer():
    """The shared jieba ``Tokenizer`` (jieba is imported on first use: light commands start fast)."""
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                import jieba  # its dictionary takes a second to load: only when text is cut

                jieba.setLogLevel(60)
                tok = jieba.Tokenizer()
                tok.initialize()
                _tokenizer = tok
    return _tokenizer
