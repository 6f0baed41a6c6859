"""rules.duties, case by case as the statute lists them: what is still owed after a recount, and its subsection."""
from __future__ import annotations

from decimal import Decimal

from rules.duties import (
    DUTIES_READING,
    CaseFacts,
    DutyKind,
    OwedCertificate,
    OwedNotice,
    duties_of,
    money_to_return,
    summary_lines,
)

BOARD = "Board of Directors of Pine Ridge"


def facts(**changes) -> CaseFacts:
    base = dict(case_id=7, contest="Pine Ridge - Director", requested=True, completed=True, governing_body=BOARD,
                requester="Sam Okafor")
    return CaseFacts(**{**base, **changes})


def kinds(f: CaseFacts) -> list[tuple[DutyKind, str]]:
    return [(d.kind, d.citation) for d in duties_of(f)]


def test_1_a_notice_of_the_recount_not_given_is_owed_before_and_after_completion() -> None:
    owed = OwedNotice(3, "candidate", "Sam Okafor", "C.R.S. 1-13.5-1306(1)")
    for completed in (False, True):
        [duty, *_] = duties_of(facts(completed=completed, notices=(owed,), results_notified=True))
        assert (duty.kind, duty.citation, duty.target) == (DutyKind.NOTICE, "C.R.S. 1-13.5-1306(1)", 3)
        assert duty.what == "Give notice of the recount to candidate Sam Okafor"


def test_6_after_completion_notify_the_governing_body_and_deliver_each_certificate() -> None:
    f = facts(certificates=(OwedCertificate(11, "Dana Whitfield", False), OwedCertificate(12, "Ana", True)))
    assert kinds(f) == [(DutyKind.RESULTS_NOTICE, "C.R.S. 1-13.5-1306(6)"), (DutyKind.CERTIFICATE,
                                                                               "C.R.S. 1-13.5-1306(6)")]
    assert [d.what for d in duties_of(f)] == [f"Notify {BOARD} of the results of the recount",
                                              "Deliver the certificate of election to Dana Whitfield"]
    assert duties_of(facts(completed=False)) == ()  # (6) applies "after a recount ... has been completed"


def test_2d_a_refund_and_2f_an_unused_deposit_are_owed_until_recorded_returned() -> None:
    refund = facts(results_notified=True, settlement_outcome="refund", refund=Decimal("400.00"))
    assert kinds(refund) == [(DutyKind.REFUND, "C.R.S. 1-13.5-1306(2)(d)")]
    assert duties_of(refund)[0].what == "Refund $400.00 to Sam Okafor"
    deposit = facts(results_notified=True, settlement_outcome="return_unused_deposit", deposit_return=Decimal("90.00"))
    assert kinds(deposit) == [(DutyKind.DEPOSIT_RETURN, "C.R.S. 1-13.5-1306(2)(f)")]
    assert money_to_return(deposit) == Decimal("90.00")
    assert duties_of(facts(results_notified=True, settlement_outcome="refund", refund=Decimal("400.00"),
                           money_returned=True)) == ()
    # Exactly the cost paid: nothing to return.
    assert duties_of(facts(results_notified=True, settlement_outcome="settled")) == ()


def test_2c_a_balance_due_is_owed_until_collected() -> None:
    f = facts(results_notified=True, settlement_outcome="balance_due", balance_outstanding=Decimal("100.00"))
    [duty] = duties_of(f)
    assert (duty.kind, duty.citation) == (DutyKind.BALANCE, "C.R.S. 1-13.5-1306(2)(c)")
    assert duty.what == "Collect the balance of $100.00 due from Sam Okafor"


def test_the_summary_folds_the_notices_into_one_line_and_names_each_subsection() -> None:
    owed = tuple(OwedNotice(i, "candidate", f"C{i}", "C.R.S. 1-13.5-1306(1)") for i in range(3))
    lines = summary_lines(duties_of(facts(notices=owed)), subject="case #7 (Pine Ridge)")
    assert lines == ["Record 3 outstanding notices of case #7 (Pine Ridge) (C.R.S. 1-13.5-1306(1))",
                     f"Notify {BOARD} of the results of the recount — case #7 (Pine Ridge) (C.R.S. 1-13.5-1306(6))"]
    assert "set no day" in DUTIES_READING
