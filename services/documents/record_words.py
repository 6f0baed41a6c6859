"""The words of the printed case record (services/documents/case_record_pdf.py): what the JSON record stores as
machine values — Slack user ids, UTC timestamps to the microsecond, enum names, nested objects — said as a clerk or
a court reads them: people's names, Colorado local times to the minute, plain words, and each step's citation.

Pure functions of the record's values; nothing here reads the database or Slack. People's names are those the
bot knows (`people`: Slack user id -> display name, looked up when the record is made in Slack); an id it has no
name for is printed as "Slack user <id>", so the person can still be found.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from rules.calendar import DENVER
from rules.laws import DEFAULT_LAW
from rules.laws.cites import Cites
from rules.money import format_money

SLACK_USER = re.compile(r"^[UW][A-Z0-9]{6,}$")
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)?$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_KIND_PREFIX = re.compile(r"^([a-z_]+): ")
_FIELD = re.compile(r"^[a-z][a-z0-9_]*$")

# Enum values as words. One table for every field: the values do not collide in meaning across fields.
PLAIN = {
    "automatic": "automatic recount (margin of 1306(1))", "requested": "requested recount (1306(2))",
    "open": "open", "counting": "counting", "completed": "completed",
    "candidate": "candidate", "question": "ballot issue or question", "governing_body": "governing body",
    "issue_committee": "issue committee", "eligible_elector": "eligible elector",
    "prepared_abstract": "preparer of the official abstract", "appointed_1301": "appointed under 1-13.5-1301",
    "additional_qualified": "additional person qualified as an election judge",
    "paper": "paper ballots", "electronic": "electronic ballots", "voting_machine": "voting machines",
    "confirmed": "the recount confirms the result", "changed": "the recount changes the result",
    "tie_by_lot": "a tie for the last seat, left to the lot", "unchanged": "no vote changed",
    "refund": "refund of the payment", "return_unused_deposit": "return of the unused deposit",
    "balance_due": "balance due from the requester", "accepted": "valid request", "ok": "in order",
    "refused": "refused", "overridden": "completed with notices owed, for the reason recorded",
    "automatic_recount": "automatic recount required", "no_automatic_recount": "no automatic recount",
    "email": "email", "mail": "mail", "hand_delivery": "hand delivery", "phone": "telephone", "check": "check",
    "cash": "cash", "pending": "awaiting a decision", "approved": "approved", "rejected": "rejected",
    "withdrawn": "withdrawn by the requester", "payment": "payment received",
    "deposit_return": "unused deposit returned", "balance": "balance paid", "cost_determined": "cost determined",
    "balance_collected": "balance collected", "governing_body_payment": "paid by the governing body",
    "paid_to_officials": "paid to the election officials", "expense": "expense of the recount",
    "automatic_recount_deadline": "the automatic recount must be complete",
    "requested_recount_deadline": "the requested recount must be complete",
    "contest_filing_deadline": "the last day to file an election contest",
}

# What each audit action says, and the provision it is taken under (the citation beside each step): an attribute of
# rules.laws.cites.Cites, read in the case's election's law (1306(6) under 1-13.5-1306, 31-10-1207(6) under its law).
ACTIONS: dict[str, tuple[str, str | None]] = {
    "case.opened": ("Recount case opened", None), "case.card_posted": ("Case card posted in Slack", None),
    "case.completed": ("Recount completed", "results"),
    "case.returns_followed": ("Case follows the corrected survey of returns", "evidence"),
    "case.returns_not_followed": ("Case keeps its survey version after a correction", "evidence"),
    "notice.recorded": ("Notice of the recount recorded as given", "notice"),
    "request.entered": ("Written request entered", "request"),
    "request.card_posted": ("Request card posted in Slack", "request"),
    "request.approved": ("Request approved", "request"), "request.rejected": ("Request rejected", "request"),
    "request.withdrawn": ("Request withdrawn by the requester", "request"),
    "cost.determined": ("Cost of the recount determined", "cost"),
    "cost.notified": ("Requester notified of the cost", "cost_notice"),
    "payment.recorded": ("Payment received", "collection"),
    "counting.started": ("Counting started", "collection"), "tally.set_up": ("Count set up", "tally"),
    "tally.sheet_entered": ("Tally sheet entered", "tally"),
    "tally.sheet_withdrawn": ("Tally sheet withdrawn", "tally"),
    "assistant.recorded": ("Assistant recorded", "conduct"), "assistant.updated": ("Assistant updated", "conduct"),
    "election.abstract_preparers_set": ("Preparers of the official abstract recorded", "conduct"),
    "evidence.demanded": ("Documentary evidence demanded", "evidence"),
    "evidence.produced": ("Documentary evidence produced", "evidence"),
    "survey.version_created": ("Survey of returns version written", "evidence"),
    "results.notified": ("Governing body notified of the results", "results"),
    "results.amended_notified": ("Amended notice of the results given", "results"),
    "certificate.delivered": ("Certificate of election delivered", "results"),
    "certificate.link_renewed": ("New link to a certificate of election", "results"),
    "balance.collected": ("Balance of the cost collected", "payment"),
    "money.returned": ("Money returned to the requester", "refund_or_leftover"),
    "lot.drawn": ("Lot drawn for the tie", "tie"),
    "observers.link_made": ("Observers' link made", "notice"),
    "observers.link_revoked": ("Observers' link revoked", "notice"),
    "observers.page_viewed": ("Observers' page opened", "notice"),
    "deadline.moved": ("Deadline moved", None),
}

# Entry fields not worth a reader's line: machine bookkeeping the audit hash already covers.
_SKIP = {"citation", "hash", "sha256", "form_key", "rows", "verdict", "numbers", "comparison", "decision",
         "channel_id", "card_ts", "channel", "ts"}


class Words:
    """How the record's values read, with the names the bot knows."""

    def __init__(self, people: Mapping[str, str] | None = None, cites: Cites | None = None) -> None:
        self.cites = cites or Cites.of(DEFAULT_LAW)
        self.people = dict(people or {})

    def person(self, value: Any) -> str:
        text = "" if value is None else str(value)
        if SLACK_USER.match(text):
            return self.people.get(text) or f"Slack user {text}"
        if text.startswith("observer-link:"):
            return f"an observer (link #{text.split(':', 1)[1]})"
        return text or "—"

    @staticmethod
    def moment(value: Any) -> str:
        """An ISO timestamp as Colorado local time, to the minute; a day as a day."""
        text = str(value)
        if _MOMENT.match(text):
            at = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
            if at.tzinfo is None:
                at = at.replace(tzinfo=dt.timezone.utc)
            local = at.astimezone(DENVER)
            return f"{local:%a %b} {local.day}, {local:%Y, %H:%M %Z}"
        if _DAY.match(text):
            day = dt.date.fromisoformat(text)
            return f"{day:%a %b} {day.day}, {day:%Y}"
        return text

    @staticmethod
    def label(key: str) -> str:
        """A field's name as words ("given_at" -> "Given at"); a key that is itself a name (a candidate's, in a
        tally's counts) is left as it is."""
        return key.replace("_", " ").strip().capitalize() if _FIELD.match(key) else key

    def value(self, value: Any, key: str = "") -> str:
        """Any value of the record as words: nested objects as "field: value" lists, never as JSON."""
        if value is None or value == "" or value == [] or value == {}:
            return "—"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, dict):
            return "; ".join(f"{self.label(str(k))}: {self.value(v, str(k))}" for k, v in value.items()
                             if k not in _SKIP and v not in (None, "", [], {}))
        if isinstance(value, (list, tuple)):
            return ", ".join(self.value(v, key) for v in value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return f"{value:,}"
        text = str(value)
        if key.endswith(("_by", "actor")) or key in ("by", "decided_by", "entered_by", "created_by") \
                or SLACK_USER.match(text):
            return self.person(text)
        if key in ("amount", "cost", "paid", "due", "held", "compensation", "refund", "deposit_return",
                   "balance_due", "cost_determined") or key.endswith("_amount"):
            try:
                return format_money(Decimal(text))
            except (InvalidOperation, ValueError):
                return text
        if _MOMENT.match(text) or _DAY.match(text):
            return self.moment(text)
        kind = _KIND_PREFIX.match(text)  # "governing_body: Board of ..." as the audit log names a recipient
        if kind and kind.group(1) in PLAIN:
            return f"{PLAIN[kind.group(1)]}: {text[kind.end():]}"
        return PLAIN.get(text, text)

    def fields(self, items: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> list[str]:
        """"Label: value" for each field that has a value, in the order given."""
        labels = labels or {}
        return [f"{labels.get(k) or self.label(k)}: {self.value(v, k)}" for k, v in items.items()
                if k not in _SKIP and v not in (None, "", [], {})]

    def _cited(self, what: str | None) -> str | None:
        if what is None:
            return None
        if what == "refund_or_leftover":
            return self.cites.joined(self.cites.refund, self.cites.leftover)
        return str(getattr(self.cites, what))

    def step(self, row: Mapping[str, Any]) -> str:
        """One entry of the timeline: when, who, what, the facts, and the provision it was taken under."""
        what, cited = ACTIONS.get(row["action"], (self.label(row["action"].replace(".", " ")), None))
        citation = self._cited(cited)
        raw = row.get("after")
        after: dict[str, Any] = raw if isinstance(raw, dict) else {}
        citation = after.get("citation") or citation
        facts = self.value({k: v for k, v in after.items() if k not in _SKIP}) if after else ""
        text = f"{self.moment(row['at'])} — {what}, by {self.person(row['actor'])}"
        if facts and facts != "—":
            text += f". {facts}"
        if citation:
            text += f" [{citation}]"
        return text + f" (audit entry #{row['id']}, hash {str(row.get('hash', ''))[:12]}…)"
