"""The certificate of election (1306(6)): one per candidate with the highest number of votes.

Every name on it is checked before a page is made (services/documents/glyphs.py): a character no bundled font has
refuses the certificate (UnprintableText), so none is ever issued without the winner's full name. The
completion calls `check_names` before it records anything, so the refusal comes while the recount can still
be completed once the name is put right."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rules.calendar import DENVER
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from services.documents.glyphs import ensure_printable, isolate, prepare
from services.documents.pdf import FAMILY, new_pdf, output
from services.wording import echoed


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
    by_lot_on: dt.date | None = None  # elected by the lot that decided a tie the recount left (1-13.5-1304)
    official_name: str | None = None  # printed under the signature rule, above the title
    law: LawProfile = DEFAULT_LAW  # the law the election is held under: what the recount and the lot were under
    law_named: str = ""  # how the law is named at the foot (services.election_law.ElectionLaw.named)


def _one_line(text: str) -> str:
    """A name as one line: a newline or a tab typed into it is a space on paper."""
    return " ".join(prepare(text).split())


def check_names(*, candidate: str, office: str, election: str, local_government: str,
                official_title: str = CertificateFacts.official_title, official_name: str | None = None,
                consequence: str = "") -> None:
    """Refuse (UnprintableText, a UserError) a certificate whose names the bundled fonts cannot print whole."""
    ensure_printable([("the candidate's name", candidate), ("the office", office), ("the election", election),
                      ("the local government", local_government), ("the official's title", official_title),
                      ("the official's name", official_name or "")],
                     what=f"The certificate of election for “{echoed(_one_line(candidate))}”", consequence=consequence)


def _section_words(citation: str) -> str:
    """"C.R.S. 1-13.5-1304" -> "section 1-13.5-1304, Colorado Revised Statutes", as a certificate says it."""
    return f"section {citation.removeprefix('C.R.S. ')}, Colorado Revised Statutes"


def _law_words(law: LawProfile) -> str:
    """The recount law in a certificate's words: its section, or for a law that is a whole article (1-10.5) the
    article."""
    if law.section.count("-") == 2:
        return _section_words(law.citation)
    title, article = law.section.split("-")
    return f"article {article} of title {title}, Colorado Revised Statutes ({law.citation}, {law.plain_name})"


def certificate_pdf(facts: CertificateFacts) -> bytes:
    check_names(candidate=facts.candidate, office=facts.office, election=facts.election,
                local_government=facts.local_government, official_title=facts.official_title,
                official_name=facts.official_name)
    candidate, office, election = _one_line(facts.candidate), _one_line(facts.office), _one_line(facts.election)
    government, title = _one_line(facts.local_government), _one_line(facts.official_title)
    signer = _one_line(facts.official_name or "")
    created = dt.datetime.combine(facts.issued_on, dt.time(12), DENVER)
    pdf = new_pdf(f"Certificate of Election — {candidate}", created=created,
                  texts=(candidate, office, election, government, title, signer))
    width = pdf.epw
    pdf.set_font(FAMILY, "B", 22)
    pdf.ln(18)
    pdf.cell(width, 12, "CERTIFICATE OF ELECTION", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, "", 12)
    pdf.multi_cell(width, 8, government, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(14)
    pdf.set_font(FAMILY, "", 12)
    seats = f" (one of {facts.seats} seats)" if facts.seats > 1 else ""
    pdf.multi_cell(width, 7, (
        f"I, the designated election official of {isolate(government)}, certify that at the "
        f"{isolate(election)} held on {facts.election_date:%B %-d, %Y}, after the recount conducted under "
        f"{_law_words(facts.law)},"), align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font(FAMILY, "B", 18)
    pdf.multi_cell(width, 10, candidate, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, "", 12)
    pdf.ln(4)
    if facts.by_lot_on is None:
        elected = (f"received the highest number of votes, {facts.votes:,}, for the office of {isolate(office)}"
                   f"{seats}, and is duly elected to that office.")
    else:
        elected = (f"received {facts.votes:,} votes for the office of {isolate(office)}{seats}, tied with another "
                   f"candidate after the recount, was chosen by lot on {facts.by_lot_on:%B %-d, %Y} under "
                   f"{_section_words(facts.law.tie.provision.citation)}, and is duly elected to that office.")
    pdf.multi_cell(width, 7, elected, align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)
    pdf.multi_cell(width, 7, f"Given on {facts.issued_on:%B %-d, %Y}.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(28)
    pdf.cell(95, 0, "", border="T", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    if signer:
        pdf.multi_cell(95, 6, signer, new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(95, 6, title, new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(95, 6, government, new_x="LMARGIN", new_y="NEXT")
    if facts.case_id is not None:
        pdf.set_y(-30)
        pdf.set_font(FAMILY, "", 8)
        pdf.cell(width, 5, f"Recount case #{facts.case_id} · {facts.law.cite(Part.CERTIFICATE)}", align="C")
    if facts.law_named:
        pdf.set_y(-25)
        pdf.set_font(FAMILY, "", 8)
        pdf.cell(width, 5, f"Held under {facts.law_named}", align="C")
    return output(pdf)
