"""The observers' page as HTML: plain, server-rendered, with one small script that polls `state.json` and swaps in
the part that changed. Pure functions, no I/O.

Every value from the database is hostile (a candidate may be named `<script>` or `<!channel>`, or in a
right-to-left script): each goes through `h()` (html.escape, quotes too) and names sit in <bdi> so a
right-to-left name does not reorder the text around it. The script never builds markup from data: it puts the
server's escaped fragment in place and sets its own notes with textContent.
"""
from __future__ import annotations

import datetime as dt
import html

from rules.calendar import DENVER
from services.observers.page import OUTCOME_LABEL, STATUS_LABEL, ObserverState, ResultLine, TallyLine

STYLE = """
body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1d1d1d}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:1px solid #bbb;padding:.25rem .6rem;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-size:.9rem}.warn{color:#8a1f11}.ok{color:#1e6b2e}
#live-note{position:sticky;top:0;background:#f3f3f3;padding:.3rem .6rem;border-radius:.3rem}
"""

# Polls state.json every data-poll-ms with If-None-Match; 304 keeps the page; 410/404 stops and says why. The note
# on top is the server's (`live_note`, in Colorado time, in the JSON or the 304's X-Live-Note header): the
# observer's own clock and time zone are not the recount's.
SCRIPT = """
(function () {
  var body = document.body, live = document.getElementById('live'), note = document.getElementById('live-note');
  var every = parseInt(body.getAttribute('data-poll-ms'), 10) || 5000;
  var url = location.pathname.replace(/\\/+$/, '') + '/state.json';
  function say(text) { note.textContent = text; }
  function later() { setTimeout(poll, every); }
  function poll() {
    fetch(url, {headers: {'If-None-Match': '"' + body.getAttribute('data-version') + '"'}, cache: 'no-store',
                credentials: 'omit', referrerPolicy: 'no-referrer'})
      .then(function (r) {
        if (r.status === 304) { say(r.headers.get('X-Live-Note') || note.textContent); later(); return; }
        if (r.status === 410 || r.status === 404) {
          body.setAttribute('data-state', 'gone');
          return r.json().then(function (b) { say(b.message); }, function () { say('This link no longer works.'); });
        }
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.json().then(function (s) {
          live.innerHTML = s.html;  /* escaped by the server, as the first page was */
          body.setAttribute('data-version', s.version);
          say(s.note);
          later();
        });
      })
      .catch(function () { say('Connection lost; trying again…'); later(); });
  }
  later();
})();
"""


def h(value: object) -> str:
    return html.escape(str(value), quote=True)


def name(value: str) -> str:
    """A person's or choice's name: escaped, and isolated for bidirectional text."""
    return f"<bdi>{h(value)}</bdi>"


def when(moment: dt.datetime) -> str:
    return h(moment.astimezone(DENVER).strftime("%a %Y-%m-%d %H:%M %Z"))


def live_note(state: ObserverState, now: dt.datetime) -> str:
    """The line on top of the page: whether the recount is still going on, and when the page last checked, in
    Colorado time. Plain ASCII: it also travels in an HTTP header."""
    checked = now.astimezone(DENVER).strftime("%H:%M %Z")
    if state.completed_at is not None:
        done = state.completed_at.astimezone(DENVER).strftime("%a %Y-%m-%d %H:%M %Z")
        return (f"The recount is complete (completed {done}). This page still shows the certificates and notices "
                f"as the office records them. Last checked {checked}.")
    if state.status == "waived":  # 1-10.5-103: nothing will be counted
        return f"The automatic recount was waived: it is not held. Last checked {checked}."
    return f"Live: the recount is under way. Last checked {checked}."


def day(date: dt.date) -> str:
    return h(date.strftime("%a %Y-%m-%d"))


def _totals_table(tally: TallyLine) -> str:
    returns_totals = dict(tally.returns_totals)
    rows = "".join(f"<tr><td>{name(c)}</td><td class=n data-choice-total>{v:,}</td><td class=n>{returns_totals.get(c, 0):,}"
                   "</td></tr>" for c, v in tally.running_totals)
    return ("<table id=totals><tr><th>Choice</th><th class=n>Recount so far</th>"
            f"<th class=n>Survey of returns (whole contest)</th></tr>{rows}</table>")


def _units_table(tally: TallyLine) -> str:
    head = "".join(f"<th class=n>{name(c)}</th>" for c in tally.choices)
    rows = []
    for unit in tally.units:
        counts = dict(unit.counts or ())
        cells = "".join(f"<td class=n>{counts[c]:,}</td>" if unit.counts else "<td class=n>—</td>"
                        for c in tally.choices)
        rows.append(f"<tr><td>{name(unit.unit)}</td><td>{h(unit.status)}</td>{cells}</tr>")
    return f"<table id=units><tr><th>Unit</th><th>Status</th>{head}</tr>{''.join(rows)}</table>"


