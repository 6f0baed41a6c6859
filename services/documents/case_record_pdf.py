"""The case record (services.completion.case_record) as a PDF a court or a records request can read on paper.

The record is laid out as lines first, every name in it checked (services/documents/glyphs.py), and only then
printed: a character no bundled font has refuses the PDF (UnprintableText, naming where in the record it is),
never a line with a name cut short. The JSON record carries the same text exactly and is unaffected."""
from __future__ import annotations

import datetime as dt
from typing import Any, Iterator

from rules.laws import DEFAULT_LAW, UnknownLaw, law_profile
from rules.laws.cites import Cites
from services.documents.glyphs import ensure_printable, isolate, prepare
from services.documents.pdf import FAMILY, new_pdf, output
from services.documents.record_words import Words

WHAT = "The case record's PDF"
CONSEQUENCE = "The JSON record has the exact text (recount-bot case-record CASE --format json)."


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

    def __init__(self, *, under_1306: bool = True) -> None:
        self.lines_: list[tuple[str, str]] = []
        # The headings' subsections are 1-13.5-1306's; under another law the decisions cite its own, and the
        # headings say none rather than a wrong one.
        self.under_1306 = under_1306

    def add(self, kind: str, text: str) -> None:
        self.lines_.append((kind, prepare(text)))

    def heading(self, text: str, subsections: str = "") -> None:
        self.add("heading", f"{text} ({subsections})" if subsections and self.under_1306 else text)

    def line(self, text: str) -> None:
        self.add("line", text)

    def lines(self, texts: list[str], empty: str = "none recorded") -> None:
        for text in texts or [empty]:
            self.line(text)

    def bullets(self, texts: list[str], empty: str = "none recorded") -> None:
        self.lines([f"• {t}" for t in texts], empty)

    def render(self, title: str, created: dt.datetime) -> bytes:
        # What is printed is what was checked: the lines themselves, as a last guard behind the record's check.
        ensure_printable([("the case record", text) for _, text in self.lines_], what=WHAT, consequence=CONSEQUENCE)
        pdf = new_pdf(prepare(title), created=created, texts=[text for _, text in self.lines_], page_numbers=True)
        width = pdf.epw
        for kind, text in self.lines_:
            style, size, height, before = KINDS[kind]
            if before:
                pdf.ln(before)
            pdf.set_font(FAMILY, style, size)
            pdf.multi_cell(width, height, text, new_x="LMARGIN", new_y="NEXT")
        return output(pdf)


def _totals(before: dict[str, int], after: dict[str, int]) -> list[str]:
    return [f"{choice}: {int(before.get(choice, 0)):,} in the survey of returns, {int(votes):,} in the recount "
            f"({int(votes) - int(before.get(choice, 0)):+,})" for choice, votes in after.items()]


def _counts(counts: dict[str, Any]) -> str:
    return ", ".join(f"{choice} {int(votes):,}" for choice, votes in counts.items())


