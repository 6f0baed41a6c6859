"""Workspaces and roles. Only a designated election official grants roles; the first one is the
workspace admin or owner who first uses the bot (the installer, in practice), or is set from the CLI."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.statute import LEGAL_HOLIDAYS_CITATION
from services.errors import Denied, UserError
from services.office.office_settings import OfficeSettings
from services.services import Services
from services.wording import Person, words
from storage import audit
from storage.models import Membership, Role, Workspace


@dataclass(frozen=True)
class Member:
    workspace_id: int
    team_id: str
    user_id: str
    role: Role | None
    settings: OfficeSettings
    has_official: bool


def ensure_workspace(session: Session, team_id: str, *, name: str = "", actor: str = "system") -> Workspace:
    workspace = session.scalar(select(Workspace).where(Workspace.slack_team_id == team_id))
    if workspace is None:
        try:
            with session.begin_nested():  # two first requests at once: one creates, the other finds it
                workspace = Workspace(slack_team_id=team_id, name=name, settings=OfficeSettings().stored())
                session.add(workspace)
                session.flush()
        except IntegrityError:  # the other request's workspace: it is there
            return session.execute(select(Workspace).where(Workspace.slack_team_id == team_id)).scalar_one()
        audit.append(session, actor=actor, action="workspace.created", entity="workspace", entity_id=workspace.id,
                     after={"slack_team_id": team_id, "name": name}, workspace_id=workspace.id)
    return workspace


def _official_count(session: Session, workspace_id: int) -> int:
    return session.scalar(select(func.count()).select_from(Membership).where(
        Membership.workspace_id == workspace_id, Membership.role == Role.OFFICIAL.value)) or 0


def resolve_member(services: Services, team_id: str, user_id: str) -> Member:
    """Who is asking, and their role. Every request asks, so it only reads, unless the office is new."""
    with services.db.read() as session:
        workspace = session.scalar(select(Workspace).where(Workspace.slack_team_id == team_id))
        if workspace is not None:
            return _member(session, workspace, team_id, user_id)
    return _resolve_new(services, team_id, user_id)


def _resolve_new(services: Services, team_id: str, user_id: str) -> Member:
    with services.db.transaction() as session:
        return _member(session, ensure_workspace(session, team_id), team_id, user_id)


def _member(session: Session, workspace: Workspace, team_id: str, user_id: str) -> Member:
    membership = session.scalar(select(Membership).where(
        Membership.workspace_id == workspace.id, Membership.slack_user_id == user_id))
    return Member(
        workspace_id=workspace.id, team_id=team_id, user_id=user_id,
        role=Role(membership.role) if membership else None,
        settings=OfficeSettings.of(workspace.settings),
        has_official=_official_count(session, workspace.id) > 0,
    )


def bootstrap_official(services: Services, team_id: str, user_id: str, *, reason: str) -> bool:
    """Make `user_id` the first official if the workspace has none. Returns whether it did."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        # Lock the workspace row: two admins arriving at once must not both become the first official.
        session.get(Workspace, workspace.id, with_for_update=True, populate_existing=True)
        if _official_count(session, workspace.id):
            return False
        assign_role(session, workspace, user_id, Role.OFFICIAL, actor=user_id, note=reason)
        return True


def assign_role(session: Session, workspace: Workspace, user_id: str, role: Role | None, *, actor: str,
                note: str = "") -> tuple[str | None, str | None]:
    """The role change itself, audited, in the caller's transaction (who may make it is the caller's check):
    (the role before, the role after)."""
    membership = session.scalar(select(Membership).where(
        Membership.workspace_id == workspace.id, Membership.slack_user_id == user_id))
    before = membership.role if membership else None
    after = role.value if role else None
    if before == after:
        return before, after
    if role is None:
        session.delete(membership)
    elif membership is None:
        session.add(Membership(workspace_id=workspace.id, slack_user_id=user_id, role=role.value, granted_by=actor))
    else:
        membership.role, membership.granted_by = role.value, actor
    session.flush()
    audit.append(session, actor=actor, action="role.set", entity="membership", entity_id=user_id,
                 before={"role": before}, after={"role": after, "note": note} if note else {"role": after},
                 workspace_id=workspace.id)
    return before, after


def set_role(services: Services, *, team_id: str, actor: str, actor_role: Role | None, user_id: str,
             role: Role | None) -> tuple[str | None, str | None]:
    """An official sets another person's role (None removes it). Never leaves the office without an official."""
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may set roles.")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        current = session.scalar(select(Membership.role).where(
            Membership.workspace_id == workspace.id, Membership.slack_user_id == user_id))
        if current == Role.OFFICIAL.value and role is not Role.OFFICIAL and _official_count(session, workspace.id) == 1:
            raise UserError("That would leave the office without a designated election official; "
                            "make someone else an official first.", field="role")
        return assign_role(session, workspace, user_id, role, actor=actor)


