"""The case card's completion part (6): the "Complete the recount" button once every unit is tallied; once
completed, the key facts (who is elected, the amended totals, the settlement), the notice of the results and
each certificate of election with its delivery. Pure builders."""
from __future__ import annotations

from decimal import Decimal

from handlers.blocks.common import button, context, denver, esc, fields_section, section
from handlers.blocks.law_cites import cites
from handlers.blocks.lot_report import amended_notice_line, lot_card_lines, notices_override_text
from handlers.ids import Action
from handlers.slack_text import mention
from rules.duties import DutyKind
from rules.laws.cites import Cites
from rules.money import format_money
from services.completion.complete import CertificateLine, CompletionView
from services.conduct.cases import CaseView

OUTCOME_LABEL = {"confirmed": "the recount confirms the result", "changed": "the recount changes the result",
                 "tie_by_lot": "a tie for the last seat, left to the lot"}
SETTLEMENT_LABEL = {"refund": "refund of the payment", "return_unused_deposit": "return of the unused deposit",
                    "balance_due": "balance due from the requester", "settled": "paid exactly the actual cost"}


def names(items: list[str] | tuple[str, ...]) -> str:
    items = list(items)
    if not items:
        return "no one"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def ranked_totals(completion: dict) -> list[tuple[str, int, int]]:
    """(choice, survey votes, recount votes), most votes after the recount first."""
    before, after = completion.get("original_totals", {}), completion.get("amended_totals", {})
    return sorted(((c, before.get(c, 0), v) for c, v in after.items()), key=lambda row: (-row[2], row[0]))


def elected_text(completion: dict, c: Cites) -> str:
    """Who received the highest number of votes, as the card and the report say it."""
    totals = completion.get("amended_totals", {})
    seats = completion.get("seats", 1)
    if completion.get("kind") == "question":
        tied = completion.get("numbers", {}).get("tied_after") or []
        if tied:
            return f"{esc(names(tied))} tied; no choice has the most votes"
        lead = (completion.get("winners_after") or ["—"])[0]
        return f"*{esc(lead)}* has the most votes ({totals.get(lead, 0):,}); a ballot question elects no one"
    winners = completion.get("winners_after") or []
    shown = ", ".join(f"*{esc(w)}* ({totals.get(w, 0):,})" for w in winners) or "no one yet"
    text = f"{shown} — {'the seat' if seats == 1 else f'{len(winners)} of {seats} seats'}"
    if completion.get("tie_for_last_seat"):
        tied = completion.get("tied_for_last_seat") or []
        text += (f"; {esc(names(tied))} tied for the last {'seat' if completion.get('seats_by_lot') == 1 else 'seats'}"
                 f", to be decided by lot ({c.tie})")
    return text


def signer_prompt(case: CaseView) -> str | None:
    """Before the certificates of election are made (6): the office has not named the official who signs them, so
    their signature line would carry the title alone. Nothing for a ballot question, which certifies no one."""
    if case.certificate_signer or case.contest_kind == "question":
        return None
    return (":pencil2: *No name for the certificates' signature line.* The certificates of election "
            f"({cites(case).results}) will carry only the official's title under the signature rule. Set the name first: "
            "`/recount admin setting official-name Your Name`.")


def no_committee(case: CaseView) -> bool:
    """A ballot question with no issue committee recorded: the card warns that one affected is owed notice (1)."""
    return case.contest_kind == "question" and not any(n.recipient_kind == "issue_committee" for n in case.notices)


def notices_confirmed(case: CaseView) -> str:
    """What the confirmation says of the notices (1) when none is outstanding, as the card shows them: never "All"
    of one notice, nor "all" when the card says a ballot question's issue committee is not recorded. Short: a
    confirmation dialog's text holds at most 300 characters."""
    given = len(case.notices)
    if no_committee(case):
        return (f"Only the governing body's notice is recorded as given: no issue committee is recorded for this "
                f"ballot question, and one affected by the result is owed notice ({cites(case).notice}). ")
    if given == 1:
        return f"The notice of the recount is recorded as given ({cites(case).notice}). "
    return f"All {given} notices of the recount are recorded as given ({cites(case).notice}). " if given else ""


def _complete_button(case: CaseView) -> dict:
    confirm = None
    # A requested recount asks its actual cost in a modal first; notices owed (1) are listed in that modal too.
    if not case.requested and not case.notices_outstanding:
        effect = ("Completing cannot be undone." if no_committee(case) else
                  "Completing makes the certificates of election and, if a vote changed, a new version of the survey "
                  f"of returns ({cites(case).results}). It cannot be undone.")
        confirm = {"title": {"type": "plain_text", "text": "Complete the recount?"},
                   "text": {"type": "mrkdwn", "text": notices_confirmed(case) + effect},
                   "confirm": {"type": "plain_text", "text": "Complete"},
                   "deny": {"type": "plain_text", "text": "Not yet"}}
    return button("Complete the recount", Action.COMPLETE_CASE.value, str(case.id), style="primary", confirm=confirm)


