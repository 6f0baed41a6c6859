"""The three laws side by side, as Markdown, generated from the profiles so the reference cannot drift from the code.

`comparison_markdown()` is the whole of docs/reference/recount-laws.md (`recount-bot laws --output FILE` writes it;
tests/docs/test_recount_laws_doc.py fails when the committed file differs). Pure: no I/O here.
"""
from __future__ import annotations

import datetime as dt
from typing import Callable, Iterable

from rules.calendar import short_day
from rules.day_counting import plural
from rules.deadlines import election_deadlines
from rules.laws import LAWS
from rules.laws.profile import LawProfile, Period, Provision
from rules.laws.sources import OFFICE_CLOSED

# A typical election under each law, for the example calendars (the dates the statutes name).
EXAMPLE_ELECTIONS = {
    "1-13.5-1306": (dt.date(2027, 5, 4), "the regular special district election, Tuesday after the first Monday of "
                                         "May in an odd-numbered year (1-13.5-111(1))"),
    "31-10-1207": (dt.date(2026, 4, 7), "a statutory town's regular election, first Tuesday of April in an "
                                        "even-numbered year (31-1-101(10))"),
    "1-10.5": (dt.date(2026, 11, 3), "the November coordinated election (1-7-116)"),
}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _period(period: Period) -> str:
    return f"day {period.days} after {period.counted_from.value} ({period.provision.citation})"


def _yes(provision: Provision | None, words: str) -> str:
    return f"{words} ({provision.citation})" if provision is not None else "no"


def _requesters(law: LawProfile) -> str:
    parties = "; ".join(r.words for r in law.requesting.parties)
    return f"{parties} ({law.requesting.parties_provision.citation})"


def _payment(law: LawProfile) -> str:
    p = law.payment
    when = p.timing.value if p.within_days is None else f"within {plural(p.within_days)} of the cost determination"
    funds = ", in certified funds" if p.certified_funds else ""
    return f"{when}{funds}; {p.held} ({p.provision.citation})"


def _cost(law: LawProfile) -> str:
    c = law.cost
    if c.no_later_than_day is None and c.within_days_of_receipt is None:
        return f"before the recount; no day set ({c.provision.citation})"
    return (f"within {c.within_days_of_receipt} days of receiving the request, no later than day "
            f"{c.no_later_than_day} after the election ({(c.deadline_provision or c.provision).citation})")


def _waiver(law: LawProfile) -> str:
    w = law.waiver
    if w is None:
        return "none"
    return f"{w.who}: {w.of_what}, by written notice within {w.by.days} days after the election ({w.provision.citation})"


def _tie(law: LawProfile) -> str:
    return f"by lot, drawn by {law.tie.drawn_by} ({law.tie.provision.citation}); covers {law.tie.covers}"


def _floor(law: LawProfile) -> str:
    pay = law.assistant_pay
    amount = f"${pay.daily_floor} a day" if pay.daily_floor is not None else "no daily floor"
    return f"{amount} ({pay.provision.citation})"


def _contest(law: LawProfile) -> str:
    c = law.contest_filing
    return f"within {c.days} days after {c.counted_from.value} ({c.provision.citation})"


def _multi_seat(law: LawProfile) -> str:
    m = law.multi_seat
    if m.statutory_rule:
        return f"last winner against first loser, as the statute says ({m.provision.citation})"
    return f"silent; the office's reading, default last winner against first loser (as {m.provision.citation})"


def _rollover(law: LawProfile) -> str:
    t = law.time
    applied = f", applied by {t.filing_rollover_applied_by.citation}" if t.filing_rollover_applied_by else ""
    return f"{t.filing_rollover.citation}{applied}; a closed office: {OFFICE_CLOSED.citation}"


