"""Certificates of election print every name, in every script Colorado's voters write, or refuse: the text a
PDF reader extracts (pypdf) must give each name back, and a character no bundled font has is an error naming
the field and the character, never a blank (issue 14, item 2)."""
from __future__ import annotations

import datetime as dt
import io
import unicodedata

import pytest
from pypdf import PdfReader

from handlers.slack_text import said
from services.documents.certificate import CertificateFacts, certificate_pdf
from services.documents.glyphs import CHAIN, UnprintableText, coverage, prepare
from services.documents.pdf import FAMILY, new_pdf, output
from services.errors import UserError

# (name, the font that must print it): Latin, Cyrillic, Greek, CJK, Hebrew, Arabic, emoji, and the scripts of
# Colorado's Ethiopian, Nepali and Thai communities.
NAMES = [
    ("José Núñez", "DejaVuSerif"),
    ("Nguyễn Văn Ánh", "DejaVuSerif"),
    ("Дмитрий Иванов", "DejaVuSerif"),
    ("Ελένη Παπαδοπούλου", "DejaVuSerif"),
    ("王秀英", "NotoSansCJKsc"),
    ("김민준", "NotoSansCJKsc"),
    ("山田 はなこ", "NotoSansCJKsc"),
    ("שרה לוי", "NotoSerifHebrew"),
    ("محمد الأحمد", "NotoNaskhArabic"),
    ("Ana 🌻 López", "NotoEmoji"),
    ("አበበ ቢቂላ", "NotoSerifEthiopic"),
    ("राम बहादुर", "NotoSerifDevanagari"),
    ("สมชาย ใจดี", "NotoSerifThai"),
]


def facts(candidate: str, **changes) -> CertificateFacts:
    values = dict(candidate=candidate, votes=1234, office="Director", election="Regular Election",
                  election_date=dt.date(2026, 11, 3), local_government="Pine Ridge Metropolitan District",
                  issued_on=dt.date(2026, 11, 30), case_id=7)
    values.update(changes)
    return CertificateFacts(**values)


def lines(data: bytes) -> list[str]:
    """The PDF's text as pypdf extracts it, line by line, presentation forms (Arabic) folded by NFKC."""
    reader = PdfReader(io.BytesIO(data))
    return [unicodedata.normalize("NFKC", line).strip() for page in reader.pages
            for line in page.extract_text().splitlines()]


def printed(name: str, data: bytes) -> bool:
    """The name is on a line of the PDF as stored: in reading order, or (right-to-left scripts) with its words
    in the order they stand on the page, each word's letters in reading order."""
    name = unicodedata.normalize("NFKC", name)
    words = name.split()
    return any(name in line or " ".join(reversed(words)) in line for line in lines(data))


def fonts_of(data: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(data))
    return {str(font.get_object()["/BaseFont"]).split("+")[-1] for page in reader.pages
            for font in page["/Resources"]["/Font"].values()}


@pytest.mark.parametrize(("name", "family"), NAMES, ids=[n for n, _ in NAMES])
def test_a_certificate_prints_the_winners_name_in_its_script(name: str, family: str) -> None:
    data = certificate_pdf(facts(name))
    assert printed(name, data), lines(data)
    assert any(f.lower().startswith(family.lower()[:12]) for f in fonts_of(data)), fonts_of(data)
    assert printed("CERTIFICATE OF ELECTION", data) and printed("Designated Election Official", data)


def test_every_field_of_a_certificate_prints_whatever_its_script() -> None:
    data = certificate_pdf(facts("محمد الأحمد", office="理事 (Director)", election="Выборы 2026",
                                 local_government="שרה לוי Water District", official_title="Δήμαρχος"))
    text = " ".join(lines(data))
    for part in ("理事 (Director)", "Выборы 2026", "Water District", "Δήμαρχος"):
        assert part in text, text
    assert "لوي שרה" not in text and ("שרה לוי" in text or "לוי שרה" in text)


def test_a_latin_certificate_loads_no_other_font_and_is_not_shaped() -> None:
    # Latin-only documents are set as they always were: DejaVu alone, glyph by glyph.
    data = certificate_pdf(facts("Dana Whitfield"))
    assert fonts_of(data) == {"DejaVuSerifBook", "DejaVuSerifBold"}
    assert b"/F1" in data and len(data) < 21_000  # 19.5 KB, as before the fallback fonts
    assert printed("Dana Whitfield", data)


