"""The case record (bot.services.case_record) as a PDF a court or a records request can read on paper."""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

from bot.documents.pdf import FAMILY, new_pdf, output


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


class _Writer:
    def __init__(self, title: str, created: dt.datetime) -> None:
        self.pdf = new_pdf(title, created=created)
        self.width = self.pdf.epw

    def heading(self, text: str) -> None:
        self.pdf.ln(3)
        self.pdf.set_font(FAMILY, "B", 12)
        self.pdf.multi_cell(self.width, 7, text, new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_font(FAMILY, "", 9)

    def line(self, text: str) -> None:
        self.pdf.multi_cell(self.width, 4.6, text, new_x="LMARGIN", new_y="NEXT")

    def pairs(self, items: dict[str, Any]) -> None:
        for key, value in items.items():
            if value not in (None, "", [], {}):
                self.line(f"{key.replace('_', ' ')}: {_text(value)}")

    def rows(self, rows: list[dict[str, Any]], empty: str = "none") -> None:
        if not rows:
            self.line(empty)
        for row in rows:
            self.line("• " + "; ".join(f"{k.replace('_', ' ')}: {_text(v)}" for k, v in row.items()
                                       if v not in (None, "", [], {})))


def case_record_pdf(record: dict[str, Any]) -> bytes:
    case = record["case"]
    created = dt.datetime.fromisoformat(record["generated_at"])
    w = _Writer(f"Recount case #{case['id']} — {case['contest']}", created)
    w.pdf.set_font(FAMILY, "B", 16)
    w.pdf.multi_cell(w.width, 9, f"Record of recount case #{case['id']}", new_x="LMARGIN", new_y="NEXT")
    w.pdf.set_font(FAMILY, "", 10)
    w.line(f"{case['contest']} — {case['election']} ({case['election_date']}), {case['local_government']}")
    w.line(f"{record['statute']} · generated {record['generated_at']} · {record['audit_chain']}")
    w.heading("The case")
    w.pairs({k: v for k, v in case.items() if k not in ("contest", "election", "election_date", "local_government")})
    w.heading("Decisions, with the subsection applied")
    for decision in record["decisions"]:
        w.line(f"• {decision['what']}: {decision.get('outcome')} — {decision.get('reason')} "
               f"[{decision.get('citation')}]" + (f" Reading: {decision['reading']}" if decision.get("reading") else ""))
    w.heading("Deadlines")
    w.rows(record["deadlines"])
    w.heading("Notices (1306(1), (2)(b)(I))")
    w.rows(record["notices"])
    if record.get("request"):
        w.heading("The written request (1306(2)(a))")
        w.pairs(record["request"])
    if record.get("money"):
        money = record["money"]
        w.heading("Money (1306(2)(b)-(f))")
        w.pairs({k: money[k] for k in ("cost_determined", "paid", "due", "held")})
        w.line("Cost: " + "; ".join(money["cost_items"]) if money["cost_items"] else "Cost: not itemised")
        w.rows(money["ledger"], "no ledger entries")
        w.rows(money["cost_notices"], "the requester was not notified of a cost")
    if record.get("tally"):
        tally = record["tally"]
        w.heading("Tally (1306(5))")
        w.pairs({k: tally[k] for k in ("method", "expected_units", "double_entry", "progress")})
        w.rows(tally["sheets"], "no sheets")
    w.heading("Assistants (1306(3))")
    w.rows(record["assistants"])
    w.heading("Documentary evidence (1306(4))")
    w.rows(record["evidence"])
    if record.get("completion"):
        completion = record["completion"]
        w.heading("Results (1306(6))")
        w.pairs({k: completion.get(k) for k in ("original_totals", "amended_totals", "changes", "winners_before",
                                                "winners_after", "outcome_changed", "reversed_in_favor_of_requester",
                                                "amended_within_margin", "notice_of_results_to")})
    w.heading("Certificates of election")
    w.rows(record["certificates"])
    w.heading("Survey of returns, every version")
    w.rows(record["survey_versions"])
    w.heading("Timeline (from the hash-chained audit log)")
    for row in record["timeline"]:
        w.line(f"#{row['id']} {row['at']} {row['actor']} {row['action']} {row['entity']} {row['entity_id']}: "
               f"{_text(row['after'])} [hash {row['hash'][:16]}…]")
    return output(w.pdf)
