"""A PDF page set up the same way for every document: Letter, DejaVu Serif (shipped with the package, so
names in any Latin, Greek or Cyrillic script print exactly, on any machine), fixed metadata dates so the
same record renders to the same bytes."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

FONTS = Path(__file__).resolve().parent / "fonts"
FAMILY = "DejaVuSerif"


def new_pdf(title: str, *, created: dt.datetime) -> FPDF:
    pdf = FPDF(orientation="P", unit="mm", format="Letter")
    pdf.add_font(FAMILY, "", FONTS / "DejaVuSerif.ttf")
    pdf.add_font(FAMILY, "B", FONTS / "DejaVuSerif-Bold.ttf")
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
