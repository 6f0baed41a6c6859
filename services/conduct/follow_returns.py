"""A recount under way follows the survey of returns as corrected under C.R.S. 1-13.5-1306(4).

(4) lets the designated election official "correct the survey of returns in accordance with the findings based on
the evidence presented". A correction is a new version of the survey; a case opened on an earlier one would
otherwise keep comparing the recount with counts the official has found wrong: the card naming the old version,
completion comparing against it, the observers' page showing its totals. So when a correction writes a new version,
every recount of that election not yet completed moves to it, audited (`case.returns_followed`).

One exception, said rather than done: when the new version's units of the contest are not the ones the case was
counting by (a file re-read with machines in place of precincts) and tally sheets are already entered, the sheets
would no longer match the units expected. The case then stays on its version, audited
(`case.returns_not_followed`) with the reason, and the case's thread says so before completion: the official may
withdraw the sheets and count again, or complete against the version the sheets were entered for.
A completed recount never moves: its comparison and certificates were made on the version it had.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from services.election_law import cites_of
from services.returns.versions import rules_contests
from storage import audit
from storage.models import Contest, RecountCase, SurveyVersion, TallySheetRow


@dataclass(frozen=True)
class Followed:
    case_id: int
    contest: str
    before: int  # the version the case was on
    after: int  # the version it is on now (== before when it did not follow)
    why_not: str | None = None  # None: it follows the new version

    @property
    def followed(self) -> bool:
        return self.why_not is None


def _units(session: Session, version: SurveyVersion, contest_id: int) -> tuple[str, ...] | None:
    found = rules_contests(session, version, [contest_id])
    return tuple(sorted(found[0][1].units)) if found else None


def follow_correction(session: Session, *, version: SurveyVersion, contest_ids: list[int] | None, actor: str,
                      now: dt.datetime, workspace_id: int) -> list[Followed]:
    """Move the open recounts of `version`'s election (of `contest_ids` only, when given) to `version`; say which
    did not, and why. In the caller's transaction, audited."""
    query = (select(RecountCase).join(Contest, Contest.id == RecountCase.contest_id)
             .where(Contest.election_id == version.election_id, RecountCase.completed_at.is_(None),
                    RecountCase.survey_version_id != version.id).order_by(RecountCase.id))
    if contest_ids is not None:
        query = query.where(RecountCase.contest_id.in_(contest_ids))
    done: list[Followed] = []
    for case in session.scalars(query):
        old = session.get_one(SurveyVersion, case.survey_version_id)
        if old.number > version.number:
            continue  # never backwards
        new_units = _units(session, version, case.contest_id)
        why_not = None
        if new_units is None:
            why_not = f"version {version.number} has no counts for this contest"
        elif new_units != _units(session, old, case.contest_id) and session.scalar(
                select(TallySheetRow.id).where(TallySheetRow.case_id == case.id,
                                               TallySheetRow.withdrawn_at.is_(None)).limit(1)) is not None:
            why_not = (f"version {version.number} counts this contest by other units ({', '.join(new_units[:5])}"
                       f"{', ...' if len(new_units) > 5 else ''}) than the tally sheets already entered; withdraw "
                       "them and count by the new units to follow it")
        contest = case.contest.name
        if why_not is None:
            case.survey_version_id = version.id
            audit.append(session, actor=actor, action="case.returns_followed", entity="recount_case",
                         entity_id=case.id, before={"survey_version": old.number},
                         after={"survey_version": version.number, "contest": contest, "citation": cites_of(case).evidence},
                         workspace_id=workspace_id, at=now)
        else:
            audit.append(session, actor=actor, action="case.returns_not_followed", entity="recount_case",
                         entity_id=case.id, before={"survey_version": old.number},
                         after={"survey_version": old.number, "corrected_version": version.number,
                                "reason": why_not, "citation": cites_of(case).evidence},
                         workspace_id=workspace_id, at=now)
        done.append(Followed(case.id, contest, old.number, version.number if why_not is None else old.number,
                             why_not))
    session.flush()
    return done
