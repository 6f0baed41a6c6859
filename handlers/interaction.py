"""Turns a raw Bolt request into a typed `Interaction`, enforces the route's role, drops Slack
retries already handled, and is the one place errors become messages.

The app runs with `process_before_response=True`: a listener runs in the HTTP request's own thread
and Slack gets its answer when it returns. Slow work is *deferred*: the request thread only
acknowledges, and the work runs either as a Bolt lazy listener on the executor (tests, the sandbox) or,
given a `deferred_runner` (`serve`, `socket`), in a process of its own (bot/deferred/process.py), so an
acknowledgement never queues behind other requests' work nor waits on their interpreter lock
(benchmarks/ack_latency.py measures it). Everything that must
answer with content — a modal to open within the trigger's 3 seconds, field errors on a submitted
view — runs in the request thread.

Order: ack (commands, actions, shortcuts, events), resolve the member, de-duplicate, check the role,
run. View submissions are acknowledged by their handler, because the acknowledgement carries field
errors or the next view.
"""
from __future__ import annotations

import logging
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from slack_bolt import Ack, App, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy.exc import IntegrityError

from handlers.blocks.common import message_modal
from handlers.committed import failure_message, watching
from handlers.executors import CountingExecutor
from handlers.ids import Action, Block
from handlers.registry import ANYONE, Registry, Route, Surface
from handlers.slack_io.reading_child import ParseLimits
from handlers.slack_text import fallback, field_error, outgoing, said
from handlers.view_state import shown_blocks
from services.errors import Denied, UserError
from services.office import access
from services.office.access import Member
from services.services import Services
from services.wording import Message, joined
from storage.models import ProcessedDelivery, Role

log = logging.getLogger("recount_bot.handlers")
# Work a listener hands over with `Interaction.later`: it runs once the answer to Slack has gone.
AFTER_RESPONSE = CountingExecutor(ThreadPoolExecutor(max_workers=8, thread_name_prefix="after-response"))
# The listeners that are not deferred, off the request thread (see the module's doc). As many as `serve` has
# request threads: no more run at once than before, and no more database connections are wanted. When all are
# busy (a Slack that answers each call in 6 s), commands and clicks are still answered at once; a view
# submission waits for a thread.
LISTENERS = CountingExecutor(ThreadPoolExecutor(max_workers=16, thread_name_prefix="listener-run"))


def new_reference() -> str:
    """A short id shown to the user and written to the log with the traceback."""
    return secrets.token_hex(4).upper()


@dataclass
class Interaction:
    services: Services
    route: Route
    body: dict
    client: WebClient
    ack: Ack
    respond: Callable[..., Any] | None
    team_id: str
    user_id: str
    channel_id: str | None
    trigger_id: str | None
    member: Member | None = None
    extras: dict = field(default_factory=dict)
    after: list[Callable[[], None]] = field(default_factory=list)
    # How much reading an uploaded results file may take (handlers/slack_io/reading_child.py): the app's setting.
    parse_limits: ParseLimits = field(default_factory=ParseLimits)

    def later(self, work: Callable[[], None]) -> None:
        """Run `work` after Slack has its answer (a modal closes at once; announcing takes Slack calls)."""
        self.after.append(work)

    @property
    def role(self) -> Role | None:
        return self.member.role if self.member else None

    @property
    def acked(self) -> bool:
        return self.ack.response is not None

    def tell(self, text: str, blocks: list[dict] | None = None) -> None:
        """An ephemeral message to the person who acted, by the best route the payload offers. `text` is mrkdwn:
        what a person or a file named is escaped by the caller; it passes the escaping rule's gate here."""
        text = fallback(text) if blocks else outgoing(text)
        if self.respond is not None and self.body.get("response_url"):
            self.respond(text=text, blocks=blocks, response_type="ephemeral", replace_original=False)
        elif self.channel_id:
            try:
                self.client.chat_postEphemeral(channel=self.channel_id, user=self.user_id, text=text, blocks=blocks)
            except SlackApiError:
                self._dm(text, blocks)
        else:
            self._dm(text, blocks)

    def _dm(self, text: str, blocks: list[dict] | None) -> None:
        channel = self.client.conversations_open(users=self.user_id)["channel"]["id"]
        self.client.chat_postMessage(channel=channel, text=fallback(text) if blocks else outgoing(text), blocks=blocks)


