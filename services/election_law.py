"""The recount law an election runs under, as the use cases read it from the stored election.

An election stores its law's key (`elections.law`) and how it came to hold it (`elections.law_basis`): "given"
(chosen in a Slack form or with --law), "default" (the CLI imported it without --law, so 1-13.5-1306) or "before"
(recorded before the law was chosen per election: migration 0015 gave every such election 1-13.5-1306, the only
law the bot then applied). Every use case loads the profile here and hands it to the rules; none assumes a law.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rules.laws import DEFAULT_LAW, DEFAULT_LAW_KEY, LAWS, LawProfile, UnknownLaw, law_profile
from rules.laws.cites import Cites
from rules.laws.profile import Part
from services.errors import UserError
from services.services import Services
from storage.models import Contest, Election, LocalGovernment, RecountCase, RecountRequestRow, Workspace

GIVEN = "given"
DEFAULT = "default"
BEFORE = "before"
BASES = (GIVEN, DEFAULT, BEFORE)

_BASIS_NOTE = {
    GIVEN: "",
    DEFAULT: " (the default: no law was named at import)",
    BEFORE: " (recorded before the law was chosen per election)",
}


@dataclass(frozen=True)
class ElectionLaw:
    """An election's law and how it was chosen."""

    profile: LawProfile
    basis: str

    @property
    def key(self) -> str:
        return self.profile.key

    @property
    def citation(self) -> str:
        return self.profile.citation

    @property
    def named(self) -> str:
        """"C.R.S. 1-10.5 (coordinated election)", and for an election recorded before the law was chosen per
        election "C.R.S. 1-13.5-1306 (special district ...) (recorded before the law was chosen per election)"."""
        return self.profile.named + _BASIS_NOTE.get(self.basis, "")

    @property
    def held_under(self) -> str:
        """The sentence a verdict, card or letter shows."""
        return f"Held under {self.named}."

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "citation": self.citation, "title": self.profile.title,
                "name": self.profile.plain_name, "basis": self.basis}


def election_law(election: Election) -> ElectionLaw:
    """The stored election's law. A key no profile knows (a database written by a newer recount-bot) is refused
    rather than read as another law."""
    try:
        profile = law_profile(election.law)
    except UnknownLaw as exc:
        raise UserError(f"The election {election.name!r} names a recount law this recount-bot does not know: "
                        f"{exc}") from None
    return ElectionLaw(profile, election.law_basis if election.law_basis in BASES else BEFORE)


def cites_of(case: RecountCase) -> Cites:
    """The provisions of the case's election's law that its texts and audit rows cite (issue 22: never 1306's
    subsections for an election under another law)."""
    return Cites.of(law_of(case.contest.election))


def law_of(election: Election) -> LawProfile:
    """The profile the rules are given for `election` (what every use case passes as `law=`)."""
    return election_law(election).profile


def before_counting_citation(law: LawProfile) -> str:
    """What a notice given before a requested recount is counted cites: 1-13.5-1306(2)(b)(I) under that law (the
    subparagraph on notice itself), the law's pre-count provision under the others."""
    if law.key == DEFAULT_LAW_KEY:
        return f"{law.citation}(2)(b)(I)"
    return law.cite(Part.PRE_COUNT)


def payment_wait_citation(law: LawProfile) -> str:
    """Why a requested recount waits for its payment: 1-13.5-1306(2)(b)(IV) under that law, the law's payment
    provision under the others (31-10-1207(2), 1-10.5-106(2))."""
    if law.key == DEFAULT_LAW_KEY:
        return f"{law.citation}(2)(b)(IV)"
    return law.payment.provision.citation


def chosen_key(key: str | None) -> str:
    """A law key from a form or an option, checked against the profiles; None is refused (Slack asks)."""
    if key is None or not key.strip():
        raise UserError("Choose the recount law the election runs under "
                        f"({', '.join(p.named for p in LAWS.values())}).", field="law")
    try:
        return law_profile(key).key
    except UnknownLaw as exc:
        raise UserError(str(exc), field="law") from None


