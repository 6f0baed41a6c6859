"""Every action_id, callback_id and block_id the app uses, defined once."""
from __future__ import annotations

import enum


class Command(str, enum.Enum):
    RECOUNT = "/recount"


class Action(str, enum.Enum):
    RECORD_NOTICE = "notice.record"


class View(str, enum.Enum):
    RECORD_NOTICE = "notice.record"
    RETURNS_PICK = "returns.pick"
    RETURNS_ENTER = "returns.enter"
    MESSAGE = "message"  # an informational modal (errors, denials); nothing to submit


class Block(str, enum.Enum):
    NOTICE_GIVEN_BY = "notice.given_by"
    NOTICE_METHOD = "notice.method"
    NOTICE_GIVEN_AT = "notice.given_at"
    NOTICE_DETAILS = "notice.details"
    RETURNS_ELECTION = "returns.election"
    RETURNS_NEW_ELECTION_NAME = "returns.new_election_name"
    RETURNS_NEW_ELECTION_DATE = "returns.new_election_date"
    RETURNS_LOCAL_GOVERNMENT = "returns.local_government"
    RETURNS_GOVERNING_BODY = "returns.governing_body"
    RETURNS_CONTEST = "returns.contest"
    RETURNS_NEW_CONTEST_NAME = "returns.new_contest_name"
    RETURNS_NEW_CONTEST_KIND = "returns.new_contest_kind"
    RETURNS_NEW_CONTEST_SEATS = "returns.new_contest_seats"
    RETURNS_NEW_CONTEST_CHOICES = "returns.new_contest_choices"
    RETURNS_UNIT = "returns.unit"
    RETURNS_REASON = "returns.reason"
    RETURNS_EVIDENCE = "returns.evidence"
    # + "<unit key>.<choice position>": one number input per choice. The unit key changes with the unit
    # shown, so Slack does not carry numbers typed for one unit over to the next (it keeps the state of
    # inputs whose block_id is unchanged across views.update).
    RETURNS_CHOICE_PREFIX = "returns.choice."


# Each input block holds one element; its action_id is the same as the block's, so a view's
# state is read as state["values"][block_id][block_id].
def value_of(view_state: dict, block: "Block | str") -> dict:
    key = block.value if isinstance(block, Block) else block
    return view_state.get("values", {}).get(key, {}).get(key, {})
