"""`/recount admin ...`: roles and office settings, for the designated election official."""
from __future__ import annotations

import datetime as dt
import logging
import re

from slack_sdk.errors import SlackApiError

from handlers.interaction import Interaction
from handlers.slack_text import channel_link, esc, mention, outgoing
from handlers.subcommands import SUBCOMMANDS, split_args
from rules.deadlines import CompletionRollover
from rules.laws import LAWS
from rules.laws.profile import Part
from rules.margin import MultiSeatRule
from services.documents.glyphs import ensure_printable
from services.errors import UserError
from services.office import access, conflicts
from services.office.office_settings import DEFAULT_OFFICIAL_TITLE
from services.wording import echoed
from storage.models import Role

log = logging.getLogger("recount_bot.admin")

USER = re.compile(r"^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$|^([UW][A-Z0-9]{2,})$")
# should_escape: Slack sends a channel picked while typing as <#C123|name>.
CHANNEL = re.compile(r"^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$|^([CG][A-Z0-9]{2,})$")
NO_CHANNEL = {"none", "off", "unset"}
# The signature line of the certificates of election (6): typed as the rest of the line, spaces and all.
SIGNER_SETTINGS = {"official-name": "official_name", "official-title": "official_title"}
SETTINGS = {
    "multi-seat-rule": ("multi_seat_rule", [r.value for r in MultiSeatRule]),
    "completion-rollover": ("completion_rollover", [r.value for r in CompletionRollover]),
}
USAGE = ("`/recount admin role @person official|staff|viewer|none` · `/recount admin roles` · "
         "`/recount admin setting multi-seat-rule last-winner-first-loser|top-two` · "
         "`/recount admin setting completion-rollover none|next-business-day` · "
         "`/recount admin setting approvals-channel #channel|none` (where recount requests are posted for approval) · "
         "`/recount admin setting official-name Full Name|none` and `/recount admin setting official-title Title|none` "
         "(the signature line of the certificates of election) · "
         "`/recount admin approver @person on|off` (a staff member who may approve or reject recount requests) · "
         "`/recount admin closed-day YYYY-MM-DD name of the day|off` (a day the governor or the president appointed "
         "as a holiday, C.R.S. 24-11-101(1)) · `/recount admin closed-days` · "
         "`/recount admin candidate @person \"Candidate name\" [\"Contest\"]|none` (this person is that candidate: "
         "they may not decide, complete or certify the contest's recount) · `/recount admin candidates`")


def _channel(token: str) -> str | None:
    """The channel id of `#channel` as Slack escapes it; None for `none`."""
    if token.lower() in NO_CHANNEL:
        return None
    match = CHANNEL.match(token)
    if not match:
        raise UserError(f"“{echoed(token)}” is not a channel: type # and pick the channel from Slack's list, like "
                        "`/recount admin setting approvals-channel #recount-approvals`.")
    return match.group(1) or match.group(2)


def _user(token: str) -> str:
    match = USER.match(token)
    if not match:
        raise UserError(f"“{echoed(token)}” is not a person: mention them, like @jane.")
    return match.group(1) or match.group(2)


@SUBCOMMANDS.add("admin", needs=Role.OFFICIAL, usage="/recount admin role|roles|setting|approver|closed-day|candidate ...",
                 summary="Roles (official, staff, viewer), approvers of recount requests and office settings.")