def _tally_html(state: ObserverState) -> str:
    tally = state.tally
    if tally is None:
        started = (f"Counting began {when(state.counting_started_at)}; the count is not set up yet."
                   if state.counting_started_at else "Counting has not started.")
        return f"<h2>The count</h2><p>{started}</p>"
    mode = "double entry: a unit counts when two people's entries agree" if tally.double_entry else "single entry"
    parts = [f"<h2>The count <span class=note>({h(tally.citation)})</span></h2>",
             f"<p id=progress><strong>{tally.tallied:,} of {tally.expected:,} units tallied</strong> · "
             f"{h(tally.method_label)} · {h(mode)}</p>",
             f"<p class=note>{h(tally.reason)}</p>", _totals_table(tally), "<h3>Units</h3>", _units_table(tally)]
    if tally.disagreements:
        items = "".join(
            f"<li>{name(unit)}, sheet {name(sheet)}: " + "; ".join(
                f"{name(c)} {a:,} (entry 1) vs {b:,} (entry 2)" for c, a, b in diffs) + "</li>"
            for unit, sheet, diffs in tally.disagreements)
        parts.append(f"<h3 class=warn>Disagreements between entries</h3><ul id=disagreements>{items}</ul>")
    return "".join(parts)


def _result_html(result: ResultLine, tie_citation: str) -> str:
    rows = "".join(f"<tr><td>{name(c)}</td><td class=n>{before:,}</td><td class=n>{after:,}</td>"
                   f"<td class=n>{after - before:+,}</td></tr>" for c, before, after in result.totals)
    if result.question:
        lead = f"Most votes: {name(result.winners[0])}" if result.winners else "No choice has the most votes"
    else:
        lead = "Elected: " + (", ".join(name(w) for w in result.winners) or "no one yet")
        if result.tied_for_last_seat:
            lead += (f". Tied for the last seat: {', '.join(name(t) for t in result.tied_for_last_seat)}, to be "
                     f"decided by lot ({h(tie_citation)})")
    return (f"<h2>Result <span class=note>({h(result.citation)})</span></h2>"
            f"<p id=outcome><strong>{h(OUTCOME_LABEL.get(result.outcome, result.outcome))}.</strong> {lead}.</p>"
            f"<p class=note>{h(result.reason)}</p>"
            "<table><tr><th>Choice</th><th class=n>Survey of returns</th><th class=n>Recount</th><th class=n>Change"
            f"</th></tr>{rows}</table>")


def live_html(state: ObserverState, token: str) -> str:
    """The part of the page that changes as the recount proceeds (state.json carries it too)."""
    deadline = ""
    if state.deadline:
        date, estimated, citation = state.deadline
        deadline = f" · complete no later than {day(date)}{' (estimate)' if estimated else ''} ({h(citation)})"
    parts = [f"<p id=status><strong>Status: {h(STATUS_LABEL.get(state.status, state.status))}</strong>{deadline}</p>"]
    if state.completed_at:
        parts.append(f"<p>Completed {when(state.completed_at)}.</p>")
    parts.append(_tally_html(state))
    if state.result:
        parts.append(_result_html(state.result, state.tie_citation))
    if state.certificates:
        links = "".join(f'<li><a href="{h(token)}/certificates/{c.id}" rel="noreferrer">Certificate of election: '
                        f"{name(c.candidate)}</a> ({c.votes:,} votes)</li>" for c in state.certificates)
        parts.append(f"<h2>Certificates of election <span class=note>({h(state.certificate_citation)})</span></h2>"
                     f"<ul id=certificates>{links}</ul>")
    elif state.result and not state.result.question:
        parts.append(f"<h2>Certificates of election</h2><p>None issued yet ({h(state.certificate_citation)}).</p>")
    return "".join(parts)


def page_html(state: ObserverState, token: str, *, nonce: str, poll_ms: int, version: str,
              now: dt.datetime) -> str:
    kind = "Automatic recount" if state.kind == "automatic" else "Requested recount"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Observe the recount: {h(state.contest)}</title><style nonce="{h(nonce)}">{STYLE}</style></head>
<body data-version="{h(version)}" data-poll-ms="{int(poll_ms)}" data-state="live">
<p class=note>{h(kind)} · case #{state.case_id} · {name(state.local_government)}</p>
<h1>{name(state.contest)}</h1>
<p>{name(state.election)}, {day(state.election_date)}</p>
<p class=note>Affected candidates and issue committees may be present during and observe the recount
({h(state.observers_citation)}). This page shows it as the office records it, and updates itself while it is open. The link
works until {when(state.link_expires_at)} unless the office revokes it.</p>
<p id=live-note aria-live="polite">{h(live_note(state, now))}</p>
<main id=live>{live_html(state, token)}</main>
<script nonce="{h(nonce)}">{SCRIPT}</script>
</body></html>
"""


GONE_TEXT = {"expired": "This observers' link has expired. Ask the election office for a new one.",
             "revoked": "The election office has revoked this observers' link. Ask the office for a new one."}


def gone_html(reason: str, *, nonce: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">
<title>Link no longer valid</title><style nonce="{h(nonce)}">{STYLE}</style></head>
<body data-state="gone"><h1>Link no longer valid</h1><p id=gone>{h(GONE_TEXT[reason])}</p></body></html>
"""
