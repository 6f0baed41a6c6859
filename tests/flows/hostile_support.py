"""Hostile names, and the check that walks every Web API call the bot made for a control sequence it did not mean.

A hostile name carries every control sequence Slack reads in message text: broadcasts (`<!channel>`, `<!here>`,
`<!everyone>`, `<!subteam^…>`), a mention of a person (`<@U…>`) and a channel (`<#C…>`) that are nobody's in the
workspace, links (`<https://…|…>`, `<mailto:…>`) and Slack's bare control characters (`&`, `<`, `>`).

`walk_calls` walks what Slack parses in every call — its `text` (a fallback included), a file's
`initial_comment`, every mrkdwn text object in its blocks or view — and reports any control sequence the bot did
not make (allowed: a mention of a person of the workspace, a link to one of its channels, a link to Slack's own
permalinks or to the bot's certificate links; `<!…>` never), a bare `<` or `&` outside an entity or such a
sequence, and a `>` opening a line (a quote); and any text over Slack's limits. plain_text objects are shown
by Slack as they are: they must hold no entity (an escaped name there would read "&lt;"). Field errors of a
view submission are plain text too: no entity, and bounded.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

from handlers.slack_text import ERROR_LIMIT, FALLBACK_LIMIT, TEXT_LIMIT
from sandbox.slack_standin.server import RecordedCall
from services.public_url import public_base_url

EVIL_USER, EVIL_CHANNEL = "U0EVIL0001", "C0EVIL0001"  # ids a name carries: nobody and nothing in the workspace
SEQUENCES = ("<!channel>", "<!here>", f"<@{EVIL_USER}>", f"<#{EVIL_CHANNEL}>", "<https://evil.example|x>",
             "<!subteam^S0EVIL|t>", "&", "<", ">", "<!everyone>", "<mailto:a@evil.example|m>", "<@W0EVIL0002|b>")
# Every hostile name carries at least these: they show whether a name was escaped wherever it went.
MARK = "<!channel>"
ESCAPED_MARK = "&lt;!channel&gt;"


def hostile(tag: str, limit: int = 100) -> str:
    """A name made of `tag` and as many control sequences as fit in `limit` characters (the field's own limit)."""
    name = f"{tag} "
    for sequence in SEQUENCES:
        if len(name) + len(sequence) <= limit:
            name += sequence
    assert MARK in name and len(name) <= limit, name
    return name


_SEQUENCE = re.compile(r"<([^<>]*)>")
_ENTITY = re.compile(r"&(amp|lt|gt);")


@dataclass
class Walk:
    """What the walk found: problems (where, what) and the calls and texts it looked at."""

    problems: list[str] = field(default_factory=list)
    calls: Counter = field(default_factory=Counter)  # method -> calls walked
    texts: int = 0
    escaped_names: int = 0  # texts holding a hostile name, escaped

    def distinct(self) -> int:
        return len(self.calls)


class Allowed:
    """What the bot may make: mentions of the workspace's people, links to its channels, Slack's permalinks
    and the bot's own certificate and observers' links."""

    def __init__(self, users: set[str], channels: set[str], team_domain: str) -> None:
        self.users, self.channels = users, channels
        base = public_base_url().rstrip("/")
        self.links = (f"https://{team_domain}.slack.com/", base + "/certificates/", base + "/observe/")

    def sequence(self, inner: str) -> bool:
        target = inner.partition("|")[0]
        if target.startswith("@"):
            return target[1:] in self.users
        if target.startswith("#"):
            return target[1:] in self.channels
        return target.startswith(self.links)


def mrkdwn_problems(text: str, allowed: Allowed) -> list[str]:
    """Control sequences in a text Slack parses that the bot did not make."""
    problems = []
    rest = []
    last = 0
    for match in _SEQUENCE.finditer(text):
        rest.append(text[last:match.start()])
        last = match.end()
        if not allowed.sequence(match.group(1)):
            problems.append(f"control sequence <{match.group(1)}>")
        elif "<" in match.group(1) or ">" in match.group(1):
            problems.append(f"a bare < or > inside <{match.group(1)}>")
    rest.append(text[last:])
    outside = _ENTITY.sub("", "".join(rest))
    for char in "&<":
        if char in outside:
            problems.append(f"a bare {char!r}")
    if re.search(r"(?m)^\s*>", text):  # a quote Slack would make of a line
        problems.append("a '>' opening a line")
    return problems


def _text_objects(node: Any, path: str) -> Iterator[tuple[str, str, str]]:
    """(path, type, text) of every text object in blocks or a view."""
    if isinstance(node, dict):
        if node.get("type") in ("mrkdwn", "plain_text") and isinstance(node.get("text"), str):
            yield path, node["type"], node["text"]
        for key, value in node.items():
            yield from _text_objects(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _text_objects(value, f"{path}/{index}")


def _decoded(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def walk_call(method: str, args: dict, allowed: Allowed, walk: Walk) -> None:
    """Check one call (or one answer to Slack carrying a view) against the rule."""
    walk.calls[method] += 1
    blocks = _decoded(args.get("blocks"))
    for key in ("text", "initial_comment"):
        value = args.get(key)
        if not isinstance(value, str):
            continue
        walk.texts += 1
        limit = FALLBACK_LIMIT if (key == "text" and blocks) else TEXT_LIMIT
        where = f"{method} {key}"
        walk.problems += [f"{where}: {p}: {value[:300]!r}" for p in mrkdwn_problems(value, allowed)]
        if len(value) > limit:
            walk.problems.append(f"{where}: {len(value):,} characters, over {limit:,}")
        walk.escaped_names += ESCAPED_MARK in value
    for key in ("blocks", "view", "files"):
        node = _decoded(args.get(key))
        for path, kind, text in _text_objects(node, key):
            walk.texts += 1
            where = f"{method} {path}"
            if kind == "mrkdwn":
                walk.problems += [f"{where}: {p}: {text[:300]!r}" for p in mrkdwn_problems(text, allowed)]
                walk.escaped_names += ESCAPED_MARK in text
            elif _ENTITY.search(text):
                walk.problems.append(f"{where}: an entity in plain_text, shown to people as typed: {text[:300]!r}")


def walk_calls(calls: list[RecordedCall], answers: list[dict], allowed: Allowed) -> Walk:
    """Every Web API call (and response_url post) recorded, and every answer to Slack that carries a view."""
    walk = Walk()
    for call in calls:
        walk_call(call.method, call.args, allowed, walk)
    for answer in answers:
        if isinstance(answer.get("view"), dict):
            walk_call("view_submission answer", {"view": answer["view"]}, allowed, walk)
        if isinstance(answer.get("text"), str):
            walk_call("acknowledgement", {"text": answer["text"]}, allowed, walk)
        for block, message in (answer.get("errors") or {}).items():
            # A field error is shown as plain text: what was typed, never an entity, and bounded.
            walk.calls["view_submission errors"] += 1
            if _ENTITY.search(message) or len(message) > ERROR_LIMIT:
                walk.problems.append(f"field error on {block}: {len(message):,} characters: {message[:300]!r}")
    return walk


# ---------------------------------------------------------------- a hostile election, people and checks
AUTO = hostile("Water A", 75)   # a candidate race inside the margin: an automatic recount
ISSUE = hostile("Issue B", 75)  # a ballot question inside the margin: an automatic recount with a committee
METRO = hostile("Metro C", 75)  # a candidate race far apart: a requested recount
CHOICES = {AUTO: (hostile("Ann", 75), hostile("Bob", 75)), ISSUE: (hostile("Yes", 75), hostile("No", 75)),
           METRO: (hostile("Cy", 75), hostile("Di", 75))}
UNITS = (hostile("P1", 75), hostile("P2", 75))
VOTES = {AUTO: ((500, 499), (500, 500)), ISSUE: ((700, 699), (650, 650)), METRO: ((845, 611), (702, 590))}
ELECTION, GOVERNMENT, BOARD = hostile("Election", 300), hostile("Gov", 300), hostile("Board", 300)
SOURCE = hostile("file", 200) + ".csv"
MALLORY = "U0MALLORY1"  # an official whose Slack profile name is hostile: letters carry it
APPROVALS = "C0APPROVAL"


def returns_csv() -> bytes:
    rows = [["contest", "choice", "votes", "seats", "kind", "unit"]]
    for contest, per_unit in VOTES.items():
        kind = "question" if contest == ISSUE else "candidate"
        for unit, votes in zip(UNITS, per_unit):
            rows += [[contest, choice, str(v), "1", kind, unit] for choice, v in zip(CHOICES[contest], votes)]
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def hostile_office(harness) -> None:
    """The hostile election imported, Dana the official, Sam staff, Mallory (hostile profile name) official, the
    approvals channel set; every answer to Slack recorded for the walk."""
    from rules.returns import parse_returns
    from services.office import access
    from services.returns.versions import import_returns
    from tests.support.slack_app import OFFICIAL, STAFF, TEAM, VIEWER

    answers: list[dict] = []
    post = harness.post

    def recording(*args, **kwargs):
        reply = post(*args, **kwargs)
        try:
            body = reply.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            answers.append(body)
        return reply

    harness.post, harness.answers = recording, answers
    harness.slack.state.add_user(MALLORY, name="mallory", real_name=hostile("Mallory", 200))
    harness.slack.state.add_channel(APPROVALS, "approvals")
    data = returns_csv()
    import_returns(harness.services, team_id=TEAM, returns=parse_returns(data), election_name=ELECTION,
                   election_date=dt.date(2026, 11, 3), local_government=GOVERNMENT, governing_body=BOARD,
                   source_name=SOURCE, source_bytes=data, actor="test")
    access.bootstrap_official(harness.services, TEAM, OFFICIAL, reason="test")
    for user, role in ((STAFF, access.Role.STAFF), (VIEWER, access.Role.VIEWER), (MALLORY, access.Role.OFFICIAL)):
        access.set_role(harness.services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL,
                        user_id=user, role=role)


def walk_everything(harness) -> Walk:
    """Walk every call the bot made and every answer it gave Slack; fail on anything the rule forbids."""
    from tests.support.slack_app import CHANNEL, USERS

    harness.settle()
    ims = {cid for cid, info in harness.slack.state.channels().items() if info.get("is_im")}
    allowed = Allowed(users={u["id"] for u in USERS} | {MALLORY}, channels={CHANNEL, APPROVALS} | ims,
                      team_domain=harness.slack.state.workspace.team_domain)
    walk = walk_calls(harness.slack.calls, getattr(harness, "answers", []), allowed)
    assert not walk.problems, f"{len(walk.problems)} unescaped in Slack text:\n" + "\n".join(walk.problems[:40])
    assert walk.escaped_names, "no hostile name reached Slack: the flow did not run"
    # The figures of the walk (shown with `pytest -s`).
    print(f"\nhostile walk: {sum(walk.calls.values())} calls and answers, {walk.distinct()} distinct kinds "
          f"({', '.join(f'{m} {n}' for m, n in sorted(walk.calls.items()))}); {walk.texts} texts; "
          f"{walk.escaped_names} carrying an escaped hostile name")
    return walk


def enter_sheet(harness, case_id: int, contest: str, *, user: str, sheet_id: str, unit: str,
                votes: tuple[int, ...]) -> None:
    """`/recount tally N`, the sheet's form filled in by the choices' labels (hostile names) as a clerk reads them."""
    from tests.flows.test_conduct_flow import number, open_by_command, select_, submit, text, unit_index

    view = open_by_command(harness, f"tally {case_id}", user=user)
    labels = {b["label"]["text"]: b["block_id"] for b in view["blocks"] if b["type"] == "input"}
    [unit_block] = [b for b in labels.values() if b.startswith("tally.unit.")]
    counts = {labels[choice]: number(str(v)) for choice, v in zip(CHOICES[contest], votes)}
    submit(harness, view, {"tally.sheet_id": text(sheet_id), unit_block: select_(unit_index(view, unit)), **counts},
           user=user)