def settle_law(election: Election, key: str | None, *, created: bool) -> ElectionLaw:
    """Keep the law an election is stored with. A new election takes `key` ("given"), or 1-13.5-1306 when none is
    given ("default": the CLI without --law). An existing election keeps its law: a `key` that disagrees is
    refused, naming both, because its deadlines, cases and notices were decided under the stored one."""
    if created:
        if key is None:
            election.law, election.law_basis = DEFAULT_LAW_KEY, DEFAULT
        else:
            election.law, election.law_basis = chosen_key(key), GIVEN
        return election_law(election)
    stored = election_law(election)
    if key is not None and chosen_key(key) != stored.key:
        asked = law_profile(key)
        raise UserError(f"The election {election.name!r} is held under {stored.named}; it cannot be changed to "
                        f"{asked.named}. Its deadlines and any case were decided under "
                        f"{stored.citation}.", field="law")
    return stored


def name_law(session: Session, election: Election, key: str | None) -> tuple[ElectionLaw, ElectionLaw] | None:
    """Give an existing election the law `key` where its stored law was never chosen ("before": recorded before
    the law was chosen per election; "default": imported without --law) and nothing has yet been decided under
    it: no recount case and no recount request for any of its contests. (before, after) when it changed; None
    when `key` is none or the law stands. Otherwise `settle_law` refuses, naming both laws: a case or request
    was decided (its deadlines, its notices) under the stored law."""
    if key is None:
        return None
    stored = election_law(election)
    wanted = chosen_key(key)
    if wanted == stored.key and stored.basis == GIVEN:
        return None
    decided = session.scalar(select(func.count()).select_from(Contest).where(
        Contest.election_id == election.id,
        (select(RecountCase.id).where(RecountCase.contest_id == Contest.id).exists())
        | (select(RecountRequestRow.id).where(RecountRequestRow.contest_id == Contest.id).exists())))
    if stored.basis == GIVEN or decided:
        settle_law(election, key, created=False)  # the same law, or refused naming both
        return None
    election.law, election.law_basis = wanted, GIVEN
    return stored, election_law(election)


@dataclass(frozen=True)
class StoredElection:
    """An election in the database as the console's `check` and `deadlines` read it (`--election NAME`)."""

    name: str
    election_date: dt.date
    canvass_date: dt.date | None
    local_government: str
    law: ElectionLaw


def stored_elections(services: Services, *, team_id: str, name: str,
                     election_date: dt.date | None = None) -> list[StoredElection]:
    """The office's elections called `name` (case aside), on `election_date` when given; newest first. An office
    holding several local governments' elections on one day has one election of that name for each."""
    with services.db.read() as session:
        query = (select(Election).join(LocalGovernment).join(Workspace, Workspace.id == LocalGovernment.workspace_id)
                 .where(Workspace.slack_team_id == team_id, func.lower(Election.name) == " ".join(name.split()).lower())
                 .order_by(Election.election_date.desc(), Election.id))
        if election_date is not None:
            query = query.where(Election.election_date == election_date)
        return [StoredElection(e.name, e.election_date, e.canvass_date, e.local_government.name, election_law(e))
                for e in session.scalars(query)]


def law_of_stored(services: Services, *, team_id: str, election_id: int | None) -> LawProfile:
    """The law of the office's stored election `election_id`, for a form that carries only its id (an upload's
    preview); 1-13.5-1306 when there is none (a new election has no returns to correct)."""
    if election_id is None:
        return DEFAULT_LAW
    with services.db.read() as session:
        election = session.scalar(
            select(Election).join(LocalGovernment).join(Workspace, Workspace.id == LocalGovernment.workspace_id)
            .where(Workspace.slack_team_id == team_id, Election.id == election_id))
        return law_of(election) if election is not None else DEFAULT_LAW
