"""The case record (services.completion.case_record) as a PDF a court or a records request can read on paper.

The record is laid out as lines first, every name in it checked (services/documents/glyphs.py), and only then
printed: a character no bundled font has refuses the PDF (UnprintableText, naming where in the record it is),
never a line with a name cut short. The JSON record carries the same text exactly and is unaffected."""
from __future__ import annotations

import datetime as dt
import json
from typing import Any, Iterator

from services.documents.glyphs import ensure_printable, isolate, prepare
from services.documents.pdf import FAMILY, new_pdf, output

WHAT = "The case record's PDF"
CONSEQUENCE = "The JSON record has the exact text (recount-bot case-record CASE --format json)."


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every text in the record with where it is ("timeline #12 › after › requester"), dict keys included
    (a tally's keys are the candidates' names)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path} › {key}" if path else str(key)
            if isinstance(key, str):
                yield f"{where} (a name in it)", key
            yield from _strings(item, where)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value, start=1):
            label = f"#{item['id']}" if isinstance(item, dict) and "id" in item else f"item {index}"
            yield from _strings(item, f"{path} {label}")


# How each kind of line is set: (style, size in points, line height in mm, space before in mm).
KINDS = {"title": ("B", 16, 9, 0), "subtitle": ("", 10, 4.6, 0), "heading": ("B", 12, 7, 3), "line": ("", 9, 4.6, 0)}


def _isolated(value: Any) -> Any:
    """The record with every text that has right-to-left letters set as a bidi isolate (glyphs.isolate)."""
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, dict):
        return {_isolated(k): _isolated(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_isolated(item) for item in value]
    return value


class _Writer:
    """The record as (kind, text) lines; `render` prints them once every one is checked."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def add(self, kind: str, text: str) -> None:
        self.lines.append((kind, prepare(text)))

    def heading(self, text: str) -> None:
        self.add("heading", text)

    def line(self, text: str) -> None:
        self.add("line", text)

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

    def render(self, title: str, created: dt.datetime) -> bytes:
        # What is printed is what was checked: the lines themselves, as a last guard behind the record's check.
        ensure_printable([("the case record", text) for _, text in self.lines], what=WHAT, consequence=CONSEQUENCE)
        pdf = new_pdf(prepare(title), created=created, texts=[text for _, text in self.lines])
        width = pdf.epw
        for kind, text in self.lines:
            style, size, height, before = KINDS[kind]
            if before:
                pdf.ln(before)
            pdf.set_font(FAMILY, style, size)
            pdf.multi_cell(width, height, text, new_x="LMARGIN", new_y="NEXT")
        return output(pdf)


def case_record_pdf(record: dict[str, Any]) -> bytes:
    ensure_printable(_strings(record, ""), what=WHAT, consequence=CONSEQUENCE)
    record = _isolated(record)
    case = record["case"]
    created = dt.datetime.fromisoformat(record["generated_at"])
    w = _Writer()
    w.add("title", f"Record of recount case #{case['id']}")
    w.add("subtitle",
          f"{case['contest']} — {case['election']} ({case['election_date']}), {case['local_government']}")
    w.add("subtitle", f"{record['statute']} · generated {record['generated_at']} · {record['audit_chain']}")
    law = record.get("law") or {}
    if law.get("named"):
        w.add("subtitle", f"Held under {law['named']}")
    # The headings' subsections are 1-13.5-1306's; under another law the decisions above cite its own.
    under_1306 = law.get("key", "1-13.5-1306") == "1-13.5-1306"

    def sub(subsections: str) -> str:
        return f" ({subsections})" if under_1306 else ""

    w.heading("The case")
    w.pairs({k: v for k, v in case.items() if k not in ("contest", "election", "election_date", "local_government")})
    w.heading("Decisions, with the subsection applied")
    for decision in record["decisions"]:
        w.line(f"• {decision['what']}: {decision.get('outcome')} — {decision.get('reason')} "
               f"[{decision.get('citation')}]" + (f" Reading: {decision['reading']}" if decision.get("reading") else ""))
    w.heading("Deadlines")
    w.rows(record["deadlines"])
    w.heading(f"Notices{sub('1306(1), (2)(b)(I)')}")
    w.rows(record["notices"])
    if record.get("request"):
        w.heading(f"The written request{sub('1306(2)(a)')}")
        w.pairs(record["request"])
    if record.get("money"):
        money = record["money"]
        w.heading(f"Money{sub('1306(2)(b)-(f)')}")
        w.pairs({k: money[k] for k in ("cost_determined", "paid", "due", "held")})
        w.line("Cost: " + "; ".join(money["cost_items"]) if money["cost_items"] else "Cost: not itemised")
        w.rows(money["ledger"], "no ledger entries")
        w.rows(money["cost_notices"], "the requester was not notified of a cost")
    if record.get("tally"):
        tally = record["tally"]
        w.heading(f"Tally{sub('1306(5)')}")
        w.pairs({k: tally.get(k) for k in ("method", "expected_units", "double_entry", "election_sheet_ids",
                                            "progress")})
        w.rows(tally["sheets"], "no sheets")
    w.heading(f"Assistants{sub('1306(3)')}")
    w.rows(record["assistants"])
    w.heading(f"Documentary evidence{sub('1306(4)')}")
    w.rows(record["evidence"])
    if record.get("completion"):
        completion = record["completion"]
        w.heading(f"Results{sub('1306(6)')}")
        w.pairs({k: completion.get(k) for k in ("original_totals", "amended_totals", "changes", "winners_before",
                                                "winners_after", "outcome_changed", "reversed_in_favor_of_requester",
                                                "amended_within_margin", "notice_of_results_to")})
    if record.get("completion"):
        notices_check = record["completion"].get("notices_before_completion") or {}
        if notices_check.get("outcome") == "overridden":
            w.heading(f"Completed with notices owed{sub('1306(1)')}")
            w.line(f"{notices_check.get('reason')} [{notices_check.get('citation')}] Reading: "
                   f"{notices_check.get('reading')}")
    if record.get("lot"):
        lot = record["lot"]
        w.heading(f"The lot for the tie{sub('1-13.5-1304')}")
        w.pairs({k: v for k, v in lot.items() if k not in ("candidate_notices", "amended_results_notice")})
        w.rows(lot["candidate_notices"], "no notice recorded")
        if lot.get("amended_results_notice"):
            w.line(f"amended notice of the results{sub('1306(6)')}: " + _text(lot["amended_results_notice"]))
    w.heading("Certificates of election")
    w.rows(record["certificates"])
    w.heading("Survey of returns, every version")
    w.rows(record["survey_versions"])
    if record.get("retention"):
        retention = record["retention"]
        w.heading("Keeping this record")
        w.line(f"{retention['reason']} [{retention['citation']}]")
    w.heading("Timeline (from the hash-chained audit log)")
    for row in record["timeline"]:
        w.line(f"#{row['id']} {row['at']} {row['actor']} {row['action']} {row['entity']} {row['entity_id']}: "
               f"{_text(row['after'])} [hash {row['hash'][:16]}…]")
    return w.render(f"Recount case #{case['id']} — {case['contest']}", created)
