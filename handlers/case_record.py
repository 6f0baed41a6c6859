"""`/recount record <case#> [here]`: the whole record of a recount case — the timeline from the audit log, the
numbers, each decision with its citation — as JSON and PDF, uploaded to the person's direct messages (with
`here`, into the channel). Read-only, so a viewer may ask for it: it is what a records request gets.

Building the PDF and uploading take a moment: the command is answered first and the work runs after.
"""
from __future__ import annotations

import json
import logging
from typing import Any

from slack_sdk.errors import SlackApiError

from handlers.interaction import Interaction
from handlers.slack_io.outbox import CHANNEL_REFUSED
from handlers.slack_text import esc, outgoing
from handlers.subcommands import SUBCOMMANDS, split_args
from services.completion.case_record import build_case_record
from services.documents.case_record_pdf import case_record_pdf
from services.documents.glyphs import missing_in
from services.documents.record_words import SLACK_USER
from services.errors import UserError
from services.wording import echoed
from storage.models import Role

log = logging.getLogger("recount_bot.record")
USAGE = "/recount record <case#> [here]"


def parse_case_number(text: str) -> int:
    cleaned = text.strip().removeprefix("#").removeprefix("case").strip().removeprefix("#")
    if not cleaned.isdigit() or int(cleaned) < 1:
        raise UserError(f"“{echoed(text)}” is not a case number: write it like `/recount record 12` (the number is at "
                        "the foot of the case card).")
    return int(cleaned)


MAX_PEOPLE = 60  # users.info calls for one record: the people who acted on one case are far fewer


def _user_ids(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if SLACK_USER.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_user_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_user_ids(v) for v in value)) if value else set()
    return set()


def with_people(client, record: dict) -> dict:
    """The record with `people`: each Slack user it names, by the name Slack shows for them now (their full name,
    else their display name: a court reads "Dana Whitfield", not a handle), so the printed record names people
    rather than ids. A name the PDF's fonts cannot print, or a
    person Slack will not describe, is left out: the record then says "Slack user <id>"."""
    people: dict[str, str] = {}
    for user_id in sorted(_user_ids(record))[:MAX_PEOPLE]:
        try:
            user = client.users_info(user=user_id)["user"]
        except SlackApiError:
            continue
        profile = user.get("profile") or {}
        name = " ".join(str(profile.get("real_name") or user.get("real_name") or profile.get("display_name")
                            or "").split())
        if name and not missing_in([("name", name)]):
            people[user_id] = name
    return {**record, "people": people}


def record_files(record: dict) -> list[dict]:
    """The JSON and the PDF of a case record, as `files_upload_v2` takes them."""
    case = record["case"]
    stem = f"recount-case-{case['id']}-record"
    data = json.dumps(record, indent=2, ensure_ascii=False).encode("utf-8")
    return [
        {"content": data, "filename": f"{stem}.json", "title": f"Recount case #{case['id']} record (JSON)"},
        {"content": case_record_pdf(record), "filename": f"{stem}.pdf",
         "title": f"Recount case #{case['id']} record (PDF)"},
    ]


def _comment(record: dict) -> str:
    case = record["case"]
    return (f":file_folder: The record of recount case #{case['id']}, *{esc(case['contest'])}* ({case['status']}): "
            f"every decision with its citation and the timeline from the audit log "
            f"({len(record['timeline'])} entries; {esc(record['audit_chain'])}). The JSON is for machines, the PDF "
            "for reading and printing.")


@SUBCOMMANDS.add("record", needs=Role.VIEWER, usage=USAGE, changes_state=False, deferred=True,
                 summary="The whole record of a recount case (timeline, numbers, each decision with its citation) "
                         "as JSON and PDF, sent to you directly (`here`: into this channel).")
def record_command(ix: Interaction, args: str) -> None:
    parts = split_args(args)
    if not parts:
        raise UserError(f"Say which case: `{USAGE}` (the case number is at the foot of its card).")
    here = len(parts) > 1 and parts[1].lower() == "here"
    if len(parts) > 2 or (len(parts) == 2 and not here):
        raise UserError(f"Usage: `{USAGE}`.")
    case_id = parse_case_number(parts[0])
    record = with_people(ix.client, build_case_record(ix.services, case_id=case_id,
                                                      workspace_id=ix.member.workspace_id))
    files, comment = record_files(record), outgoing(_comment(record))
    if here and ix.channel_id:
        try:
            ix.client.files_upload_v2(file_uploads=files, channel=ix.channel_id, initial_comment=comment)
            return
        except SlackApiError as exc:
            if exc.response.get("error") not in CHANNEL_REFUSED:
                raise
            ix.tell(":information_source: I am not in this channel (`/invite @recount-bot`); the record is in "
                    "your direct messages instead.")
    dm = ix.client.conversations_open(users=ix.user_id)["channel"]["id"]
    ix.client.files_upload_v2(file_uploads=files, channel=dm, initial_comment=comment)
    if ix.channel_id != dm:
        ix.tell(f"The record of case #{case_id} (JSON and PDF) is in your direct messages with me.")
