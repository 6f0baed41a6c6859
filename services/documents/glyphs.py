"""Which bundled font prints which character, and the check that refuses a document with a character none of
them has (fpdf2 itself only logs a warning and leaves a blank: a certificate without the winner's name).

The chain, in the order fpdf2 tries it (fonts/README.md says where each file comes from and why):
DejaVu Serif (the documents' face: Latin, Greek, Cyrillic, Armenian, Georgian, most symbols), then Noto Serif
(the Latin, Greek and Cyrillic letters DejaVu lacks), Noto Serif Hebrew, Noto Naskh Arabic, the Ethiopic,
Devanagari, Myanmar, Thai, Khmer and Lao Noto Serif faces, Noto Sans CJK SC (Chinese, Japanese, Korean) and
Noto Emoji (monochrome). Only DejaVu, Hebrew and Arabic have a bold face; elsewhere bold text prints regular.

Every text goes through `prepare` before it is checked or printed: NFC (a decomposed "é" or Hangul typed as
jamo is the precomposed character the fonts have), line ends and tabs made plain, and invisible formatting
characters that no bundled font maps (a bidi isolate, a variation selector) dropped: they have no glyph to
show. Anything else without a glyph — a private-use character, an unassigned code point, a control character,
a script no bundled font covers — is refused with `UnprintableText`, naming the field, the text and the
character. A name set inside other text goes in as `isolate(name)`, so a right-to-left name keeps its place.
"""
from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from services.errors import UserError
from services.wording import echoed

FONTS = Path(__file__).resolve().parent / "fonts"
# How many problems an error lists: a case record could have thousands, a person needs the first few.
SHOWN = 5


@dataclass(frozen=True)
class Face:
    family: str  # the name the PDF code sets it by
    files: tuple[tuple[str, str], ...]  # (style, file name): "" regular, "B" bold
    covers: str


CHAIN = (
    Face("DejaVuSerif", (("", "DejaVuSerif.ttf"), ("B", "DejaVuSerif-Bold.ttf")),
         "Latin, Greek, Cyrillic, Armenian, Georgian, symbols"),
    Face("NotoSerif", (("", "NotoSerif-Regular.ttf"),), "the Latin, Greek and Cyrillic letters DejaVu lacks"),
    Face("NotoSerifHebrew", (("", "NotoSerifHebrew-Regular.ttf"), ("B", "NotoSerifHebrew-Bold.ttf")), "Hebrew"),
    Face("NotoNaskhArabic", (("", "NotoNaskhArabic-Regular.ttf"), ("B", "NotoNaskhArabic-Bold.ttf")),
         "Arabic, Persian, Urdu"),
    Face("NotoSerifEthiopic", (("", "NotoSerifEthiopic-Regular.ttf"),), "Amharic, Tigrinya"),
    Face("NotoSerifDevanagari", (("", "NotoSerifDevanagari-Regular.ttf"),), "Nepali, Hindi, Marathi"),
    Face("NotoSerifMyanmar", (("", "NotoSerifMyanmar-Regular.ttf"),), "Burmese, Karen"),
    Face("NotoSerifThai", (("", "NotoSerifThai-Regular.ttf"),), "Thai"),
    Face("NotoSerifKhmer", (("", "NotoSerifKhmer-Regular.ttf"),), "Khmer"),
    Face("NotoSerifLao", (("", "NotoSerifLao-Regular.ttf"),), "Lao"),
    Face("NotoSansCJKsc", (("", "NotoSansCJKsc-Regular.ttf"),), "Chinese, Japanese, Korean"),
    Face("NotoEmoji", (("", "NotoEmoji-Regular.ttf"),), "emoji, in black and white"),
)
MAIN = CHAIN[0]
FALLBACKS = CHAIN[1:]


@functools.cache
def coverage(face: Face) -> frozenset[int]:
    """The code points every style of `face` maps: bold text must print as surely as regular text."""
    from fontTools.ttLib import TTFont

    maps = []
    for _style, name in face.files:
        font = TTFont(FONTS / name, lazy=True)
        try:
            maps.append(frozenset(font.getBestCmap()))
        finally:
            font.close()
    return frozenset.intersection(*maps)


@functools.cache
def _anywhere() -> frozenset[int]:
    return frozenset().union(*(coverage(face) for face in CHAIN))


def face_for(char: str) -> Face | None:
    """The first face in the chain that prints `char` (the one fpdf2 picks), or None."""
    code = ord(char)
    return next((face for face in CHAIN if code in coverage(face)), None)