@pytest.mark.parametrize(("name", "character"), [
    ("Dana \ue000 Whitfield", "“\ue000” (U+E000, a private-use character)"),
    ("ᏣᎳᎩ Smith", "U+13E3 CHEROKEE LETTER TSA"),  # a script no bundled font covers
    ("Dana\x07Whitfield", "U+0007 (a control character)"),
    ("Ελένη\u0378", "(U+0378, a code point Unicode"),  # unassigned
])
def test_a_name_with_a_character_no_font_has_is_refused_naming_it(name: str, character: str) -> None:
    with pytest.raises(UnprintableText) as refused:
        certificate_pdf(facts(name))
    message = refused.value.message
    assert isinstance(refused.value, UserError)  # shown to the person as is, like every refusal
    assert message.startswith("The certificate of election for “")
    assert "the candidate's name “" in message and character in message, message
    assert refused.value.missing[0].where == "the candidate's name"


def test_every_unprintable_field_is_named_not_only_the_first() -> None:
    with pytest.raises(UnprintableText) as refused:
        certificate_pdf(facts("Dana \ue000", office="Director \ue001", local_government="Pine \ue002"))
    assert [m.where for m in refused.value.missing] == ["the candidate's name", "the office", "the local government"]
    assert "• also the office “Director \ue001”: “\ue001” (U+E001, a private-use character)" in refused.value.message


def test_invisible_formatting_is_kept_where_a_font_maps_it_and_dropped_where_none_does() -> None:
    # Bidi isolates pasted with a name: Noto Serif maps them (zero width); the name prints whole.
    assert printed("שרה לוי", certificate_pdf(facts("\u2068שרה לוי\u2069")))
    # The Arabic letter mark: no bundled font maps it, and it has nothing to draw: dropped, not refused.
    assert prepare("محمد\u061c الأحمد") == "محمد الأحمد"
    assert printed("محمد الأحمد", certificate_pdf(facts("محمد\u061c الأحمد")))
    # Decomposed input prints as the precomposed letters the fonts have.
    assert prepare("Jose\u0301") == "José" and printed("José", certificate_pdf(facts("Jose\u0301")))


def test_a_line_that_starts_and_ends_in_a_fallback_font_leaves_the_next_lines_printable() -> None:
    # fpdf2 2.8.9 loses the page's font after such a line (services/documents/pdf.py): the lines after it vanished.
    pdf = new_pdf("t", created=dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc),
                  texts=["王秀英", "Dana Whitfield"])
    pdf.set_font(FAMILY, "", 12)
    pdf.multi_cell(0, 8, "王秀英", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 8, "Dana Whitfield", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 8, "Sam Okafor", new_x="LMARGIN", new_y="NEXT")
    assert lines(output(pdf)) == ["王秀英", "Dana Whitfield", "Sam Okafor"]


def test_the_cjk_font_covers_every_unified_ideograph_of_the_basic_block_and_every_hangul_syllable() -> None:
    cjk = coverage(next(face for face in CHAIN if face.family == "NotoSansCJKsc"))
    hangul = set(range(0xAC00, 0xD7A4))
    assert hangul <= cjk
    unified = set(range(0x4E00, 0xA000))
    # Noto Sans CJK 2.004 has all but the 16 ideographs Unicode 13-15 added at the end of the block.
    assert len(unified - cjk) <= 16 and max(unified - cjk, default=0x9FEF) > 0x9FEF
    assert len(set(range(0x3400, 0x4DC0)) - cjk) <= 10  # Extension A


def test_the_refusal_quotes_the_name_bounded_and_slack_gets_it_escaped() -> None:
    with pytest.raises(UnprintableText) as refused:
        certificate_pdf(facts("<!channel> \ue000 " + "x" * 300))
    message = refused.value.message
    assert "“<!channel> \ue000 xxx" in message  # plain words: the name as written, for any medium to escape
    assert len(message) < 600  # the name is quoted bounded, not whole
    for_slack = said(refused.value.words)
    assert "<!channel>" not in for_slack and "&lt;!channel&gt;" in for_slack
