"""The (1) verdicts as Slack messages: one contest in full, or a whole election closest first."""
from __future__ import annotations

from handlers.blocks.common import MESSAGE_BLOCKS_LIMIT, context, day, esc, fields_section, header, section
from handlers.slack_text import mention
from rules.laws import DEFAULT_LAW
from rules.margin import MarginDecision, Standing
from services.returns.checking import CheckOutcome, ContestVerdict

VERDICT_LABEL = {
    "automatic_recount": ":rotating_light: Automatic recount required",
    "no_recount": ":white_check_mark: No automatic recount",
    "uncontested": ":white_check_mark: Uncontested — no recount",
}


def _standing(standing: Standing | None) -> str:
    if not standing:
        return "—"
    return f"{esc(standing.choice)} — {standing.votes:,}"


def _test_line(d: MarginDecision) -> str:
    if d.margin is None:
        return "no next highest"
    sign = "≤" if d.automatic_recount else ">"
    return f"({d.highest.votes:,} − {d.next_highest.votes:,}) × 200 = {d.margin * 200:,} {sign} {d.highest.votes:,}"


def verdict_fields(d: MarginDecision) -> list[str]:
    upper = "Last winner" if d.seats > 1 and "last winner" in d.rule else "Highest"
    lower = "First loser" if upper == "Last winner" else "Next highest"
    fields = [f"*{upper}*\n{_standing(d.highest)}", f"*{lower}*\n{_standing(d.next_highest)}"]
    if d.margin is not None:
        fields += [f"*Margin*\n{d.margin:,} votes",
                   f"*Triggers at*\n≤ {d.max_margin_for_recount:,} votes (½ of 1% of {d.highest.votes:,})"]
    fields += [f"*Seats*\n{d.seats}", f"*Test*\n{_test_line(d)}"]
    return fields


def _trigger_citation(outcome: CheckOutcome) -> str:
    """The (1)-like subsection every law of the day's elections applies ("C.R.S. 1-13.5-1306(1)")."""
    cited = [law.profile.trigger.provision.citation for law in outcome.laws]
    return "; ".join(dict.fromkeys(cited)) or DEFAULT_LAW.trigger.provision.citation


def held_under(outcome: CheckOutcome) -> list[dict]:
    """A context naming the law (or laws) the checked elections are held under (issue 22)."""
    return [context(esc(outcome.held_under))] if outcome.laws else []


def one_verdict(outcome: CheckOutcome, verdict: ContestVerdict, *, checked_by: str) -> list[dict]:
    d = verdict.decision
    blocks = [
        header(f"{VERDICT_LABEL[d.outcome].split(' ', 1)[1]}: {d.contest}"),
        section(f"{VERDICT_LABEL[d.outcome].split(' ', 1)[0]} {esc(d.reason)}"),
        fields_section(verdict_fields(d)),
    ]
    if d.tie_note:
        blocks.append(section(f":scales: *Tie:* {esc(d.tie_note)}."))
    if d.write_in_note:
        blocks.append(section(f":pencil2: *Write-ins:* {esc(d.write_in_note)}."))
    if verdict.case_opened_now:
        blocks.append(section(":file_folder: A recount case was opened; its card follows with the deadline and the "
                              "notices owed."))
    elif verdict.case_id:
        blocks.append(context(f"Recount case #{verdict.case_id} is already open for this contest."))
    held = f" · {esc(verdict.law.held_under)}" if verdict.law is not None else ""
    blocks.append(context(
        f"*{d.citation}* · Reading{'s' if len(d.readings) > 1 else ''}: "
        + esc("; ".join(d.readings) if d.readings else d.rule)[:1500],
        f"{esc(outcome.election_name)} ({day(outcome.election_date)}) · survey of returns version "
        f"{outcome.version_number} · checked by {mention(checked_by)}{held}"))
    return blocks


def _line(v: ContestVerdict) -> str:
    d = v.decision
    tag = {"automatic_recount": ":rotating_light: *RECOUNT*", "no_recount": "no recount",
           "uncontested": "uncontested"}[d.outcome]
    if d.margin is None:
        return f"{tag} · *{esc(d.contest)}* — {_standing(d.highest)}; no next highest"
    seats = f" · {d.seats} seats" if d.seats > 1 else ""
    tie = " · :scales: tie for the last seat" if d.tie_for_last_seat else ""
    tie += " · :pencil2: the write-in line could matter (see the contest)" if d.write_in_note else ""
    case = ""
    if v.case_id is not None:
        case = f" · recount case #{v.case_id} {'opened' if v.case_opened_now else 'already open'}"
    return (f"{tag} · *{esc(d.contest)}*{seats}\n{_standing(d.highest)} vs {_standing(d.next_highest)} · margin "
            f"{d.margin:,} (triggers at ≤ {d.max_margin_for_recount:,}){tie}{case}")


def _undecided_line(u) -> str:
    return f":grey_question: *undecided* · *{esc(u.contest or '')}* — {esc(u.reason)}"


def all_verdicts(outcome: CheckOutcome, *, checked_by: str) -> list[list[dict]]:
    """The first message and, when the election has more contests than one message holds, the rest as
    further messages for the thread, so nothing is left out."""
    verdicts = outcome.verdicts
    recounts = sum(v.decision.automatic_recount for v in verdicts)
    undecided = (f" *{len(outcome.undecided)}* could not be decided (listed last, with why)."
                 if outcome.undecided else "")
    head = [
        header(f"Survey of returns checked: {outcome.election_name}"),
        section(f"*{len(verdicts)}* contests, closest first. *{recounts}* need"
                f"{'s' if recounts == 1 else ''} an automatic recount under {_trigger_citation(outcome)}: the "
                "difference between the highest and the next highest is at most ½ of 1% of the highest." + undecided),
        context(f"{day(outcome.election_date)} · {esc(outcome.local_government)} · survey version "
                f"{outcome.version_number} · multi-seat reading: {outcome.multi_seat_rule} · checked by "
                f"{mention(checked_by)}"),
        *held_under(outcome),
    ]
    room = MESSAGE_BLOCKS_LIMIT - len(head) - 1
    lines = [section(_line(v)) for v in verdicts] + [section(_undecided_line(u)) for u in outcome.undecided]
    messages = [head + lines[:room]]
    rest = lines[room:]
    if rest:
        messages[0].append(context(f"{len(rest)} further contests, further from the margin or undecided, follow in "
                                   "the thread."))
    for start in range(0, len(rest), MESSAGE_BLOCKS_LIMIT):
        messages.append(rest[start:start + MESSAGE_BLOCKS_LIMIT])
    ties = [v for v in verdicts if v.decision.tie_note]
    for v in ties:
        if len(messages[0]) < MESSAGE_BLOCKS_LIMIT:
            messages[0].append(context(f":scales: {esc(v.decision.contest)}: {esc(v.decision.tie_note)}."))
    return messages


def verdict_text(outcome: CheckOutcome) -> str:
    """The notification text (shown where blocks are not: notifications, screen readers)."""
    recounts = [esc(v.decision.contest) for v in outcome.verdicts if v.decision.automatic_recount]
    if len(outcome.verdicts) == 1 and not outcome.undecided:
        return esc(outcome.verdicts[0].decision.reason)
    if not outcome.verdicts and len(outcome.undecided) == 1:
        return f"{esc(outcome.undecided[0].contest)}: undecided: {esc(outcome.undecided[0].reason)}"
    return (f"{esc(outcome.election_name)}: {len(outcome.verdicts)} contests checked; automatic recount: "
            f"{', '.join(recounts) if recounts else 'none'} ({_trigger_citation(outcome)}).")
