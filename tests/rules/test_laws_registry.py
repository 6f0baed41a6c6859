"""The statute profiles as data: each law found by its key, every parameter cited and dated, the unconfirmed texts
flagged, and 1-13.5-1306 the default that every rule applies when given no law."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from rules.laws import DEFAULT_LAW, DEFAULT_LAW_KEY, LAW_KEYS, LAWS, UnknownLaw, law_profile
from rules.laws.profile import LeftoverRule, Part
from rules.parties import PartyKind

CITATION = re.compile(r"^C\.R\.S\. \d+-\d+(\.\d+)?-\d+(\.\d+)?(\([0-9a-zA-Z.]+\))*")


def test_the_three_laws_by_their_keys_and_the_default() -> None:
    assert LAW_KEYS == ("1-13.5-1306", "31-10-1207", "1-10.5")
    assert DEFAULT_LAW_KEY == "1-13.5-1306" and DEFAULT_LAW is LAWS["1-13.5-1306"]
    assert law_profile(None) is DEFAULT_LAW
    assert law_profile("31-10-1207") is LAWS["31-10-1207"]
    assert law_profile(" C.R.S. 1-10.5 ") is LAWS["1-10.5"]


@pytest.mark.parametrize("key", ["1306", "1-13.5-1307", "", "31-10-1207 ", "x" * 200])
def test_an_unknown_law_is_refused_naming_the_known_ones(key) -> None:
    if key.strip() in LAWS:
        assert law_profile(key) is LAWS[key.strip()]
        return
    with pytest.raises(UnknownLaw) as refused:
        law_profile(key)
    message = str(refused.value)
    assert "1-13.5-1306, 31-10-1207, 1-10.5" in message and len(message) < 200


@pytest.mark.parametrize("key", LAW_KEYS)
def test_every_provision_is_cited_quoted_and_dated(key) -> None:
    law = LAWS[key]
    provisions = law.all_provisions()
    assert len(provisions) >= 15
    for p in provisions:
        assert CITATION.match(p.citation), p.citation
        assert len(p.words) > 15, p.citation
        assert p.copy.read_on == dt.date(2026, 12, 4)
        assert p.copy.current_through and p.copy.where
        if not p.confirmed:
            assert p.note, f"{p.citation} is flagged unconfirmed without saying what is missing"
    for part in (Part.CONDUCT, Part.EVIDENCE, Part.RESULTS, Part.CERTIFICATE, Part.PRE_COUNT):
        assert law.cite(part).startswith("C.R.S. ")


def test_the_2023_text_of_1_10_5_106_2_that_could_not_be_read_is_flagged() -> None:
    law = LAWS["1-10.5"]
    assert law.requesting.provision.confirmed and law.requesting.provision.copy.tag == "CT24"
    for provision in (law.payment.provision, law.refund, law.leftover.provision, law.requested_completion.provision):
        assert provision.confirmed is False
        assert "could not be read" in provision.note or "could be read only" in provision.note
    assert law.requested_completion.days == 31 and "thirty-seventh" in law.requested_completion.reading
    assert any("1-10.5-106(2)" in note for note in law.unconfirmed)
    # 1-10.5-103 was read in the 2023 text: the thirty-first day, and the older thirty-fifth is noted.
    assert law.automatic_completion.days == 31 and law.automatic_completion.provision.copy.tag == "CPL24"
    assert "thirty-fifth" in law.automatic_completion.provision.note


def test_the_corrections_to_the_issue_table_are_in_the_profiles() -> None:
    uec, municipal, local = LAWS["1-10.5"], LAWS["31-10-1207"], LAWS["1-13.5-1306"]
    # The automatic recount under 1-10.5 is paid by the entity that certified the item (101(2)).
    assert uec.automatic_payer.provision.citation == "C.R.S. 1-10.5-101(2)"
    assert "entity that certified" in uec.automatic_payer.who
    # Notice under 1-10.5-105 by e-mail, telephone, fax or personal service (since 2021): no certified mail.
    assert uec.notice.means == ("e-mail", "telephone", "facsimile transmission", "personal service")
    # Ties: the board of canvassers (1-11-102); the clerk (31-10-1204); the canvass board (1-13.5-1304).
    assert (uec.tie.provision.citation, uec.tie.drawn_by) == ("C.R.S. 1-11-102",
                                                              "the board of canvassers (the canvass board)")
    assert (municipal.tie.provision.citation, municipal.tie.drawn_by) == ("C.R.S. 31-10-1204",
                                                                          "the clerk and the clerk's assistant")
    assert (local.tie.provision.citation, local.tie.drawn_by) == ("C.R.S. 1-13.5-1304", "the canvass board")
    # The municipal notice: certified mail, posting in three public places, or other means.
    assert municipal.notice.means[0] == "certified mail" and "three public places" in municipal.notice.means[1]


def test_who_may_request_differs_by_law() -> None:
    kinds = {key: {r.kind for r in law.requesting.parties} for key, law in LAWS.items()}
    assert kinds["1-13.5-1306"] == {PartyKind.ELIGIBLE_ELECTOR, PartyKind.CANDIDATE, PartyKind.ISSUE_COMMITTEE}
    assert kinds["31-10-1207"] == {PartyKind.CANDIDATE, PartyKind.PETITION_REPRESENTATIVE}
    assert PartyKind.ELIGIBLE_ELECTOR not in kinds["1-10.5"] and len(kinds["1-10.5"]) == 5


def test_leftover_rules() -> None:
    assert [LAWS[k].leftover.rule for k in LAW_KEYS] == [
        LeftoverRule.RETURN_TO_REQUESTER, LeftoverRule.RETURN_BY_READING, LeftoverRule.TO_OFFICIALS]
    assert LAWS["31-10-1207"].leftover.reading and LAWS["1-10.5"].leftover.reading


def test_a_profile_cannot_be_changed_in_place() -> None:
    with pytest.raises(AttributeError):
        LAWS["1-10.5"].key = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        LAWS["1-10.5"].parts[Part.CONDUCT] = LAWS["1-10.5"].refund  # type: ignore[index]
