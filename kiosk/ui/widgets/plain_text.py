"""Text from the server or a person, put inside a sentence of the counter's own.

A name quoted in a message ("Not the client identified (%1): ...") is cut to a few
words with "…", so that the sentence around it keeps its room on a counter screen; the
whole name stays where it is shown on its own (the client card, with its tooltip).
"""

from __future__ import annotations

QUOTED_CHARS = 32  # a quoted name: about three words of a long name


def clip(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` with its white space folded, cut at ``limit`` characters with "…"
    (at a word's end where one is near)."""
    folded = " ".join(text.split())
    if len(folded) <= limit:
        return folded
    cut = folded[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"
