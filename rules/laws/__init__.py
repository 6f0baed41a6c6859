"""The recount laws an election can run under, by key: one dated, cited `LawProfile` each.

`law_profile("31-10-1207")` is what services load for an election; `DEFAULT_LAW` (C.R.S. 1-13.5-1306) is what a
rule applies when it is given none, so every caller written before the other laws keeps its answers. A new law is a
new module building a `LawProfile`, added to `_PROFILES` below, with its tests; nothing else changes.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from rules.laws import co_1_10_5, co_1_13_5_1306, co_31_10_1207
from rules.laws.profile import LawProfile

_PROFILES = (co_1_13_5_1306.PROFILE, co_31_10_1207.PROFILE, co_1_10_5.PROFILE)

LAWS: Mapping[str, LawProfile] = MappingProxyType({p.key: p for p in _PROFILES})
LAW_KEYS: tuple[str, ...] = tuple(LAWS)
DEFAULT_LAW_KEY = co_1_13_5_1306.KEY
DEFAULT_LAW: LawProfile = LAWS[DEFAULT_LAW_KEY]


class UnknownLaw(ValueError):
    """A law key that names no profile."""


def law_profile(key: str | None) -> LawProfile:
    """The profile for `key` ("1-13.5-1306", "31-10-1207", "1-10.5"); None gives the default (1-13.5-1306).
    A key is matched after trimming spaces and an optional "C.R.S. " prefix; anything else raises UnknownLaw."""
    if key is None:
        return DEFAULT_LAW
    if not isinstance(key, str):
        raise UnknownLaw(f"a law is named by its key ({', '.join(LAW_KEYS)}), not {type(key).__name__}")
    cleaned = key.strip()
    if cleaned.upper().startswith("C.R.S."):
        cleaned = cleaned[len("C.R.S."):].strip()
    try:
        return LAWS[cleaned]
    except KeyError:
        shown = key if len(key) <= 40 else key[:40] + "..."
        raise UnknownLaw(f"{shown!r} is not a recount law the bot knows; one of {', '.join(LAW_KEYS)}") from None


__all__ = ["DEFAULT_LAW", "DEFAULT_LAW_KEY", "LAWS", "LAW_KEYS", "LawProfile", "UnknownLaw", "law_profile"]