def _case(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    case = record["case"]
    w.heading("The case")
    w.lines(say.fields({
        "kind": case.get("kind"), "status": case.get("status"), "contest_kind": case.get("contest_kind"),
        "seats": case.get("seats"), "governing_body": case.get("governing_body"),
        "canvass_date": case.get("canvass_date"),
        "opened": f"{say.moment(case['opened_at'])} by {say.person(case['opened_by'])}",
        "counting_started": (f"{say.moment(case['counting_started_at'])} by "
                             f"{say.person(case['counting_started_by'])}") if case.get("counting_started_at") else None,
        "completed": (f"{say.moment(case['completed_at'])} by {say.person(case['completed_by'])}"
                      if case.get("completed_at") else None),
        "notice_of_the_results": (f"given {say.moment(case['results_notice']['given_at'])} by "
                                  f"{case['results_notice']['given_by']} ({say.value(case['results_notice']['method'])})"
                                  if case.get("results_notice") else None),
        "several_seats_rule": case.get("multi_seat_rule") if (case.get("seats") or 1) > 1 else None,
    }, {"contest_kind": "Kind of contest", "governing_body": "Governing body (notices of (1) and (6))"}))


def _waiver(w: _Writer, say: Words, waiver: dict[str, Any]) -> None:
    """1-10.5-103: the automatic recount waived by written notice; the record says by whom, on what, and that the
    recount was not held."""
    w.heading(f"Waiver of the automatic recount [{waiver['citation']}]")
    w.lines([f"Waived by {waiver['waived_by']} ({waiver['capacity']}); the written notice was received "
             f"{say.moment(waiver['received_on'])}.",
             f"The written waiver: {waiver['written_waiver']}",
             f"Recorded {say.moment(waiver['recorded_at'])} by {say.person(waiver['recorded_by'])}. The recount is "
             "not held."])


def _decisions(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    w.heading("Decisions, each with the subsection applied")
    for d in record["decisions"]:
        text = f"{say.label(d['what'])} — {say.value(d.get('outcome'))}: {d.get('reason') or ''} [{d.get('citation')}]"
        w.line("• " + text + (f" Reading: {d['reading']}" if d.get("reading") else ""))


def _people_steps(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    w.heading("Deadlines")
    w.bullets([f"{say.value(d['name'])}: {say.moment(d['date'])}"
               + (f" (moved from {say.moment(d['rolled_from'])})" if d.get("rolled_from") else "")
               + (" (estimated)" if d.get("estimated") else "") + f" [{d['citation']}]"
               + (f" {d['note']}" if d.get("note") else "") for d in record["deadlines"]])
    w.heading("Notices of the recount", "1306(1), (2)(b)(I)")
    w.bullets([f"{say.value(n['recipient_kind'])} {n['recipient']}: "
               + (f"given {say.moment(n['given_at'])} by {n.get('given_by') or '—'} ({say.value(n.get('method'))})"
                  + (f", {n['details']}" if n.get("details") else "")
                  + f"; recorded by {say.person(n.get('recorded_by'))}" if n.get("given_at") else "not yet given")
               + f" [{n['citation']}]" for n in record["notices"]])
    request = record.get("request")
    if request:
        w.heading("The written request", "1306(2)(a)")
        w.lines(say.fields({**request, "received_on": request.get("received_on")},
                           {"party_kind": "Requester is", "in_favor_of": "In favor of"}))


def _money(w: _Writer, say: Words, money: dict[str, Any]) -> None:
    w.heading("Money", "1306(2)(b)-(f)")
    w.lines(say.fields({k: money.get(k) for k in ("cost_determined", "paid", "due", "held")},
                       {"cost_determined": "Cost determined before the recount", "held": "Held by the office"}))
    w.line("Cost: " + "; ".join(money["cost_items"]) if money["cost_items"] else "Cost: not itemized")
    w.line("Ledger:")
    w.bullets([f"{say.moment(line['recorded_at'])} — {say.value(line['kind'])} {say.value(line['amount'], 'amount')}"
               + (f", {line['memo']}" if line.get("memo") else "")
               + (f", received {say.moment(line['received_on'])}" if line.get("received_on") else "")
               + f"; recorded by {say.person(line['recorded_by'])}" for line in money["ledger"]], "no entries")
    w.line("The requester's notice of the cost:")
    w.bullets([f"{say.value(n['cost'], 'cost')}, notified {say.moment(n['notified_at'])} by {n.get('notified_by')} "
               f"({say.value(n.get('method'))})" for n in money["cost_notices"]], "the requester was not notified")


def _conduct(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    tally = record.get("tally")
    if tally:
        w.heading("Tally", "1306(5)")
        done, expected = (tally.get("progress") or [0, 0])[:2]
        w.lines(say.fields({"method": tally.get("method"), "units_expected": ", ".join(tally.get("expected_units") or []),
                            "double_entry": tally.get("double_entry"), "units_tallied": f"{done:,} of {expected:,}"}))
        w.bullets([f"Sheet {t['sheet_id']}, {t['unit']} (entry {t['entry']}): {_counts(t['counts'])}; entered "
                   f"{say.moment(t['entered_at'])} by {say.person(t['entered_by'])}"
                   + (f"; withdrawn {say.moment(t['withdrawn_at'])}: {t.get('withdrawn_reason') or ''}"
                      if t.get("withdrawn_at") else "") for t in tally["sheets"]], "no sheets")
    w.heading("Assistants", "1306(3)")
    w.bullets([f"{a['name']}, {say.value(a['capacity'])}; {a['days_served']:,} day(s), paid "
               f"{say.value(a['compensation'], 'compensation')}"
               + ("; a member of the governing body" if a.get("on_governing_body") else "")
               + (f"; replaces {a['replaces']}" if a.get("replaces") else "") for a in record["assistants"]])
    w.heading("Documentary evidence", "1306(4)")
    w.bullets([f"{e['description']}, demanded of {e['demanded_of']} {say.moment(e['demanded_at'])} by "
               f"{say.person(e['demanded_by'])}"
               + (f"; produced {say.moment(e['produced_at'])}: {e['produced']}" if e.get("produced_at") else
                  "; not yet produced") for e in record["evidence"]])


def _results(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    completion = record.get("completion")
    if not completion:
        return
    w.heading("Results", "1306(6)")
    w.lines([f"Outcome: {say.value(completion.get('outcome'))}"])
    w.bullets(_totals(completion.get("original_totals") or {}, completion.get("amended_totals") or {}))
    changes = (completion.get("comparison") or {}).get("changes") or []
    w.line("Changes by unit: " + ("; ".join(f"{c['unit']}, {c['choice']}: {int(c['before']):,} → {int(c['after']):,}"
                                            for c in changes[:200]) if changes else "none"))
    w.lines(say.fields({k: completion.get(k) for k in ("winners_before", "winners_after", "outcome_changed",
                                                        "reversed_in_favor_of_requester", "amended_within_margin",
                                                        "notice_of_results_to")},
                       {"winners_before": "Highest number of votes before", "winners_after": "Highest number of "
                        "votes after the recount", "notice_of_results_to": "Notice of the results goes to"}))
    notices_check = completion.get("notices_before_completion") or {}
    if notices_check.get("outcome") == "overridden":
        w.heading("Completed with notices owed", "1306(1)")
        w.line(f"{notices_check.get('reason')} [{notices_check.get('citation')}] Reading: {notices_check.get('reading')}")
    settlement = record.get("settlement")
    if settlement:
        w.line(f"Settlement: {say.value(settlement.get('outcome'))}: {settlement.get('reason') or ''} "
               f"[{settlement.get('citation')}]")


def _after(w: _Writer, say: Words, record: dict[str, Any]) -> None:
    lot = record.get("lot")
    if lot:
        w.heading("The lot for the tie", "1-13.5-1304")
        w.lines(say.fields({k: v for k, v in lot.items() if k not in ("candidate_notices", "amended_results_notice",
                                                                      "citation")}))
        w.bullets([say.value(n) for n in lot.get("candidate_notices") or []], "no notice to the candidates recorded")
        if lot.get("amended_results_notice"):
            cited = " (1306(6))" if w.under_1306 else ""
            w.line(f"Amended notice of the results{cited}: " + say.value(lot["amended_results_notice"]))
    w.heading("Certificates of election", "1306(6)")
    w.bullets([f"{c['candidate']} ({int(c['votes']):,} votes), made {say.moment(c['created_at'])}; "
               + (f"delivered {say.moment(c['delivered_at'])} by {c.get('delivered_by')} "
                  f"({say.value(c.get('delivery_method'))})" if c.get("delivered_at") else "not yet delivered")
               for c in record["certificates"]], "none")
    w.heading("Survey of returns, every version")
    w.bullets([f"Version {v['number']}, {say.moment(v['created_at'])} by {say.person(v['created_by'])}: {v['reason']}"
               + (f"; evidence: {', '.join(v['evidence'])}" if v.get("evidence") else "")
               + (f"; from {v['source']}" if v.get("source") else "") for v in record["survey_versions"]])
    if record.get("retention"):
        w.heading("Keeping this record")
        w.line(f"{record['retention']['reason']} [{record['retention']['citation']}]")


def case_record_pdf(record: dict[str, Any]) -> bytes:
    """The record as a document: people by name (record["people"], as the bot knows them), Colorado times to the
    minute, plain words, the citation beside each step, numbered pages. The JSON keeps the machine values."""
    ensure_printable(_strings(record, ""), what=WHAT, consequence=CONSEQUENCE)
    record = _isolated(record)
    case = record["case"]
    law = record.get("law") or {}
    say = Words(record.get("people"), _cites(law.get("key")))
    w = _Writer(under_1306=law.get("key", "1-13.5-1306") == "1-13.5-1306")
    w.add("title", f"Record of recount case #{case['id']}")
    w.add("subtitle", f"{case['contest']} — {case['election']} ({say.moment(case['election_date'])}), "
                      f"{case['local_government']}")
    w.add("subtitle", f"Under {record['statute']} · made {say.moment(record['generated_at'])} · audit log: "
                      f"{record['audit_chain']}")
    if law.get("named"):
        w.add("subtitle", f"Held under {law['named']}")
    _case(w, say, record)
    if record.get("waiver"):
        _waiver(w, say, record["waiver"])
    _decisions(w, say, record)
    _people_steps(w, say, record)
    if record.get("money"):
        _money(w, say, record["money"])
    _conduct(w, say, record)
    _results(w, say, record)
    _after(w, say, record)
    w.heading("Timeline (from the hash-chained audit log), each step with its provision")
    w.bullets([say.step(row) for row in record["timeline"]])
    return w.render(f"Recount case #{case['id']} — {case['contest']}",
                    dt.datetime.fromisoformat(record["generated_at"]))


def _cites(key: object) -> Cites:
    """The law the record was made under cites each step; a record without one (made before the law was stored
    with the election) or naming a law this bot does not know is read under 1-13.5-1306, as it was made."""
    try:
        return Cites.of(law_profile(key if isinstance(key, str) else None))
    except UnknownLaw:
        return Cites.of(DEFAULT_LAW)
