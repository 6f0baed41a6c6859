"""What the card and the case's thread show of the lot for a tie the recount did not break (1-13.5-1304), and of a
completion with (1) notices owed. Pure builders; every name escaped."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import context, denver, esc, section
from handlers.blocks.law_cites import cites
from handlers.slack_text import mention
from rules.laws.cites import Cites
from services.completion.complete import CompletionView, LotView
from services.conduct.cases import CaseView

NOTICES_SHOWN = 20


def names(items) -> str:
    """"A", "A and B", "A, B and C" (the card's own helper imports this module, so it is not imported here)."""
    items = list(items)
    if not items:
        return "no one"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _when(value: str | dt.datetime) -> str:
    return denver(value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value))


def lot_result(lot: LotView) -> str:
    """"*Thomas Reed* wins the last seat by lot over Priya Natarajan", with the tie's votes."""
    decision = lot.decision or {}
    numbers = decision.get("numbers") or {}
    others = numbers.get("not_elected") or [c for c in lot.tied if c not in lot.winners]
    verb = "wins" if len(lot.winners) == 1 else "win"
    seats = numbers.get("seats_by_lot", 1)
    what = "the seat" if seats == 1 else f"{seats} seats"
    if seats == 1 and numbers.get("clear_winners"):
        what = "the last seat"
    return (f"*{esc(names(lot.winners))}* {verb} {what} by lot over {esc(names(others))} (tied at "
            f"{numbers.get('votes_each', 0):,} votes each)")


def lot_citation(lot: LotView, c: Cites) -> str:
    """The section the drawing was recorded under: the election's law's (stored with the decision), 1-13.5-1304
    for a drawing recorded before each election had its law."""
    return str((lot.decision or {}).get("citation") or c.tie)


def lot_card_lines(lot: LotView, c: Cites) -> list[str]:
    """The card: the drawing in two lines."""
    return [
        f":game_die: *Lot drawn* ({lot_citation(lot, c)}) — {lot_result(lot)}.",
        f"{_when(lot.drawn_at)} at {esc(lot.place)}; drawn by {esc(lot.conducted_by)}; witnessed by "
        f"{esc(lot.witnesses)}; {esc(lot.method)}"
        + (f" ({esc(lot.method_details)})" if lot.method_details else "")
        + f"; recorded by {mention(lot.recorded_by)}.",
    ]


def notice_lines(lot: LotView) -> list[str]:
    notices = (lot.decision.get("numbers") or {}).get("notices") or {}
    lines = []
    for entry in lot.candidate_notices[:NOTICES_SHOWN]:
        before = (notices.get(entry["candidate"]) or {}).get("before_drawing")
        lines.append(f"• {esc(entry['candidate'])}: {esc(entry['method'])}, {_when(entry['given_at'])}"
                     + (f" ({before} the drawing)" if before else ""))
    return lines


def lot_text(case: CaseView) -> str:
    return f"The lot for the tie in {esc(case.contest)} is recorded ({cites(case).tie})"


def lot_blocks(case: CaseView, view: CompletionView) -> list[dict]:
    """The thread's record of the drawing, with its citation and the reading applied."""
    lot = view.lot
    decision = lot.decision or {}
    blocks = [
        section(f":game_die: *The lot for the tie — {esc(case.contest)}* ({lot_citation(lot, cites(case))})\n{lot_result(lot)}. "
                f"The certificate of election withheld at completion is made for {esc(names(lot.winners))} "
                f"({cites(case).results})."),
        section(f"*When:* {_when(lot.drawn_at)}\n*Where:* {esc(lot.place)}\n*Drawn by:* {esc(lot.conducted_by)}\n"
                f"*Witnessed by:* {esc(lot.witnesses)}\n*Method:* {esc(lot.method)}"
                + (f" — {esc(lot.method_details)}" if lot.method_details else "")
                + f"\n*Recorded by:* {mention(lot.recorded_by)}"),
        section("*Notice of the drawing to each tied candidate*\n" + "\n".join(notice_lines(lot))),
    ]
    if decision.get("reading"):
        blocks.append(context(f"Reading: {esc(decision['reading'])}."))
    return blocks


def notices_override_text(completion: dict, c: Cites) -> str | None:
    """A completion with (1) notices owed, for the official's reason: its named reading, on the report and card."""
    check = completion.get("notices_before_completion") or {}
    if check.get("outcome") != "overridden":
        return None
    owed = (check.get("numbers") or {}).get("owed") or []
    listed = "; ".join(esc(n.get("recipient", "")) for n in owed[:NOTICES_SHOWN])
    reason = (check.get("numbers") or {}).get("reason", "")
    return (f":warning: *Completed with {len(owed)} notice{'' if len(owed) == 1 else 's'} of the recount not recorded "
            f"as given* ({check.get('citation', c.notice)}): {listed}. Reading: owed-with-reason. "
            f"The official's reason: “{esc(reason)}”.")


def amended_notice_line(view: CompletionView, body: str, c: Cites) -> str:
    lot = view.lot
    if lot.amended_notice_at is not None:
        return (f":white_check_mark: *Amended notice of the results* (after the lot) to {esc(body)} — by "
                f"{esc(lot.amended_notice_by or '')} by {esc(lot.amended_notice_method or '')}, "
                f"{denver(lot.amended_notice_at)} ({c.results})")
    return (f":hourglass_flowing_sand: *Amended notice of the results not yet given* to {esc(body)}: the first notice "
            f"went before the lot ({c.results}, {c.tie}); the amended notice is in the case's thread.")