def _ids(body: dict) -> tuple[str, str, str | None, str | None]:
    team = (body.get("team") or {}).get("id") or body.get("team_id") or (body.get("user") or {}).get("team_id") or ""
    user = (body.get("user") or {}).get("id") or body.get("user_id") or (body.get("event") or {}).get("user") or ""
    channel = (body.get("channel") or {}).get("id") or body.get("channel_id") or (body.get("event") or {}).get("channel")
    container = body.get("container") or {}
    channel = channel or container.get("channel_id")
    return team, user, channel, body.get("trigger_id")


def _delivery_key(body: dict) -> str | None:
    """The same delivery retried by Slack carries the same event_id or trigger_id."""
    if body.get("event_id"):
        return f"event:{body['event_id']}"
    if body.get("trigger_id"):
        return f"trigger:{body['trigger_id']}"
    return None


def _first_delivery(services: Services, key: str | None) -> bool:
    if key is None:
        return True
    try:
        with services.db.transaction() as session:
            session.add(ProcessedDelivery(key=key, received_at=services.now()))
        return True
    except IntegrityError:
        return False


def _slack_admin(client: WebClient, user_id: str) -> bool:
    try:
        user = client.users_info(user=user_id)["user"]
    except SlackApiError:
        return False
    return bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner"))


DENIED = ("You need the {needed} role to do this; you have {have}. A designated election official can grant it "
          "with `/recount admin role @you {needed}`.")


def _allowed(route: Route, member: Member) -> bool:
    if route.needs is ANYONE:
        return True
    return member.role is not None and member.role.allows(route.needs)


def resolve_member(ix: Interaction) -> Member:
    services = ix.services
    member = access.resolve_member(services, ix.team_id, ix.user_id)
    if not member.has_official and _slack_admin(ix.client, ix.user_id):
        # The first workspace admin or owner to use the bot (the installer, in practice) is its official.
        access.bootstrap_official(services, ix.team_id, ix.user_id, reason="first workspace admin to use recount-bot")
        # Read again whether or not this call won: a concurrent first request may have made them official.
        member = access.resolve_member(services, ix.team_id, ix.user_id)
    return member


def errors_on_fields(ix: Interaction, errors: Iterable[tuple[str | None, Message]]) -> None:
    """Refusals, each with the block it is about, shown under that block when the modal shows it. One about a
    block it does not show (or about none: None) is added to the first shown one; when none is shown, they are
    one refusal the error handler replaces the modal with. Nothing said is dropped."""
    shown = shown_blocks(ix.body.get("view") or {})
    placed: dict[str, Message] = {}
    rest: list[Message] = []
    for block_id, message in errors:
        if block_id in shown:
            placed[block_id] = joined([placed[block_id], message], " ") if block_id in placed else message
        else:
            rest.append(message)
    if not placed:
        raise UserError(joined(rest, " "))
    if rest:
        first = next(iter(placed))
        placed[first] = joined([placed[first], *rest], " ")
    ix.ack(response_action="errors", errors=placed)


def field_errors(ix: Interaction, exc: UserError, fields: Mapping[str, Block | str]) -> None:
    """A refusal on a field the modal shows (`fields`: the service's field name -> its block) goes on that field,
    in plain words; any other refusal goes to the error handler, which replaces the modal with it."""
    block = fields.get(exc.field or "")
    block_id = block.value if isinstance(block, Block) else block
    if block_id is None or block_id not in shown_blocks(ix.body.get("view") or {}):
        raise exc
    ix.ack(response_action="errors", errors={block_id: exc.words})


def _fail(ix: Interaction, message: str) -> None:
    if ix.route.surface is Surface.VIEW and not ix.acked:
        ix.ack(response_action="update", view=message_modal("Recount", message))
    elif ix.route.surface is not Surface.EVENT:
        ix.tell(message)


def _run_after(ix: Interaction) -> None:
    for work in ix.after:
        recorded: list[str] = []
        try:
            with watching() as recorded:
                work()
        except Exception as exc:
            reference = new_reference()
            log.exception("work after %s failed; reference %s", ix.route.label, reference)
            try:  # what the listener and this work recorded decides what the person is told
                ix.tell(failure_message(reference, ix.extras.get("recorded", []) + recorded, exc))
            except Exception:
                log.exception("could not tell the user about reference %s", reference)


