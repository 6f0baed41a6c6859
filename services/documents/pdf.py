"""A PDF page set up the same way for every document: Letter, DejaVu Serif with the Noto fonts behind it for
every other script (services/documents/glyphs.py; all shipped with the package, so a name prints the same on any
machine), text shaping where a text needs it (HarfBuzz: Arabic joins, Hebrew and Arabic run right to left,
Indic and Southeast Asian scripts compose), fixed metadata dates so the same record renders to the same bytes.

Callers check their text first (`glyphs.ensure_printable`) and print only `glyphs.prepare`d text: a character
no font has is refused before a page exists, never left blank by fpdf2."""
from __future__ import annotations

import datetime as dt
from typing import Iterable

from fpdf import FPDF

from services.documents.glyphs import FONTS, MAIN, faces_for, needs_shaping

FAMILY = MAIN.family

__all__ = ["FAMILY", "FONTS", "new_pdf", "output"]


class _Document(FPDF):
    """fpdf2's FPDF, shaping only the text that needs it (glyphs.needs_shaping), around one fpdf2 bug; with
    "Page N of M" at the foot of each page when `page_numbers` (a record of several pages read on paper)."""

    page_numbers = False

    def footer(self) -> None:
        if not self.page_numbers:
            return
        self.set_y(-14)
        self.set_font(FAMILY, "", 8)
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="C")

    def _shape_for(self, text: str) -> None:
        wanted = needs_shaping(text or "")
        if wanted != bool(self.text_shaping):
            self.set_text_shaping(wanted)

    def cell(self, w=None, h=None, text="", *args, **kwargs):
        self._shape_for(text)
        return super().cell(w, h, text, *args, **kwargs)

    def multi_cell(self, w, h=None, text="", *args, **kwargs):
        self._shape_for(text)
        return super().multi_cell(w, h, text, *args, **kwargs)

    def _render_styled_text_line(self, *args, **kwargs):
        # fpdf2 2.8.9 (py-pdf/fpdf2#1772, partly fixed by #1775): when the first text after set_font() starts in
        # a fallback font and ends in one, fpdf2 sets the page's font inside a q…Q pair that the line's end
        # undoes, then believes it set: every later line in the main font is written with no font at all
        # ("No font in show", blank in a viewer). Setting the main font on the page first, outside any q…Q,
        # is what fpdf2 does itself when the first text is in the main font.
        if self.page and self.current_font is not None and not self.current_font_is_set_on_page:
            self._out(self._set_font_for_page(self.current_font, self.font_size_pt))
        return super()._render_styled_text_line(*args, **kwargs)


def new_pdf(title: str, *, created: dt.datetime, texts: Iterable[str] = (), page_numbers: bool = False) -> FPDF:
    """A document ready for text. `texts`: everything it will print, so the fonts for its scripts are loaded
    (only those: Noto Sans CJK alone takes most of a second). `page_numbers`: "Page N of M" at each page's foot."""
    pdf = _Document(orientation="P", unit="mm", format="Letter")
    pdf.page_numbers = page_numbers
    for style, name in MAIN.files:
        pdf.add_font(MAIN.family, style, FONTS / name)
    fallbacks = faces_for("".join(texts))
    for face in fallbacks:
        for style, name in face.files:
            pdf.add_font(face.family, style, FONTS / name)
    # Any style: only DejaVu, Hebrew and Arabic have a bold face; a bold Korean name prints in the regular one.
    pdf.set_fallback_fonts([face.family for face in fallbacks], exact_match=False)
    pdf.set_title(title)
    pdf.set_author("recount-bot")
    pdf.set_creator("recount-bot")
    pdf.set_creation_date(created)
    pdf.set_margins(22, 20, 22)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    pdf.set_font(FAMILY, size=11)
    return pdf


def output(pdf: FPDF) -> bytes:
    return bytes(pdf.output())