def _before(case: CaseView, view: CompletionView) -> list[dict]:
    readiness = view.readiness
    if readiness is None or not readiness.ready:
        return []  # the tally's progress is shown with the conduct of the recount
    tallied, expected = readiness.progress
    return [
        section(f":checkered_flag: *Every unit is tallied* ({tallied:,} of {expected:,}, {cites(case).tally}). The "
                "designated election official completes the recount: the amended count, who received the highest "
                f"number of votes, the certificates of election and the notice of the results ({cites(case).certificate})"
                + (f", and the settlement of the requester's money ({cites(case).settlement})."
                   if case.requested else ".")),
        *([context(f":warning: {case.notices_outstanding} notice{'' if case.notices_outstanding == 1 else 's'} of "
                   f"the recount not yet recorded as given ({cites(case).notice}): completing is refused until each is "
                   "recorded above, or done with your reason for completing without them.")]
          if case.notices_outstanding else []),
        *([context(f":warning: No one is recorded as assisting in the recount ({cites(case).conduct}): completing is "
                   "refused until who assisted is recorded with *Assistants*.")]
          if case.conduct is not None and not case.conduct.assistants.assistants else []),
        *([context(prompt)] if (prompt := signer_prompt(case)) else []),
        {"type": "actions", "elements": [_complete_button(case)]},
    ]


def _settlement_field(view: CompletionView, returned: tuple | None = None) -> str | None:
    settlement = view.settlement
    if not settlement:
        return None
    outcome = settlement.get("outcome", "")
    amount = {"refund": settlement.get("refund"), "return_unused_deposit": settlement.get("deposit_return"),
              "balance_due": settlement.get("balance_due")}.get(outcome)
    citation = settlement.get("citation", "").removeprefix("C.R.S. 1-13.5-1306")  # short under 1306 only
    text = f"*Settlement* {citation}\n{SETTLEMENT_LABEL.get(outcome, outcome)}"
    if amount is not None:
        text += f": {format_money(Decimal(amount))}"
    text += f" (actual cost {format_money(Decimal(settlement.get('actual_cost', '0')))})"
    if outcome in ("refund", "return_unused_deposit") and amount is not None and Decimal(amount) > 0:
        text += (f"\n:white_check_mark: returned {denver(returned[0])} by {esc(returned[1])} ({esc(returned[2])}, "
                 f"ref. {esc(returned[3])})" if returned else "\n*not yet returned*")
    if outcome == "balance_due":
        outstanding = view.balance_outstanding
        text += ("\n:white_check_mark: collected in full" if outstanding == 0
                 else f"\n*{format_money(outstanding)} still due*")
    return text


# How each duty owed after completion (rules.duties) is recorded done from the card.
DUTY_BUTTON = {DutyKind.RESULTS_NOTICE: ("Record results notice", Action.RECORD_RESULTS_NOTICE),
               DutyKind.CERTIFICATE: ("Record delivery", Action.RECORD_DELIVERY),
               DutyKind.REFUND: ("Record refund paid", Action.RECORD_MONEY_RETURNED),
               DutyKind.DEPOSIT_RETURN: ("Record deposit returned", Action.RECORD_MONEY_RETURNED),
               DutyKind.BALANCE: ("Record balance paid", Action.RECORD_BALANCE),
               DutyKind.LOT: ("Record the lot", Action.RECORD_LOT),
               DutyKind.AMENDED_NOTICE: ("Record amended notice", Action.RECORD_RESULTS_NOTICE)}


def still_owed(case: CaseView) -> list[dict]:
    """The duties still owed after completion, each with the button that records it done (rules.duties)."""
    if not case.duties:
        return [section(":white_check_mark: *Nothing is still owed* for this recount: the results notified, "
                        "every certificate delivered, the money settled and every notice given.")]
    notices = [d for d in case.duties if d.kind is DutyKind.NOTICE]
    blocks = [section(f"*Still owed* — {len(case.duties)} item{'s' if len(case.duties) != 1 else ''}, listed in "
                      "App Home and reminded daily until recorded done")]
    if notices:
        blocks.append(section(f":hourglass_flowing_sand: {len(notices)} notice{'s' if len(notices) != 1 else ''} of "
                              f"the recount not yet given (listed below) _({notices[0].citation})_"))
    for duty in case.duties:
        if duty.kind is DutyKind.NOTICE:
            continue
        label, action = DUTY_BUTTON[duty.kind]
        blocks.append(section(f":hourglass_flowing_sand: {esc(duty.what)} _({duty.citation})_",
                              accessory=button(label, action.value, str(duty.target))))
    return blocks


