"""Use cases for the operator's console (`recount-bot ...`): what cannot wait for someone in Slack.

Roles are normally granted in Slack by a designated election official (`/recount admin role`), and the first
official is the workspace admin who first uses the bot. When no such admin is available, whoever runs the
server grants a role from the console; the audit log names them ("cli:<operating-system user>").
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from services.errors import UserError
from services.office.access import assign_role, ensure_workspace
from services.services import Services
from storage.models import Membership, Role, Workspace


@dataclass(frozen=True)
class WorkspaceRow:
    team_id: str
    name: str


@dataclass(frozen=True)
class Grant:
    team_id: str
    user_id: str
    before: str | None
    after: str | None
    workspace_created: bool

    @property
    def changed(self) -> bool:
        return self.before != self.after


def list_workspaces(services: Services) -> list[WorkspaceRow]:
    with services.db.transaction() as session:
        rows = session.execute(select(Workspace.slack_team_id, Workspace.name).order_by(Workspace.slack_team_id))
        return [WorkspaceRow(team, name or "") for team, name in rows]


def grant_role_from_console(services: Services, team_id: str, user_id: str, role: Role | None, actor: str) -> Grant:
    """Set `user_id`'s role in `team_id` (None removes it), creating the workspace if the bot has not met it yet.

    As in Slack, the office is never left without a designated election official: grant the new one first.
    """
    with services.db.transaction() as session:
        existed = session.scalar(select(Workspace.id).where(Workspace.slack_team_id == team_id)) is not None
        workspace = ensure_workspace(session, team_id, actor=actor)
        current = session.scalar(select(Membership.role).where(
            Membership.workspace_id == workspace.id, Membership.slack_user_id == user_id))
        officials = session.scalar(select(func.count()).select_from(Membership).where(
            Membership.workspace_id == workspace.id, Membership.role == Role.OFFICIAL.value))
        if current == Role.OFFICIAL.value and role is not Role.OFFICIAL and officials == 1:
            raise UserError(f"{user_id} is the only designated election official of {team_id}; make someone else "
                            "an official first.", field="role")
        before, after = assign_role(session, workspace, user_id, role, actor=actor, note="granted from the console")
        return Grant(team_id, user_id, before, after, workspace_created=not existed)
