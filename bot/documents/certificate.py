"""The certificate of election (1306(6)): one per candidate with the highest number of votes."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.documents.pdf import FAMILY, new_pdf, output
from rules.calendar import DENVER


@dataclass(frozen=True)
class CertificateFacts:
    candidate: str
    votes: int
    office: str
    election: str
    election_date: dt.date
    local_government: str
    issued_on: dt.date
    official_title: str = "Designated Election Official"
    case_id: int | None = None
    seats: int = 1


def certificate_pdf(facts: CertificateFacts) -> bytes:
    created = dt.datetime.combine(facts.issued_on, dt.time(12), DENVER)
    pdf = new_pdf(f"Certificate of Election — {facts.candidate}", created=created)
    width = pdf.epw
    pdf.set_font(FAMILY, "B", 22)
    pdf.ln(18)
    pdf.cell(width, 12, "CERTIFICATE OF ELECTION", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, "", 12)
    pdf.cell(width, 8, facts.local_government, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(14)
    pdf.set_font(FAMILY, "", 12)
    seats = f" (one of {facts.seats} seats)" if facts.seats > 1 else ""
    pdf.multi_cell(width, 7, (
        f"I, the designated election official of {facts.local_government}, certify that at the "
        f"{facts.election} held on {facts.election_date:%B %-d, %Y}, after the recount conducted under "
        f"section 1-13.5-1306, Colorado Revised Statutes,"), align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font(FAMILY, "B", 18)
    pdf.multi_cell(width, 10, facts.candidate, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, "", 12)
    pdf.ln(4)
    pdf.multi_cell(width, 7, (
        f"received the highest number of votes, {facts.votes:,}, for the office of {facts.office}{seats}, "
        f"and is duly elected to that office."), align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)
    pdf.multi_cell(width, 7, f"Given on {facts.issued_on:%B %-d, %Y}.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(28)
    pdf.cell(95, 0, "", border="T", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.cell(95, 6, facts.official_title, new_x="LMARGIN", new_y="NEXT")
    pdf.cell(95, 6, facts.local_government, new_x="LMARGIN", new_y="NEXT")
    if facts.case_id is not None:
        pdf.set_y(-30)
        pdf.set_font(FAMILY, "", 8)
        pdf.cell(width, 5, f"Recount case #{facts.case_id} · C.R.S. 1-13.5-1306(6)", align="C")
    return output(pdf)
