"""All tables, importable from one place (Alembic's env.py reads `Base.metadata` from here)."""
from storage.models.audit import AuditEntry, AuditHead, ProcessedDelivery
from storage.models.base import Base
from storage.models.conduct import AssistantRow, Certificate, EvidenceDemand, LotDrawing, TallySheetRow
from storage.models.delivery import OutboxMessage, OutboxStatus, Reminder, ReminderStatus, WorkerHeartbeat
from storage.models.election import Choice, Contest, Election, IssueCommittee, SurveyVersion, VoteCount
from storage.models.observers import ObserverLink
from storage.models.office import CandidateUser, LocalGovernment, Membership, Role, Workspace
from storage.models.recount import (
    AutomaticRecountWaiver,
    CaseDeadline,
    CaseKind,
    CaseStatus,
    Notice,
    RecipientKind,
    RecountCase,
)
from storage.models.requests import CostNotice, LedgerRow, RecountRequestRow, RequestStatus
from storage.models.slack_install import BOTS_TABLE, INSTALLATIONS_TABLE, OAUTH_STATES_TABLE

__all__ = [
    "AuditEntry", "AuditHead", "AutomaticRecountWaiver", "BOTS_TABLE", "INSTALLATIONS_TABLE", "OAUTH_STATES_TABLE", "Base", "CandidateUser", "CaseDeadline", "CaseKind", "CaseStatus", "Choice", "Contest", "Election",
    "IssueCommittee", "LocalGovernment", "Membership", "Notice", "ProcessedDelivery", "RecipientKind",
    "RecountCase", "Role", "OutboxMessage", "OutboxStatus", "Reminder", "ReminderStatus", "AssistantRow", "Certificate", "EvidenceDemand", "LotDrawing", "ObserverLink", "TallySheetRow", "CostNotice", "LedgerRow", "RecountRequestRow", "RequestStatus", "SurveyVersion", "VoteCount", "WorkerHeartbeat", "Workspace",
]
