"""What completing a recount posts in the case's thread (6): the recount report, the notice of the results to
the governing body as a letter ready to send, and the certificates of election with their links. Pure builders.

The report says, each with its citation: the totals before and after per choice, the changes per unit (5),
who received the highest number of votes (6), whether the outcome changed (6), whether it was reversed in
favor of the requester (2)(d), whether the amended margin falls within (1), a tie left for the lot
(1-13.5-1304), and for a requested recount the settlement as written to the ledger ((2)(c), (d), (f)).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers.blocks.common import MESSAGE_BLOCKS_LIMIT, context, day, denver, esc, section
from handlers.blocks.completion_section import OUTCOME_LABEL, elected_text, names, ranked_totals
from handlers.blocks.law_cites import cites
from handlers.blocks.letters import FENCE, SIGNATURE_PLACEHOLDER, letter_sections, long_day
from handlers.blocks.lot_report import notices_override_text
from handlers.slack_text import link as slack_link
from handlers.slack_text import mention
from rules.calendar import DENVER
from rules.laws.cites import Cites
from rules.money import format_money
from services.completion.complete import CertificateLine, CompletionView
from services.conduct.cases import CaseView

UNIT_CHANGES_SHOWN = 30
LEDGER_LABEL = {"expense": "Expense", "refund": "Refund to the requester",
                "deposit_return": "Unused deposit returned to the requester",
                "governing_body_payment": "Paid by the governing body", "balance_collected": "Balance collected"}
# Each ledger row's provision, as an attribute of rules.laws.cites.Cites (1306: (2)(c), (2)(d), (2)(f)).
LEDGER_CITATION = {"expense": "payment", "refund": "refund", "deposit_return": "leftover",
                   "governing_body_payment": "refund", "balance_collected": "payment"}


def _signed(number: int) -> str:
    return f"+{number:,}" if number > 0 else (f"−{-number:,}" if number < 0 else "0")


def _unit(unit: str) -> str:
    return unit or "the whole contest"


def totals_table(completion: dict) -> str:
    rows = ranked_totals(completion)
    width = max([len("Choice")] + [len(c) for c, _, _ in rows])
    lines = [f"{'Choice':<{width}}  {'Survey':>9}  {'Recount':>9}  {'Change':>7}"]
    for choice, before, after in rows:
        lines.append(f"{choice:<{width}}  {before:>9,}  {after:>9,}  {_signed(after - before):>7}")
    return "\n".join(lines)


def _changes_text(completion: dict, c: Cites) -> str:
    comparison = completion.get("comparison") or {}
    changes = comparison.get("changes") or []
    head = f"*Changes by unit* ({c.tally}: the ballots recounted and tallied on new sheets)"
    if not changes:
        return f"{head}\nNo vote changed in any unit: the recount matches the survey of returns."
    if comparison.get("same_units") is False and not any((comparison.get("total_changes") or {}).values()):
        return (f"{head}\nNo choice's total changed. The recount was counted by other units than the survey's "
                "(machines against precincts, say), so unit by unit there is nothing to compare; the survey of "
                "returns keeps its own units.")
    lines = [f"• {esc(_unit(c['unit']))} — {esc(c['choice'])}: {c['before']:,} → {c['after']:,} "
             f"({_signed(c['after'] - c['before'])})" for c in changes[:UNIT_CHANGES_SHOWN]]
    if len(changes) > UNIT_CHANGES_SHOWN:
        lines.append(f"…and {len(changes) - UNIT_CHANGES_SHOWN:,} more (the case record lists every one: "
                     "`/recount record`).")
    if comparison.get("same_units") is False:
        lines.insert(0, "_The recount's units differ from the survey's (machines against precincts, say): compare "
                        "the totals above; a unit on one side only counts 0 on the other._")
    return head + "\n" + "\n".join(lines)


def _standing(winners: list[str], tied: list[str]) -> str:
    if not winners and tied:
        return f"{names(tied)} tied"
    return names(winners) + (f", with {names(tied)} tied" if tied else "")


def _outcome_text(completion: dict, c: Cites) -> str:
    outcome = completion.get("outcome", "")
    numbers = completion.get("numbers") or {}
    text = f"*Outcome:* {OUTCOME_LABEL.get(outcome, outcome)}"
    before = _standing(completion.get("winners_before") or [], numbers.get("tied_before") or [])
    after = _standing(completion.get("winners_after") or [], numbers.get("tied_after") or [])
    if completion.get("outcome_changed"):
        text += f" — before the recount: {esc(before)}; after: {esc(after)}"
    else:
        text += f" — {esc(after)}, as the survey of returns had it"
    return text + f" ({c.results})."


def _reversal_text(completion: dict, c: Cites) -> str | None:
    favored = completion.get("requested_in_favor_of")
    if not favored:
        return None
    if completion.get("reversed_in_favor_of_requester"):
        return (f"*Reversed in favor of the requester:* yes — requested in favor of {esc(favored)}, who did not "
                f"receive the highest number of votes before the recount and does now ({c.refund}).")
    return (f"*Reversed in favor of the requester:* no — requested in favor of {esc(favored)}, "
            f"{'who already had' if favored in (completion.get('winners_before') or []) else 'who still does not have'}"
            f" the highest number of votes ({c.refund}).")


def _margin_text(completion: dict, c: Cites) -> str:
    margin = completion.get("amended_margin") or {}
    highest, second = margin.get("highest") or {}, margin.get("next_highest") or {}
    within = completion.get("amended_within_margin")
    between = ""
    if highest and second:
        between = (f" between {esc(highest['choice'])} ({highest['votes']:,}) and {esc(second['choice'])} "
                   f"({second['votes']:,})")
    votes = margin.get("margin", 0)
    return (f"*Amended margin:* {votes:,} vote{'' if votes == 1 else 's'}{between}; ½ of 1% allows at most "
            f"{margin.get('max_margin_for_recount', 0):,}: "
            + (f"*within* — {c.law.short(c.trigger)} would have required a recount" if within
               else f"outside — {c.law.short(c.trigger)} would not have required a recount")
            + f" ({c.trigger}; it decides a refund under {c.refund})."
            + (f" Reading: {esc(margin['rule'])}." if completion.get("seats", 1) > 1 and margin.get("rule") else ""))


def _tie_text(completion: dict, c: Cites) -> str | None:
    if not completion.get("tie_for_last_seat"):
        return None
    tied = completion.get("tied_for_last_seat") or []
    votes = (completion.get("amended_totals") or {}).get(tied[0], 0) if tied else 0
    seats = completion.get("seats_by_lot", 1)
    return (f":game_die: *Tie for the last {'seat' if seats == 1 else f'{seats} seats'}:* {esc(names(tied))} at "
            f"{votes:,} votes each — decided by lot by {esc(c.law.tie.drawn_by)} ({c.tie}). The certificate of "
            "election for that seat is withheld until the lot is drawn.")


def settlement_lines(view: CompletionView, c: Cites) -> list[str]:
    return [f"• {LEDGER_LABEL.get(kind, kind)}: {format_money(amount)} — {esc(memo)} "
            f"({getattr(c, LEDGER_CITATION.get(kind, 'payment'))})" for kind, amount, memo in view.settlement_entries]


def _settlement_text(case: CaseView, view: CompletionView) -> str | None:
    settlement = view.settlement
    if not settlement:
        return None
    requester = esc(case.request.requester_name) if case.request else "the requester"
    outcome = settlement.get("outcome")
    text = f"*Settlement* ({settlement.get('citation', '')}): {esc(settlement.get('reason', ''))}"
    lines = settlement_lines(view, cites(case))
    text += "\nWritten to the ledger:\n" + ("\n".join(lines) if lines else "• nothing (no money moves)")
    if outcome == "refund":
        text += f"\n*Next:* refund {format_money(Decimal(settlement['refund']))} to {requester}."
    elif outcome == "return_unused_deposit":
        text += f"\n*Next:* return the unused {format_money(Decimal(settlement['deposit_return']))} to {requester}."
    elif outcome == "balance_due":
        text += (f"\n*Next:* {format_money(Decimal(settlement['balance_due']))} is due from {requester} on demand "
                 f"({cites(case).payment}); when it is paid, press *Record balance paid* on the card.")
    return text


def report_text(case: CaseView) -> str:
    return f"Recount report: {esc(case.contest)} — completed ({cites(case).results})"


def report_blocks(case: CaseView, view: CompletionView) -> list[dict]:
    completion = view.completion or {}
    who = f" by {mention(view.completed_by)}" if view.completed_by else ""
    blocks = [
        section(f":ballot_box_with_ballot: *Recount report — {esc(case.contest)}*\n{esc(case.election)} "
                f"({day(case.election_date)}), {esc(case.local_government)} · case #{case.id} · completed "
                f"{denver(view.completed_at)}{who} ({cites(case).results})"),
        section(f"*Totals, survey of returns against the recount*\n{FENCE}\n{esc(totals_table(completion))}\n{FENCE}"),
        section(_changes_text(completion, cites(case))),
        section(f"*Highest number of votes* ({cites(case).results}): {elected_text(completion, cites(case))}."),
        section(_outcome_text(completion, cites(case))),
    ]
    for text in (_reversal_text(completion, cites(case)), _margin_text(completion, cites(case)),
                 _tie_text(completion, cites(case)),
                 _settlement_text(case, view), notices_override_text(completion, cites(case))):
        if text:
            blocks.append(section(text))
    if view.amended_version:
        blocks.append(context(f"The survey of returns now has version {view.amended_version}, amended by the recount; "
                              "every earlier version stays on the record."))
    else:
        blocks.append(context("No vote changed, so the survey of returns stands as it was: no new version of it was "
                              "written."))
    if completion.get("kind") == "question":
        nxt = f"Next: notify {esc(completion.get('notice_of_results_to', 'the governing body'))} of the results"
    else:
        nxt = (f"Next: notify {esc(completion.get('notice_of_results_to', 'the governing body'))} of the results and "
               "deliver each certificate of election to its candidate")
    blocks.append(context(nxt + f" ({cites(case).results}); record each from the card."))
    return blocks[:MESSAGE_BLOCKS_LIMIT]


# ------------------------------------------------------------------ (6): the notice of the results
def results_notice_letter(case: CaseView, view: CompletionView, *, today: dt.date, signer: str | None = None) -> str:
    completion = view.completion or {}
    body = completion.get("notice_of_results_to") or case.governing_body
    rows = ranked_totals(completion)
    width = max([len(c) for c, _, _ in rows] + [6])
    table = [f"    {c:<{width}}  {after:>9,} votes (survey of returns: {before:,})" for c, before, after in rows]
    amended = "Amended notice: " if view.lot is not None else ""
    lines = [
        case.local_government,
        "Office of the Designated Election Official",
        "",
        long_day(today),
        "",
        f"To: {body}",
        "",
        f"Re: {amended}Results of the recount - {case.contest}, {case.election} of {long_day(case.election_date)} "
        f"(recount case #{case.id})",
        *([case.law.held_under] if case.law is not None else []),
        "",
        f"Under {cites(case).results} I notify you of the results of the recount of the votes cast for {case.contest}, "
        f"completed on {long_day(view.completed_at.astimezone(DENVER).date())}"
        ". The amended count is:",
        "",
        *table,
        "",
    ]
    if completion.get("kind") == "question":
        tied = (completion.get("numbers") or {}).get("tied_after") or []
        if tied:
            lines.append(f"{names(tied)} are tied; no choice has the most votes.")
        else:
            lead = (completion.get("winners_after") or [""])[0]
            lines.append(f"{lead} received the most votes.")
    else:
        winners = completion.get("winners_after") or []
        seats = completion.get("seats", 1)
        if winners:
            lines.append(f"{names(winners)} received the highest number of votes and "
                         f"{'is' if len(winners) == 1 else 'are'} elected"
                         + ("." if seats == 1 else f" ({len(winners)} of {seats} seats)."))
        if completion.get("tie_for_last_seat"):
            tied = completion.get("tied_for_last_seat") or []
            seat = "seat" if completion.get("seats_by_lot") == 1 else "seats"
            lines.append(f"{names(tied)} are tied for the last {seat}; under {cites(case).tie} the tie is "
                         f"decided by lot by {cites(case).law.tie.drawn_by}.")
            lot = view.lot
            if lot is not None:
                others = [c for c in lot.tied if c not in lot.winners]
                lines += ["", f"The lot was drawn on {long_day(lot.drawn_at.astimezone(DENVER).date())} at "
                              f"{lot.drawn_at.astimezone(DENVER):%-I:%M %p} at {lot.place}, by {lot.conducted_by}, "
                              f"witnessed by {' '.join(lot.witnesses.split())}, by {lot.method}"
                              + (f" ({' '.join(lot.method_details.split())})" if lot.method_details else "")
                              + f". {names(lot.winners)} {'wins' if len(lot.winners) == 1 else 'win'} the lot over "
                              f"{names(others)} and {'is' if len(lot.winners) == 1 else 'are'} elected "
                              f"({cites(case).tie})."]
    if completion.get("outcome_changed"):
        lines.append(f"The recount changed the result of the election (before the recount: "
                     f"{names(completion.get('winners_before') or [])}).")
    else:
        lines.append("The recount confirmed the result of the election.")
    certificates = [c.candidate for c in view.certificates]
    if certificates:
        lines += ["", f"As {cites(case).certificate} requires, a certificate of election is made for {names(certificates)} and "
                      "will be delivered to "
                      + ("the candidate." if len(certificates) == 1 else "each candidate.")]
    if view.settlement:
        settlement = view.settlement
        what = {"refund": f"the payment of {format_money(Decimal(settlement['paid']))} is refunded to the requester "
                          f"({cites(case).refund}) and the governing body bears the actual cost of "
                          f"{format_money(Decimal(settlement['actual_cost']))}",
                "return_unused_deposit": f"the unused {format_money(Decimal(settlement['deposit_return']))} of the "
                                         f"deposit is returned to the requester ({cites(case).leftover})",
                "balance_due": f"a balance of {format_money(Decimal(settlement['balance_due']))} is due from the "
                               f"requester ({cites(case).payment})",
                "settled": "the requester's payment covered the actual cost exactly"}.get(settlement.get("outcome"))
        if what:
            lines += ["", f"The recount was requested under {cites(case).request}; its actual cost was "
                          f"{format_money(Decimal(settlement['actual_cost']))}, and {what}."]
    lines += [
        "",
        "Sincerely,",
        "",
        "",
        "______________________________",
        f"{signer or SIGNATURE_PLACEHOLDER}",
        "Designated Election Official",
        case.local_government,
    ]
    return "\n".join(lines)


def results_notice_blocks(case: CaseView, view: CompletionView, letter: str) -> list[dict]:
    body = esc((view.completion or {}).get("notice_of_results_to") or case.governing_body)
    if view.lot is not None:
        blocks = [section(f":envelope: *Amended notice of the results, ready to send* to {body} ({cites(case).results}, "
                          f"{cites(case).tie}): the results with the lot that decided the tie. Sign it and send "
                          "it; then record it on the card.")]
    else:
        blocks = [section(f":envelope: *Notice of the results, ready to send* to {body} ({cites(case).results}). Copy it "
                          "into an email or onto letterhead, sign it and send it; then press *Record results notice* "
                          "on the card.")]
    return blocks + letter_sections(letter)


def results_notice_text(case: CaseView, view: CompletionView) -> str:
    body = (view.completion or {}).get("notice_of_results_to") or case.governing_body
    if view.lot is not None:
        return (f"Amended notice of the results of the recount of {esc(case.contest)} to {esc(body)}, with the lot, "
                f"ready to send ({cites(case).results})")
    return f"Notice of the results of the recount of {esc(case.contest)} to {esc(body)}, ready to send ({cites(case).results})"


# ------------------------------------------------------------------ (6): certificates of election
def certificate_link_line(certificate: CertificateLine, link: str) -> str:
    return (f"• *{esc(certificate.candidate)}* — {certificate.votes:,} votes: "
            f"{slack_link(link, 'certificate of election (PDF)')}, link valid until {denver(certificate.expires_at)}")


def certificates_text(case: CaseView, view: CompletionView, links: dict[int, str]) -> str:
    completion = view.completion or {}
    if not view.certificates:
        if completion.get("kind") == "question":
            return f"A ballot question elects no one: there is no certificate of election to make ({cites(case).certificate})."
        return (f"No certificate of election yet: the last seat is tied and goes to the lot "
                f"({cites(case).tie}); its certificate is made once the lot is drawn.")
    lines = [certificate_link_line(c, links[c.id]) for c in view.certificates]
    text = (f":scroll: *Certificates of election* ({cites(case).certificate}): one for each candidate who received the highest "
            "number of votes. Print, sign as the designated election official and deliver each to its candidate; "
            "then press *Record delivery* on the card.\n" + "\n".join(lines))
    if completion.get("tie_for_last_seat"):
        text += (f"\nThe certificate for the tied seat is withheld until the lot is drawn ({cites(case).tie}).")
    return text + "\nAn expired link answers 410 Gone: press *New link* on the card for a fresh one."