ROWS: tuple[tuple[str, Callable[[LawProfile], str]], ...] = (
    ("Governs", lambda law: law.governs),
    ("Conducted by", lambda law: law.conducted_by),
    ("Automatic when", lambda law: (f"margin <= {law.trigger.share.numerator}/{law.trigger.share.denominator} of "
                                    f"{law.trigger.base}, as evidenced by {law.trigger.evidenced_by} "
                                    f"({law.trigger.provision.citation})")),
    ("Multi-seat contests", _multi_seat),
    ("Automatic recount completed by", lambda law: _period(law.automatic_completion)),
    ("Automatic recount paid by", lambda law: f"{law.automatic_payer.who} ({law.automatic_payer.provision.citation})"),
    ("Waiver of an automatic recount", _waiver),
    ("Who may request", _requesters),
    ("Notarized", lambda law: _yes(law.requesting.notarized, "yes, a notarized written request")),
    ("Once only", lambda law: _yes(law.requesting.once_only, "yes")),
    ("Filed with", lambda law: law.requesting.filed_with),
    ("Request window opens", lambda law: _period(law.requesting.opens)),
    ("Request window closes", lambda law: _period(law.requesting.closes)),
    ("Last day of a filing on a weekend or holiday", _rollover),
    ("Requested recount completed by", lambda law: _period(law.requested_completion)),
    ("Canvass by", lambda law: _period(law.canvass)),
    ("Cost determined", _cost),
    ("Payment", _payment),
    ("Refund", lambda law: f"in full if the result is reversed in the requester's favor or the amended count is "
                           f"within the automatic margin ({law.refund.citation})"),
    ("Unused deposit", lambda law: f"{law.leftover.rule.value} ({law.leftover.provision.citation})"),
    ("Notice of the recount to", lambda law: f"{'; '.join(law.notice.recipients)} ({law.notice.provision.citation})"),
    ("Notice given by", lambda law: "; ".join(law.notice.means)),
    ("May observe", lambda law: law.notice.observers),
    ("Tie", _tie),
    ("Assistants' pay", _floor),
    ("Election contest filed", _contest),
)


def _example(law: LawProfile) -> list[str]:
    election, what = EXAMPLE_ELECTIONS.get(law.key, (None, ""))
    if election is None:
        return []
    lines = [f"Example: {what}, {short_day(election)}.", ""]
    for d in election_deadlines(election, law=law).all():
        flags = []
        if d.rolled_from:
            flags.append(f"rolled from {short_day(d.rolled_from)}")
        if d.latest:
            flags.append(f"the earliest; at the latest {short_day(d.latest)}")
        if d.falls_on:
            flags.append(f"falls on {d.falls_on}")
        extra = f" ({'; '.join(flags)})" if flags else ""
        lines.append(f"- `{d.name}`: {short_day(d.date)}{extra} — {d.citation}")
    return lines


def _provisions(law: LawProfile) -> list[str]:
    lines = []
    for p in law.all_provisions():
        flag = " **Not confirmed for the text in force.**" if not p.confirmed else ""
        note = f" ({_cell(p.note)})" if p.note else ""
        lines.append(f"- **{p.citation}**, {p.copy.dated}{flag}{note}: “{_cell(p.words)}”")
    return lines


def comparison_markdown(laws: Iterable[LawProfile] | None = None) -> str:
    """The reference page: a table of the laws, then per law its example calendar, what could not be confirmed and
    every provision quoted with the copy and date it was read in."""
    chosen = list(laws if laws is not None else LAWS.values())
    out = [
        "# Recount laws: the three profiles side by side",
        "",
        "Generated from `rules/laws` by `recount-bot laws --output docs/reference/recount-laws.md`; do not edit by "
        "hand (tests/docs/test_recount_laws_doc.py fails when this file and the profiles differ). Days count as "
        "Colorado counts them: the day of the event excluded, the last day included. A period counted from the "
        "canvass runs from the day the canvass board certified; until that day is entered, the bot shows the "
        "earliest possible deadline. Quotes are from the copies named under each law, with the day they were read.",
        "",
        "| | " + " | ".join(f"`--law {law.key}`: {law.title}" for law in chosen) + " |",
        "|---|" + "---|" * len(chosen),
    ]
    for label, value in ROWS:
        out.append(f"| {label} | " + " | ".join(_cell(value(law)) for law in chosen) + " |")
    for law in chosen:
        out += ["", f"## {law.key}: {law.title} ({law.citation})", ""]
        out += _example(law)
        if law.unconfirmed:
            out += ["", "Not confirmed:", ""] + [f"- {_cell(note)}" for note in law.unconfirmed]
        out += ["", "Texts read:", ""] + [f"- {c.tag}: {c.name}, {c.where} ({c.current_through}; read "
                                          f"{c.read_on.isoformat()})" for c in law.texts]
        out += ["", "Provisions quoted:", ""] + _provisions(law)
    return "\n".join(out) + "\n"