def admin_command(ix: Interaction, args: str) -> None:
    head, _, rest = args.strip().partition(" ")
    if head == "closed-day" and len(rest.split(None, 1)) == 2:  # the day's name as typed, apostrophes and all
        date_text, name = rest.split(None, 1)
        _closed_day(ix, date_text, name)
        return
    if head == "setting" and len(rest.split(None, 1)) == 2 and rest.split(None, 1)[0] in SIGNER_SETTINGS:
        key, value = rest.split(None, 1)
        _signer(ix, key, value)
        return
    words = split_args(args)
    if not words:
        raise UserError(USAGE)
    what = words[0].lower()
    if what == "roles":
        members = access.list_members(ix.services, ix.team_id)
        lines = [f"{mention(user)} — {role.value}" for user, role in members] or ["nobody yet"]
        settings = ix.member.settings
        approvers = access.approvers(ix.services, ix.team_id)
        channel = channel_link(settings.approvals_channel) if settings.approvals_channel else \
            "none (where `/recount request` is typed)"
        ix.tell("Roles in this office:\n" + "\n".join(lines) +
                "\nApprovers of recount requests besides the officials: " +
                (", ".join(mention(u) for u in approvers) or "none") +
                f"\nSettings: multi-seat-rule {settings.multi_seat_rule.value}; "
                f"completion-rollover {settings.completion_rollover.value}; approvals-channel {channel}; "
                f"certificates signed by {esc(settings.official_name or '(no name set)')}, "
                f"{esc(settings.official_title)}.")
        return
    if what == "role" and len(words) == 3:
        user = _user(words[1])
        wanted = words[2].lower()
        if wanted not in {r.value for r in Role} | {"none"}:
            raise UserError(f"“{echoed(words[2])}” is not a role: official, staff, viewer or none.")
        role = None if wanted == "none" else Role(wanted)
        before, after = access.set_role(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                        user_id=user, role=role)
        if before == after:
            ix.tell(f"{mention(user)} already has {after or 'no role'}; nothing changed.")
        else:
            ix.tell(f"{mention(user)}: {before or 'no role'} → {after or 'no role'}. Recorded in the audit log.")
        return
    if what == "approver" and len(words) == 3 and words[2].lower() in ("on", "off"):
        user = _user(words[1])
        before, after = access.set_approver(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                            user_id=user, on=words[2].lower() == "on")
        if before == after:
            ix.tell(f"{mention(user)} {'already' if after else 'is not'} an approver of recount requests; nothing "
                    "changed.")
        elif after:
            ix.tell(f"{mention(user)} may now approve or reject recount requests (never their own). Recorded in the "
                    "audit log.")
        else:
            ix.tell(f"{mention(user)} may no longer approve or reject recount requests. Recorded in the audit log.")
        return
    if what == "closed-days" and len(words) == 1:
        days = ix.member.settings.appointed_holidays
        ix.tell("Days appointed by the governor or the president (legal holidays, C.R.S. 24-11-101(1)): " +
                ("; ".join(f"{day:%a %Y-%m-%d} {esc(name)}" for day, name in sorted(days.items())) or "none") + ".")
        return
    if what == "candidate" and len(words) in (3, 4):
        _candidate(ix, _user(words[1]), words[2:])
        return
    if what == "candidates" and len(words) == 1:
        listed = conflicts.roster(ix.services, ix.team_id)
        ix.tell("Candidates' Slack users in this office (they may not decide, complete or certify their contest's "
                "recount):\n" + ("\n".join(f"{mention(c.user_id)} — {esc(c.choice)} in {esc(c.contest)}"
                                            for c in listed) or "none recorded"))
        return
    if what == "setting" and len(words) == 3 and words[1] == "approvals-channel":
        _approvals_channel(ix, _channel(words[2]))
        return
    if what == "setting" and len(words) == 3 and words[1] in SETTINGS:
        field, allowed = SETTINGS[words[1]]
        if words[2] not in allowed:
            raise UserError(f"{echoed(words[1])} must be one of: {', '.join(allowed)}.")
        settings = access.update_settings(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                          changes={field: words[2]})
        ix.tell(f"{words[1]} is now {getattr(settings, field).value}. Recorded in the audit log; it applies to "
                "checks and cases from now on.")
        return
    raise UserError(USAGE)


def _closed_day(ix: Interaction, date_text: str, name: str) -> None:
    """24-11-101(1): a day appointed by the governor or the president is a legal holiday; every deadline skips it."""
    try:
        day = dt.date.fromisoformat(date_text)
    except ValueError:
        raise UserError(f"“{echoed(date_text)}” is not a date: write it as YYYY-MM-DD, like "
                        "`/recount admin closed-day 2026-11-27 Day of prayer`.", field="date") from None
    remove = name.strip().lower() in NO_CHANNEL
    changed = access.set_appointed_holiday(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                           day=day, name=None if remove else name)
    if not changed:
        ix.tell(f"{day:%a %Y-%m-%d} is {'not' if remove else 'already'} entered as a day appointed by the governor "
                "or the president; nothing changed.")
    elif remove:
        ix.tell(f"{day:%a %Y-%m-%d} is no longer a day appointed by the governor or the president; deadlines count "
                "it as they would any day. Recorded in the audit log.")
    else:
        ix.tell(f"{day:%a %Y-%m-%d}, {esc(' '.join(name.split()))}: a legal holiday (C.R.S. 24-11-101(1)); deadlines "
                "that end on it run to the next business day (C.R.S. 1-13.5-107(2)). Recorded in the audit log; it "
                "applies to requests, checks and deadlines from now on.")


