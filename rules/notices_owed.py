"""Subsection (1)'s notices, before the recount is completed.

"The designated election official shall give notice of the recount to the governing body, to all candidates
and, in the case of a ballot issue or question, to any issue committee that are affected by the result of the
election. ... An affected candidate or issue committee is allowed to be present during and observe the recount."
(2)(b)(I) applies the same notice to a requested recount, "before conducting the recount".

(1) names no moment for the notice. Read with its last sentence (a right to be present during the recount,
which only a notice given before the recount ends can serve), the default reading is NOTICE_FIRST: completing
the recount is refused while any notice is not recorded as given, and the refusal names each one. The other
reading, OWED_WITH_REASON, lets the official complete anyway, only with a reason in words, which is recorded
with the completion, shown on its announcement and in the case record.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.statute import cite

CITATION = cite("(1)")
REASON_LIMIT = 1000


class NoticesReading(str, enum.Enum):
    NOTICE_FIRST = "notice-first"
    OWED_WITH_REASON = "owed-with-reason"


READING_TEXT = {
    NoticesReading.NOTICE_FIRST: (
        "notice-first (the default): (1) gives affected candidates and committees the right to be present during "
        "the recount, so its notices are due before the recount is completed; completing is refused while one "
        "is not recorded as given"),
    NoticesReading.OWED_WITH_REASON: (
        "owed-with-reason: the official completed the recount with notices under (1) not recorded as given, for "
        "the reason recorded with the completion"),
}


@dataclass(frozen=True)
class OwedNotice:
    """A notice under (1) (or (2)(b)(I)) not recorded as given: to whom, as the card names them."""

    recipient_kind: str  # "governing_body", "candidate", "issue_committee"
    recipient: str
    citation: str = CITATION

    @property
    def label(self) -> str:
        kind = {"governing_body": "the governing body", "candidate": "candidate",
                "issue_committee": "issue committee"}.get(self.recipient_kind, self.recipient_kind)
        return f"{kind} {self.recipient}"


def notices_before_completion(owed: Sequence[OwedNotice], *, reason: str | None = None,
                              law: LawProfile = DEFAULT_LAW) -> Decision:
    """`clear` when every notice is given; `refused` when some are owed and no reason is given; `overridden`
    (reading OWED_WITH_REASON) when some are owed and the official gave a reason. The notice is the law's
    (1306(1) by default; 31-10-1207(1); 1-10.5-105, which names the means: e-mail, telephone, fax, personal
    service)."""
    owed = tuple(owed)
    citation = law.notice.provision.citation
    sub = "(1)" if law is DEFAULT_LAW else citation
    reason = " ".join((reason or "").split())
    if len(reason) > REASON_LIMIT:
        raise ValueError(f"the reason is at most {REASON_LIMIT} characters")
    numbers = {"owed": [{"recipient_kind": n.recipient_kind, "recipient": n.recipient, "citation": n.citation}
                        for n in owed], "owed_count": len(owed)}
    if not owed:
        return Decision(outcome="clear", citation=citation, numbers=numbers,
                        reason=f"every notice of the recount under {sub} is recorded as given before its completion",
                        reading=READING_TEXT[NoticesReading.NOTICE_FIRST])
    listed = "; ".join(n.label for n in owed)
    count = f"{len(owed)} notice{'' if len(owed) == 1 else 's'} of the recount"
    if not reason:
        return Decision(outcome="refused", citation=citation, numbers=numbers,
                        reason=f"{count} still owed ({citation}): {listed}",
                        reading=READING_TEXT[NoticesReading.NOTICE_FIRST])
    return Decision(outcome="overridden", citation=citation, numbers={**numbers, "reason": reason},
                    reason=f"completed with {count} not recorded as given ({citation}): {listed}; the official's "
                           f"reason: {reason}",
                    reading=READING_TEXT[NoticesReading.OWED_WITH_REASON])