def certificate_line(certificate: CertificateLine, c: Cites) -> str:
    text = f"*Certificate of election:* {esc(certificate.candidate)} ({certificate.votes:,} votes)"
    if certificate.delivered:
        return (f":white_check_mark: {text} — delivered {denver(certificate.delivered_at)} by "
                f"{esc(certificate.delivered_by or '')} ({esc(certificate.delivery_method or '')})")
    return f":hourglass_flowing_sand: {text} — not yet delivered ({c.certificate})"


def _after(case: CaseView, view: CompletionView) -> list[dict]:
    completion = view.completion or {}
    outcome = completion.get("outcome", "")
    totals = "\n".join(f"{esc(c)}: {after:,} (was {before:,})" for c, before, after in ranked_totals(completion)[:8])
    margin = completion.get("amended_margin") or {}
    c = cites(case)
    fields = [
        f"*Completed*\n{denver(view.completed_at)} by {mention(view.completed_by)}",
        f"*Outcome* {c.law.short(c.results)}\n{OUTCOME_LABEL.get(outcome, outcome)}",
        f"*Highest number of votes* {c.law.short(c.results)}\n{elected_text(completion, c)}",
        f"*Amended totals*\n{totals}",
        f"*Amended margin* {c.law.short(c.trigger)}\n{margin.get('margin', 0):,} vote{'' if margin.get('margin') == 1 else 's'}: "
        + ("within ½ of 1%" if completion.get("amended_within_margin") else "outside ½ of 1%")
        + f" (at most {margin.get('max_margin_for_recount', 0):,})",
    ]
    if case.requested and completion.get("requested_in_favor_of"):
        reversed_ = completion.get("reversed_in_favor_of_requester")
        fields.append(f"*Reversed in favor of the requester* {c.law.short(c.refund)}\n{'yes' if reversed_ else 'no'} "
                      f"({esc(completion['requested_in_favor_of'])})")
    elif case.requested and view.settlement:  # (2)(a) asks no choice of an eligible elector; (2)(d) is then a reading
        reading = next((r for r in (view.settlement.get("reading") or "").split("; ") if r.startswith("no-choice")),
                       "")
        fields.append(f"*Reversed in favor of the requester* {c.law.short(c.refund)}\nno choice named — reading: {esc(reading)}"[:2000])
    settlement = _settlement_field(view, case.money_returned)
    if settlement:
        fields.append(settlement)
    if view.amended_version:
        fields.append(f"*Survey of returns*\nversion {view.amended_version}, amended by the recount")
    else:
        fields.append("*Survey of returns*\nunchanged: no vote changed, no new version")
    blocks = [section(f":white_check_mark: *Recount completed* — {esc(completion.get('reason', ''))}"),
              fields_section(fields[:10])]
    override = notices_override_text(completion, cites(case))
    if override:
        blocks.append(section(override))
    if view.results_notice_at is not None:
        body = esc(completion.get("notice_of_results_to", ""))
        blocks.append(section(f":white_check_mark: *Results notified* to {body}"
                              f" — by {esc(view.results_notice_by or '')} by {esc(view.results_notice_method or '')}, "
                              f"{denver(view.results_notice_at)} ({cites(case).results})"))
    else:
        blocks.append(section(f":hourglass_flowing_sand: *Results not yet notified* to "
                              f"{esc(completion.get('notice_of_results_to', ''))} ({cites(case).results}): the notice is in "
                              "the case's thread, ready to send."))
    for certificate in view.certificates:
        blocks.append(section(certificate_line(certificate, cites(case))))
    if completion.get("kind") == "question":
        blocks.append(context(f"A ballot question elects no one: no certificate of election ({cites(case).certificate})."))
    elif view.lot_owed:
        drawer = cites(case).law.tie.drawn_by
        blocks.append(section(f":game_die: *A tie for the last seat is left to the lot* ({cites(case).tie}): "
                              f"{esc(names(completion.get('tied_for_last_seat') or []))}. The certificate for the "
                              f"tied seat is withheld until {esc(drawer)} {'draw' if ' and ' in drawer else 'draws'} the lot; record the drawing with "
                              "*Record the lot* below."))
    elif view.lot is not None:
        blocks.append(section("\n".join(lot_card_lines(view.lot, cites(case)))))
        if view.results_notice_at is not None and view.results_notice_at < view.lot.drawn_at:
            blocks.append(section(amended_notice_line(view, completion.get("notice_of_results_to", ""), cites(case))))
    blocks += still_owed(case)
    elements = []
    for certificate in view.certificates[:20]:
        elements.append(button(f"New link: {certificate.candidate}", Action.NEW_CERTIFICATE_LINK.value,
                               str(certificate.id)))
    if elements:
        blocks.append({"type": "actions", "elements": elements[:25]})
    return blocks


def completion_section(case: CaseView) -> list[dict]:
    """The card's blocks about completing the recount; none before every unit is tallied."""
    view = case.completion
    if view is None:
        return []
    return _after(case, view) if view.completed else _before(case, view)