def list_members(services: Services, team_id: str) -> list[tuple[str, Role]]:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        rows = session.execute(select(Membership.slack_user_id, Membership.role).where(
            Membership.workspace_id == workspace.id).order_by(Membership.role, Membership.slack_user_id)).all()
        return [(user, Role(role)) for user, role in rows]


def update_settings(services: Services, *, team_id: str, actor: str, actor_role: Role | None,
                    changes: dict) -> OfficeSettings:
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may change the office's settings.")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        before = OfficeSettings.of(workspace.settings)
        try:
            after = OfficeSettings.model_validate({**before.stored(), **changes})
        except ValidationError as exc:  # name the setting and the allowed values
            raise UserError(f"Not a valid setting: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
        workspace.settings = after.stored()
        audit.append(session, actor=actor, action="settings.updated", entity="workspace", entity_id=workspace.id,
                     before=before.stored(), after=after.stored(), workspace_id=workspace.id)
        return after


APPOINTED_NAME_LIMIT = 120
MAX_APPOINTED_DAYS = 200


def set_appointed_holiday(services: Services, *, team_id: str, actor: str, actor_role: Role | None, day: dt.date,
                          name: str | None) -> bool:
    """Enter (or, with `name` None, remove) a day the governor or the president appointed as a holiday: a legal
    holiday under C.R.S. 24-11-101(1), so every deadline of the office skips it. Returns whether anything changed;
    a change is an audit row (`calendar.appointed_holiday`)."""
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may enter a day closed by the governor or the president.")
    if name is not None:
        name = " ".join(name.split())
        if not name:
            raise UserError("Name the day as the proclamation does, like “Day of prayer (Governor's proclamation "
                            "2026-14)”.", field="name")
        if len(name) > APPOINTED_NAME_LIMIT:
            raise UserError(f"At most {APPOINTED_NAME_LIMIT} characters for the day's name.", field="name")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        before = OfficeSettings.of(workspace.settings)
        days = dict(before.appointed_holidays)
        if days.get(day) == name or (name is None and day not in days):
            return False
        previous = days.pop(day, None)
        if name is not None:
            days[day] = name
        if len(days) > MAX_APPOINTED_DAYS:
            raise UserError(f"At most {MAX_APPOINTED_DAYS} appointed days; remove past ones first.", field="date")
        after = before.model_copy(update={"appointed_holidays": dict(sorted(days.items()))})
        workspace.settings = after.stored()
        audit.append(session, actor=actor, action="calendar.appointed_holiday", entity="workspace",
                     entity_id=workspace.id, before={"date": day, "name": previous},
                     after={"date": day, "name": name, "citation": LEGAL_HOLIDAYS_CITATION},
                     workspace_id=workspace.id)
        return True


def set_approver(services: Services, *, team_id: str, actor: str, actor_role: Role | None, user_id: str,
                 on: bool) -> tuple[bool, bool]:
    """An official delegates (or withdraws) the deciding of recount requests to a staff member. Returns
    (before, after). Officials always decide; a viewer or a person without a role may not be delegated."""
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may delegate the approval of recount requests.")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        membership = session.scalar(select(Membership).where(
            Membership.workspace_id == workspace.id, Membership.slack_user_id == user_id))
        role = Role(membership.role) if membership else None
        if role is Role.OFFICIAL:
            raise UserError(words(Person(user_id), " is a designated election official and may always decide "
                                  "recount requests; nothing to delegate."), field="user")
        if on and (role is None or not role.allows(Role.STAFF)):
            raise UserError(words(Person(user_id), f" has {role.value if role else 'no role'}; an approver needs at "
                                  "least the staff role (`/recount admin role ", Person(user_id), " staff`)."),
                            field="user")
        before = bool(membership.can_approve) if membership else False
        if membership is None or before == on:
            return before, before
        membership.can_approve = on
        session.flush()
        audit.append(session, actor=actor, action="approver.set", entity="membership", entity_id=user_id,
                     before={"can_approve": before}, after={"can_approve": on, "role": membership.role},
                     workspace_id=workspace.id)
        return before, on


def approvers(services: Services, team_id: str) -> list[str]:
    """Staff delegated to decide recount requests (officials decide without a delegation)."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        return list(session.scalars(select(Membership.slack_user_id).where(
            Membership.workspace_id == workspace.id, Membership.can_approve.is_(True),
            Membership.role == Role.STAFF.value).order_by(Membership.slack_user_id)))