def _candidate(ix: Interaction, user: str, rest: list[str]) -> None:
    """The office's roster: `user` is the candidate `rest[0]` (in the contest `rest[1]`), or `none`."""
    if len(rest) == 1 and rest[0].lower() == "none":
        removed = conflicts.remove_candidate(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                             user_id=user)
        ix.tell(f"{mention(user)} is no longer recorded as a candidate ({removed} contest"
                f"{'s' if removed != 1 else ''}). Recorded in the audit log." if removed
                else f"{mention(user)} was not recorded as a candidate; nothing changed.")
        return
    candidacy, new = conflicts.record_candidate(ix.services, team_id=ix.team_id, actor=ix.user_id,
                                                actor_role=ix.role, user_id=user, choice=rest[0],
                                                contest=rest[1] if len(rest) > 1 else None)
    said = f"{mention(user)} is the candidate {esc(candidacy.choice)} in {esc(candidacy.contest)}"
    ix.tell(f"{said}: they are flagged on its cards and may not decide, complete or certify its recount. Recorded "
            "in the audit log." if new else f"{said} already; nothing changed.")


def _signer(ix: Interaction, key: str, value: str) -> None:
    """Who signs the certificates of election (6): the name and title printed on their signature line. A
    certificate keeps the line it was made with; the change applies to certificates made from now on."""
    field = SIGNER_SETTINGS[key]
    value = " ".join(value.split())
    cleared = value.lower() in NO_CHANNEL | {"default"}
    if cleared:
        new = None if field == "official_name" else DEFAULT_OFFICIAL_TITLE
    else:
        new = value
        ensure_printable([(f"the official's {key.split('-')[1]}", new)], what=f"The {key} “{echoed(new)}”",
                         consequence="Nothing changed.")
    if getattr(ix.member.settings, field) == new:
        ix.tell(f"{key} is already {esc(new) if new else 'unset'}; nothing changed.")
        return
    settings = access.update_settings(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                      changes={field: new})
    ix.tell(f"{key} is now {esc(getattr(settings, field)) if getattr(settings, field) else 'unset'}. The signature "
            f"line of the certificates of election made from now on reads: "
            f"{esc(settings.official_name + ', ' if settings.official_name else '')}{esc(settings.official_title)} "
            f"({every_law(Part.CERTIFICATE)}); certificates already made keep theirs. Recorded in the audit log.")


def _approvals_channel(ix: Interaction, channel: str | None) -> None:
    if channel == ix.member.settings.approvals_channel:
        ix.tell(f"approvals-channel is already {channel_link(channel) if channel else 'none'}; nothing changed.")
        return
    access.update_settings(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                           changes={"approvals_channel": channel})
    if channel is None:
        ix.tell("approvals-channel is now none: a recount request is posted where `/recount request` is typed (the "
                "shortcut then asks for a channel to be set). Recorded in the audit log.")
        return
    try:
        # Saying so in the channel also proves the bot can post there.
        ix.client.chat_postMessage(channel=channel, text=outgoing(
            f"Recount requests ({every_law(None)}) will be posted here for approval; set by "
            f"{mention(ix.user_id)}."))
    except SlackApiError as exc:
        error = exc.response.get("error")
        log.warning("cannot post in the approvals channel %s: %s", channel, error)
        ix.tell(f"approvals-channel is now {channel_link(channel)} (recorded in the audit log), but I cannot post "
                f"there ({esc(error)}): invite me with `/invite @recount-bot` in that channel, or requests will not "
                "reach it.")
        return
    ix.tell(f"approvals-channel is now {channel_link(channel)}: accepted recount requests are posted there for "
            "approval. Recorded in the audit log.")


def every_law(part: Part | None) -> str:
    """An office-wide setting reaches elections under every law: each law's provision for `part` (None: where it
    lets an interested party request a recount), "C.R.S. 1-13.5-1306(6); C.R.S. 31-10-1207(6); C.R.S. 1-11-103(1)"."""
    cited = [law.cite(part) if part is not None else law.requesting.provision.citation for law in LAWS.values()]
    return "; ".join(dict.fromkeys(cited))
