"""Web API methods: decoded arguments in, the `ok: true` part of Slack's response out (SlackError otherwise).

Each handler checks its arguments the way Slack does, then asks the state to act. Handlers run on server threads;
the state does its own locking.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import SlackError, arguments_error
from .state import StandInState
from .validation import check_message_content, check_view

Handler = Callable[[StandInState, dict[str, Any]], dict[str, Any]]
METHODS: dict[str, Handler] = {}
NO_AUTH_METHODS = frozenset({"api.test"})
#: Arguments Slack takes as JSON; form-encoded clients send them as JSON strings.
JSON_FIELDS = frozenset({"blocks", "attachments", "view", "files", "metadata", "user_auth_blocks", "unfurls"})
_CONTENT_KEYS = ("text", "blocks", "attachments", "metadata", "username", "icon_emoji", "icon_url")


def method(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        METHODS[name] = fn
        return fn

    return register


def truthy(value: Any) -> bool:
    return value is True or (isinstance(value, (int, str)) and str(value).lower() in ("1", "true"))


def _content(a: dict[str, Any]) -> dict[str, Any]:
    return {k: a.get(k) for k in _CONTENT_KEYS if a.get(k) is not None}


def _require(a: dict[str, Any], field: str) -> Any:
    if a.get(field) in (None, ""):
        raise arguments_error(f"missing required field: {field} [json-pointer:/]")
    return a[field]


# --------------------------------------------------------------------------- auth / api
@method("api.test")
def api_test(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    return {"args": a} if a else {}


@method("auth.test")
def auth_test(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    ws = st.workspace
    return {"url": f"https://{ws.team_domain}.slack.com/", "team": ws.team_name, "user": ws.bot_name,
            "team_id": ws.team_id, "user_id": ws.bot_user_id, "bot_id": ws.bot_id, "is_enterprise_install": False}


# --------------------------------------------------------------------------- chat
@method("chat.postMessage")
def chat_post_message(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel"):
        raise SlackError("channel_not_found")
    check_message_content(a)
    cid, msg = st.post_message(a["channel"], thread_ts=a.get("thread_ts") or None,
                               reply_broadcast=truthy(a.get("reply_broadcast")), **_content(a))
    return {"channel": cid, "ts": msg["ts"], "message": msg}


@method("chat.update")
def chat_update(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel"):
        raise SlackError("channel_not_found")
    if not a.get("ts"):
        raise SlackError("message_not_found")
    check_message_content(a)
    cid, msg = st.update_message(a["channel"], a["ts"], **_content(a))
    return {"channel": cid, "ts": msg["ts"], "text": msg.get("text", ""), "message": msg}


@method("chat.postEphemeral")
def chat_post_ephemeral(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel"):
        raise SlackError("channel_not_found")
    if not a.get("user"):
        raise SlackError("user_not_found")
    check_message_content(a)
    _, msg = st.post_ephemeral(a["channel"], a["user"], thread_ts=a.get("thread_ts") or None, **_content(a))
    return {"message_ts": msg["ts"]}


@method("chat.delete")
def chat_delete(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel"):
        raise SlackError("channel_not_found")
    if not a.get("ts"):
        raise SlackError("message_not_found")
    return {"channel": st.delete_message(a["channel"], a["ts"]), "ts": a["ts"]}


@method("chat.getPermalink")
def chat_get_permalink(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel"):
        raise SlackError("channel_not_found")
    cid, link = st.permalink(a["channel"], a.get("message_ts"))
    return {"channel": cid, "permalink": link}


# --------------------------------------------------------------------------- conversations, users, reactions
@method("conversations.open")
def conversations_open(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if a.get("channel"):
        info, existed = st.channel_info(a["channel"]), True
    else:
        users = a.get("users")
        users = users.split(",") if isinstance(users, str) else list(users or [])
        users = [u.strip() for u in users if u and u.strip()]
        if not users:
            raise SlackError("users_list_not_supplied")
        if len(users) > 8:
            raise SlackError("too_many_users")
        info, existed = st.open_conversation(users)
    body: dict[str, Any] = {"channel": info if truthy(a.get("return_im")) else {"id": info["id"]}}
    if existed:
        body.update({"no_op": True, "already_open": True})
    return body


@method("conversations.info")
def conversations_info(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    return {"channel": st.channel_info(a.get("channel"))}


def _window_args(a: dict[str, Any]) -> dict[str, Any]:
    return {"oldest": a.get("oldest"), "latest": a.get("latest"), "inclusive": truthy(a.get("inclusive")),
            "limit": a.get("limit"), "cursor": a.get("cursor"),
            "include_all_metadata": truthy(a.get("include_all_metadata"))}


@method("conversations.history")
def conversations_history(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    return st.history(a.get("channel"), **_window_args(a))


@method("conversations.replies")
def conversations_replies(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("ts"):
        raise SlackError("thread_not_found")
    return st.replies(a.get("channel"), a["ts"], **_window_args(a))


@method("users.info")
def users_info(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    return {"user": st.user_info(a.get("user"))}


@method("reactions.add")
def reactions_add(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    if not a.get("channel") or not a.get("timestamp"):
        raise SlackError("no_item_specified")
    st.add_reaction(a["channel"], a["timestamp"], a.get("name"))
    return {}


# --------------------------------------------------------------------------- views
def _trigger(a: dict[str, Any]) -> Any:
    return a.get("trigger_id") or a.get("interactivity_pointer")


@method("views.open")
def views_open(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    check_view(a.get("view"), expect="modal")
    return {"view": st.open_view(_trigger(a), a["view"])}


@method("views.push")
def views_push(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    check_view(a.get("view"), expect="modal")
    return {"view": st.push_view(_trigger(a), a["view"])}


@method("views.update")
def views_update(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    surface = st.surface_of(a.get("view_id"), a.get("external_id"))
    check_view(a.get("view"), expect=surface)
    return {"view": st.update_view(a["view"], view_id=a.get("view_id"), external_id=a.get("external_id"),
                                   hash=a.get("hash"))}


@method("views.publish")
def views_publish(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    user_id = _require(a, "user_id")
    check_view(a.get("view"), expect="home")
    return {"view": st.publish_home(user_id, a["view"], hash=a.get("hash"))}


# --------------------------------------------------------------------------- files
@method("files.getUploadURLExternal")
def files_get_upload_url_external(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    filename = _require(a, "filename")
    try:
        length = int(_require(a, "length"))
    except (TypeError, ValueError):
        raise arguments_error("must be an integer [json-pointer:/length]") from None
    if length < 1:
        raise arguments_error("must be greater than 0 [json-pointer:/length]")
    fid, token = st.reserve_upload(str(filename), length, alt_txt=a.get("alt_txt"),
                                   snippet_type=a.get("snippet_type"))
    return {"upload_url": f"{st.files_root}/upload/v1/{token}", "file_id": fid}


@method("files.info")
def files_info(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    file = st.file_info(_require(a, "file"))
    return {"file": file, "content": "", "is_truncated": False, "comments": [],
            "response_metadata": {"next_cursor": ""}}


@method("files.completeUploadExternal")
def files_complete_upload_external(st: StandInState, a: dict[str, Any]) -> dict[str, Any]:
    files = _require(a, "files")
    if not isinstance(files, list) or not files:
        raise arguments_error("must be a non-empty array [json-pointer:/files]")
    channels = a.get("channels")
    channels = channels.split(",") if isinstance(channels, str) else list(channels or [])
    channel = a.get("channel_id") or (channels[0].strip() if channels else None)
    return {"files": st.complete_uploads(files, channel_id=channel, initial_comment=a.get("initial_comment"),
                                         thread_ts=a.get("thread_ts") or None)}