# Acknowledged empty before their listener runs: what they answer comes later, in Slack.
ACK_FIRST = (Surface.COMMAND, Surface.ACTION, Surface.SHORTCUT, Surface.EVENT, Surface.VIEW_CLOSED)
# A Slack id, as the request gate takes one (bot/web/request_gate.py).
_SLACK_ID = re.compile(r"[A-Za-z0-9]{1,32}", re.ASCII)
# What recount-bot puts in a button's value (handlers/blocks/common.button): a row's id, or two ("case:entry"),
# within what an INTEGER column holds; one button's value is a word (ID_FREE).
_ID_VALUE = re.compile(r"([1-9][0-9]{0,9})(?::([1-9][0-9]{0,9}))?", re.ASCII)
MAX_ID = 2**31 - 1
ID_FREE = frozenset({Action.RETURNS_UPLOAD_OPEN.value, Action.RETURNS_UPLOAD_BACK.value})
_ID_VALUED = frozenset(action.value for action in Action) - ID_FREE
# A select menu's option value recount-bot makes (handlers/blocks): an id, an index, or a word ("new").
_OPTION_VALUE = re.compile(r"[A-Za-z0-9_.:-]{1,64}", re.ASCII)


def _shown(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def refusal(route: Route, body: dict, user_id: str) -> str | None:
    """Why a delivery, signed and well formed, cannot be one Slack sends when a person uses recount-bot: no person
    (an `app_home_opened` without a user), or a click on a button whose value is not an id recount-bot put there.
    None when nothing is wrong. Refused deliveries do nothing: one log line, no traceback, nothing written."""
    if not isinstance(user_id, str) or not _SLACK_ID.fullmatch(user_id):
        return "it names no user" if not user_id else f"its user {_shown(user_id)} is not a Slack id"
    if route.surface is not Surface.ACTION:
        return None
    action = (body.get("actions") or [{}])[0]
    if route.key in _ID_VALUED:
        value = action.get("value")
        match = _ID_VALUE.fullmatch(value) if isinstance(value, str) else None
        if match is None or any(int(n) > MAX_ID for n in match.groups() if n):
            return f"its button value {_shown(value)} is not an id recount-bot put on that button"
    elif isinstance(action.get("selected_option"), dict):
        value = action["selected_option"].get("value")
        if not (isinstance(value, str) and _OPTION_VALUE.fullmatch(value)) or (value.isdigit() and int(value) > MAX_ID):
            return f"its chosen option's value {_shown(value)} is not one recount-bot offered"
    return None


def run_route(ix: Interaction) -> None:
    """Everything around a listener: role, de-duplication, and the one error handler."""
    route = ix.route
    recorded: list[str] = []  # the audit rows the listener committed: "nothing was saved" only when none
    try:
        if route.surface in ACK_FIRST and not ix.acked:
            ix.ack()
        refused = refusal(route, ix.body, ix.user_id)
        if refused is not None:
            log.warning("refused %s from workspace %s: %s; reference %s", route.label, _shown(ix.team_id), refused,
                        new_reference())
            return
        ix.member = resolve_member(ix)
        if not _allowed(route, ix.member):
            have = ix.member.role.value if ix.member.role else "no role"
            raise Denied(DENIED.format(needed=route.needs.value, have=have))
        if not _first_delivery(ix.services, _delivery_key(ix.body)):
            log.info("skipping a delivery already handled: %s", _delivery_key(ix.body))
            if not ix.acked:
                ix.ack()
            return
        with watching() as recorded:
            ix.extras["recorded"] = recorded
            route.func(ix)
    except UserError as exc:
        _fail(ix, said(exc.words))
    except Exception as exc:
        reference = new_reference()
        log.exception("listener %s failed; reference %s", route.label, reference)
        try:
            _fail(ix, failure_message(reference, recorded, exc))
        except Exception:
            log.exception("could not tell the user about reference %s", reference)
    finally:
        if route.surface is Surface.VIEW and not ix.acked:
            ix.ack()
        if ix.after:
            AFTER_RESPONSE.submit(_run_after, ix)


# Hands a deferred route's body to another process: (route label, body). Must not block.
DeferredRunner = Callable[[str, dict], None]


def register_routes(app: App, registry: Registry, services: Services,
                    deferred_runner: DeferredRunner | None = None, parse_limits: ParseLimits | None = None) -> None:
    """Register each declared route with Bolt through `run_route`; `parse_limits` bound an upload's reading."""
    registry.validate()
    for route in registry.routes:
        register = {
            Surface.COMMAND: app.command, Surface.ACTION: app.action, Surface.VIEW: app.view_submission,
            Surface.VIEW_CLOSED: app.view_closed, Surface.SHORTCUT: app.shortcut, Surface.EVENT: app.event,
        }[route.surface]
        in_request, deferred_work = _listeners_for(route, services, deferred_runner, parse_limits)
        # With a runner, deferred work leaves this process: no lazy listener.
        register(route.key)(ack=in_request, lazy=[] if deferred_runner else [deferred_work])


def run_deferred(services: Services, route: Route, body: dict, client: WebClient, respond) -> None:
    """A deferred route's work, wherever it runs: Slack has had its answer already."""
    run_route(_interaction(services, route, _AlreadyAcked(), body, client, respond))


def _interaction(services: Services, route: Route, ack, body, client, respond,
                 parse_limits: ParseLimits | None = None) -> Interaction:
    team, user, channel, trigger = _ids(body)
    return Interaction(services=services, route=route, body=body, client=client, ack=_EscapingAck(ack),
                       respond=respond, team_id=team, user_id=user, channel_id=channel, trigger_id=trigger,
                       parse_limits=parse_limits or ParseLimits())


class _EscapingAck:
    """Bolt's ack, with the escaping rule (handlers/slack_text.py) applied to what it carries: a text passes the gate,
    field errors are plain text (mrkdwn turned back into what was typed, bounded). Views carry their own
    escaping (handlers/blocks/common.py). `answered` is set once Bolt holds the answer."""

    def __init__(self, ack) -> None:
        self._ack = ack
        self.answered = threading.Event()

    @property
    def response(self):
        return self._ack.response

    def __call__(self, *args, **kwargs):
        if isinstance(kwargs.get("text"), str):
            kwargs["text"] = outgoing(kwargs["text"])
        if kwargs.get("response_action") == "errors" and isinstance(kwargs.get("errors"), dict):
            kwargs["errors"] = {block: field_error(message) for block, message in kwargs["errors"].items()}
        try:
            return self._ack(*args, **kwargs)
        finally:
            self.answered.set()


class _AlreadyAcked:
    """The ack of a deferred run: Slack was answered by the request thread already."""

    response = True

    def __call__(self, *args, **kwargs) -> None:
        return None


def _answer_then_run(ix: Interaction) -> None:
    """In the request thread: set Slack's answer, run the listener on LISTENERS, and return once the answer is set
    (see the module's doc), whatever the listener then waits for."""
    if ix.route.surface in ACK_FIRST:
        ix.ack()
        LISTENERS.submit(run_route, ix)
        return
    answered = ix.ack.answered
    LISTENERS.submit(run_route, ix).add_done_callback(lambda _: answered.set())
    answered.wait()


def _listeners_for(route: Route, services: Services, runner: DeferredRunner | None,
                   parse_limits: ParseLimits | None = None) -> tuple[Callable[..., None], Callable[..., None]]:
    # Closures, not default arguments: Bolt injects every named parameter (unknown names as None).
    def in_request(ack, body, client, respond):
        if not route.deferred(body):
            _answer_then_run(_interaction(services, route, ack, body, client, respond, parse_limits))
            return
        if runner is not None:  # `deferred_work` is not registered: hand the body over
            try:
                runner(route.label, body)
            except Exception:
                reference = new_reference()
                log.exception("could not hand %s to the deferred-work process; reference %s", route.label,
                              reference)
                ack(text=f":warning: Something went wrong and nothing was done. Reference: *{reference}*.")
                return
        ack()  # answer Slack now; `deferred_work` or the runner does the rest

    def deferred_work(body, client, respond):
        if route.deferred(body):
            run_deferred(services, route, body, client, respond)

    slug = re.sub(r"\W+", "_", route.label)
    in_request.__name__, deferred_work.__name__ = f"ack_{slug}", f"work_{slug}"
    return in_request, deferred_work


def global_error_handler(error: Exception, body: dict, logger: logging.Logger) -> BoltResponse:
    """Errors outside our listeners (Bolt middleware): logged with a reference, never a traceback to Slack."""
    reference = new_reference()
    logger.error("unhandled error; reference %s", reference, exc_info=error)
    return BoltResponse(status=500, body="")