def _ignorable(code: int) -> bool:
    """Invisible formatting (Unicode's Default_Ignorable_Code_Point, near enough): nothing to draw."""
    return (unicodedata.category(chr(code)) == "Cf" or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
            or 0x180B <= code <= 0x180F or code == 0x034F)


def prepare(text: str) -> str:
    """The text as it is checked and printed (see the module's docstring)."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    anywhere = _anywhere()
    return "".join(c for c in text if ord(c) in anywhere or not _ignorable(ord(c)))


def describe(char: str) -> str:
    """A character as a person can look it up: “é” (U+00E9 LATIN SMALL LETTER E WITH ACUTE)."""
    code, category = ord(char), unicodedata.category(char)
    name = unicodedata.name(char, "")
    if name:
        return f"“{char}” (U+{code:04X} {name})"
    kind = {"Cc": "a control character", "Co": "a private-use character", "Cs": "a lone surrogate",
            "Cn": f"a code point Unicode {unicodedata.unidata_version} has not assigned"}.get(category, "no name")
    if category in ("Cc", "Cs"):  # nothing to show, or nothing that can be shown
        return f"U+{code:04X} ({kind})"
    return f"“{char}” (U+{code:04X}, {kind})"


@dataclass(frozen=True)
class Missing:
    where: str  # the field, as a person reads it: "the candidate's name", "timeline #12 › after › requester"
    text: str
    char: str


class UnprintableText(UserError):
    """A document refused because a character in it has no glyph in any bundled font. Nothing was printed.
    The message is plain words (services/wording.py): every name and field in it is quoted bounded, on one line;
    Slack and a terminal each escape it their own way."""

    def __init__(self, missing: list[Missing], *, what: str, consequence: str = "") -> None:
        first = missing[0]
        lines = [f"{what} cannot be printed: {echoed(first.where)} “{echoed(first.text)}” has {describe(first.char)}, "
                 "which none of the fonts recount-bot prints with has. A document is never printed with a name "
                 "cut short." + (f" {consequence}" if consequence else "")]
        for other in missing[1:SHOWN]:
            lines.append(f"• also {echoed(other.where)} “{echoed(other.text)}”: {describe(other.char)}")
        if len(missing) > SHOWN:
            lines.append(f"• and {len(missing) - SHOWN:,} more")
        super().__init__("\n".join(lines))
        self.missing = tuple(missing)


def missing_in(texts: Iterable[tuple[str, str]]) -> list[Missing]:
    """Every (field, text) with a character no bundled font prints: one entry per field and character."""
    anywhere = _anywhere()
    found: list[Missing] = []
    for where, raw in texts:
        text = prepare(raw)
        seen = set()
        for char in text:
            if char != "\n" and ord(char) not in anywhere and char not in seen:
                seen.add(char)
                found.append(Missing(where, text, char))
    return found


def ensure_printable(texts: Iterable[tuple[str, str]], *, what: str, consequence: str = "") -> None:
    """Refuse (UnprintableText) unless every character of every text has a glyph in the chain."""
    missing = missing_in(texts)
    if missing:
        raise UnprintableText(missing, what=what, consequence=consequence)


def faces_for(text: str) -> tuple[Face, ...]:
    """The fallback faces a (prepared) text needs, in chain order: a document loads only these (Noto Sans CJK
    takes most of a second to load; a Latin-only certificate needs none)."""
    main = coverage(MAIN)
    needed = {face_for(c) for c in set(text) if ord(c) not in main and c != "\n"}
    return tuple(face for face in FALLBACKS if face in needed)


# Bidi controls DejaVu maps (LRM, RLM, embeddings and overrides): only the shaping path applies them.
_BIDI = frozenset(range(0x202A, 0x202F)) | {0x200E, 0x200F, 0x061C}


def needs_shaping(text: str) -> bool:
    """Whether a (prepared) text needs HarfBuzz: anything the main font lacks (Arabic joins, Hebrew and Arabic
    run right to left, Indic and Southeast Asian clusters, emoji sequences), a combining mark, a bidi control.
    Text that needs none is set as before, glyph by glyph: shaping Latin text only adds a position per
    kerned glyph, making a case record two and a half times the size and four times slower."""
    main = coverage(MAIN)
    return any(ord(c) not in main or ord(c) in _BIDI or unicodedata.category(c) in ("Mn", "Mc", "Me")
               for c in text if c != "\n")


def isolate(text: str) -> str:
    """A name set inside other text, as a bidi isolate (FSI … PDI) when it has right-to-left letters: without
    one, the numbers and punctuation beside an Arabic or Hebrew name join its right-to-left run, and in
    `"שרה לוי": 998, "محمد الأحمد": 400` the votes would stand beside the wrong names."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return f"\u2068{text}\u2069"
    return text
