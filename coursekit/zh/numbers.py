"""Numbers as people say them in Mandarin: digits to Chinese numerals, years, 两, signs and percentages.

The one number reader of the engine: the pinyin voices hear what ``expand_numbers`` gives, and the
listening check compares transcripts through it (``signed=True``).

- a year, a four-digit number from 1000 to 2999 directly followed by 年, is read digit by digit
  with 〇 for zero: 2017 年 -> 二〇一七年;
- a bare 2 directly before a measure word (个 格 对 步 种 根 支 条 次 倍 …) is 两: 隔 2 格 ->
  隔两格 (but 第 2 个, 2 维 and 2 号 keep 二);
- any other number is a Chinese number: 60611 -> 六万零六百一十一, 6.28 -> 六点二八; a number with
  a leading zero (007) or of 17 or more digits is read digit by digit;
- with ``signed=True``, a minus sign before a number is 负 and a percent sign after it 百分之:
  -1 -> 负一, 50% -> 百分之五十.

It is written by hand, not taken from ``cn2an`` (PyPI), because cn2an misreads forms this narration
uses or its readers meet: its text conversion (``transform``) reads the year in 读 2017 年 as
二千零一十七 (a space before 年) but the duration 5000年 as 五零零零年, says 二 before measure words
(隔 2 格 -> 隔 二 格), reads a hyphen as a minus (GPT-2 -> GPT负二, x-1 -> x负一) and does not know
U+2212 (−1); its number reader (``an2cn``) drops leading zeros (007 -> 七), stops at 16 digits and
reads no '%'. The rules above would stay ours anyway; what cn2an could replace is ``integer_to_chinese``
(forty lines), and then its version would decide what the pinyin voices hear without being part of
their cache key (``PINYIN_RULES``).
"""

from __future__ import annotations

import re

DIGITS = "零一二三四五六七八九"
#: a number: digits, with a decimal point between digits
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
#: a number with an optional minus sign (ASCII or U+2212) before it and percent sign after it
SIGNED_NUMBER_RE = re.compile(r"(?<![\d.])[-−]?\d+(?:\.\d+)?%?")
#: a year: four digits from 1000 to 2999 directly followed by 年 (spaces between allowed)
YEAR_RE = re.compile(r"(?<![\d.])([12]\d{3})(?=\s*年)")
#: measure words before which the number 2 is said 两 (两个, 两格); 二 stays before 维, 号, 度 …
LIANG_MEASURES = "个格对步种根支条次倍张只块层组圈遍句座"
LIANG_RE = re.compile(r"(?<![\d.第])(?<!第 )2(?![\d.])(?=\s*[" + LIANG_MEASURES + "])")
_UNITS = ("", "万", "亿", "万亿")


def _section(n: int) -> str:
    """0 < n < 10000 in Chinese, with inner zeros read as one 零."""
    out = []
    zero = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = n // value % 10
        if d == 0:
            zero = bool(out)
            continue
        if zero:
            out.append("零")
            zero = False
        out.append(DIGITS[d] + unit)
    return "".join(out)


def digit_by_digit(digits: str, zero: str = "零") -> str:
    """Each digit on its own: '007' -> 零零七; with ``zero='〇'``, '2017' -> 二〇一七."""
    return "".join(zero if d == "0" else DIGITS[int(d)] for d in digits)


def integer_to_chinese(digits: str) -> str:
    """Read a string of ASCII digits as a Chinese number: '60611' -> 六万零六百一十一.

    A leading zero ('007') or a number of 17 or more digits is read digit by digit.
    """
    if not digits.isascii() or not digits.isdigit():
        raise ValueError(f"not a string of digits: {digits!r}")
    if (len(digits) > 1 and digits[0] == "0") or len(digits) > 16:
        return digit_by_digit(digits)
    n = int(digits)
    if n == 0:
        return "零"
    groups = []
    while n:
        groups.append(n % 10000)
        n //= 10000
    out = []
    need_zero = False
    for idx in range(len(groups) - 1, -1, -1):
        g = groups[idx]
        if g == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or g < 1000):
            out.append("零")
        out.append(_section(g) + _UNITS[idx])
        need_zero = False
    text = "".join(out)
    if text.startswith("一十"):
        text = text[1:]
    return text


def number_to_chinese(number: str) -> str:
    """'6.28' -> 六点二八, '60611' -> 六万零六百一十一; with a sign or a percent sign
    (``SIGNED_NUMBER_RE``): '-1' -> 负一, '−0.5' -> 负零点五, '50%' -> 百分之五十."""
    sign = ""
    if number[:1] in ("-", "−"):
        sign, number = "负", number[1:]
    percent = number.endswith("%")
    if percent:
        number = number[:-1]
    whole, _, frac = number.partition(".")
    out = integer_to_chinese(whole)
    if frac:
        out += "点" + digit_by_digit(frac)
    return sign + ("百分之" + out if percent else out)


def year_to_chinese(digits: str) -> str:
    """A year digit by digit, zero as 〇: '2017' -> 二〇一七."""
    return digit_by_digit(digits, zero="〇")


def expand_numbers(text: str, signed: bool = False) -> str:
    """Replace every number by its Chinese reading (see the module docstring).

    Years (``YEAR_RE``) are read digit by digit, a bare 2 before a measure word is 两, and every
    other number is read as a number; ``signed``: a minus sign before it and a percent sign after it
    are read too (the listening check's transcripts have them; in what the voices are given '-' is a
    hyphen and '%' is not allowed, so the lexicon's terms say signs and percentages). The length of
    the text may change.
    """
    text = YEAR_RE.sub(lambda m: year_to_chinese(m.group(1)), text)
    text = LIANG_RE.sub("两", text)
    return (SIGNED_NUMBER_RE if signed else NUMBER_RE).sub(lambda m: number_to_chinese(m.group()), text)
