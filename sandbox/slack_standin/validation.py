"""Block Kit and view validation in Slack's own words.

Slack reports schema problems as lines like ``must be less than 25 characters [json-pointer:/view/title/text]``
or ``no more than 50 items allowed [json-pointer:/blocks]``. The documented limits that bite a bot in production
are checked here explicitly with Slack's wording; `slack_sdk.models` then serves as a backstop for the rest of a
block's shape (its messages are the SDK's, wrapped in Slack's pointer format).
"""
from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block

from .errors import SlackError, arguments_error, blocks_error

MESSAGE_MAX_BLOCKS = 50
VIEW_MAX_BLOCKS = 100
VIEW_TEXT_MAX = 24  # title, submit, close
PRIVATE_METADATA_MAX = 3000
SECTION_TEXT_MAX = 3000
SECTION_FIELD_MAX = 2000
SECTION_FIELDS_MAX_ITEMS = 10
HEADER_TEXT_MAX = 150
BLOCK_ID_MAX = 255
ID_MAX = 255  # callback_id, external_id
ACTIONS_MAX_ELEMENTS = 25
CONTEXT_MAX_ELEMENTS = 10
INPUT_LABEL_MAX = 2000
MESSAGE_TEXT_MAX = 40000

KNOWN_BLOCK_TYPES = frozenset({
    "actions", "context", "divider", "file", "header", "image", "input", "markdown", "rich_text", "section",
    "table", "video",
})
TEXT_TYPES = frozenset({"plain_text", "mrkdwn"})


def _schema(ptr: str) -> str:
    return f"failed to match all allowed schemas [json-pointer:{ptr}]"


def _too_long(ptr: str, limit: int) -> str:
    return f"must be less than {limit + 1} characters [json-pointer:{ptr}]"


def _too_many(ptr: str, limit: int) -> str:
    return f"no more than {limit} items allowed [json-pointer:{ptr}]"


def _missing(field: str, ptr: str) -> str:
    return f"missing required field: {field} [json-pointer:{ptr}]"


def text_object_errors(obj: Any, ptr: str, limit: int, *, plain_only: bool = False) -> list[str]:
    """A composition text object: {"type": "plain_text"|"mrkdwn", "text": "..."} no longer than `limit`."""
    if not isinstance(obj, dict):
        return [_schema(ptr)]
    allowed = {"plain_text"} if plain_only else TEXT_TYPES
    if obj.get("type") not in allowed:
        return [_schema(ptr), f"must be one of {sorted(allowed)} [json-pointer:{ptr}/type]"]
    text = obj.get("text")
    if not isinstance(text, str):
        return [_schema(ptr), _missing("text", ptr)]
    if len(text) > limit:
        return [_schema(ptr), _too_long(f"{ptr}/text", limit)]
    return []


def _elements_count(block: dict, ptr: str, limit: int) -> list[str]:
    elements = block.get("elements")
    if not isinstance(elements, list):
        return [_missing("elements", ptr)]
    return [_too_many(f"{ptr}/elements", limit)] if len(elements) > limit else []


def _block_specific_errors(block: dict, ptr: str) -> list[str]:
    kind = block["type"]
    errors: list[str] = []
    if kind == "section":
        if "text" not in block and "fields" not in block:
            errors.append(_missing("text", ptr))
        if "text" in block:
            errors += text_object_errors(block["text"], f"{ptr}/text", SECTION_TEXT_MAX)
        fields = block.get("fields")
        if fields is not None:
            if not isinstance(fields, list):
                errors.append(_schema(f"{ptr}/fields"))
            elif len(fields) > SECTION_FIELDS_MAX_ITEMS:
                errors.append(_too_many(f"{ptr}/fields", SECTION_FIELDS_MAX_ITEMS))
            else:
                for j, field in enumerate(fields):
                    errors += text_object_errors(field, f"{ptr}/fields/{j}", SECTION_FIELD_MAX)
    elif kind == "header":
        errors += text_object_errors(block.get("text"), f"{ptr}/text", HEADER_TEXT_MAX, plain_only=True)
    elif kind == "actions":
        errors += _elements_count(block, ptr, ACTIONS_MAX_ELEMENTS)
    elif kind == "context":
        errors += _elements_count(block, ptr, CONTEXT_MAX_ELEMENTS)
    elif kind == "input":
        errors += text_object_errors(block.get("label"), f"{ptr}/label", INPUT_LABEL_MAX, plain_only=True)
        if not isinstance(block.get("element"), dict):
            errors.append(_missing("element", ptr))
    return errors


def _sdk_backstop(block: dict, ptr: str) -> list[str]:
    try:
        parsed = Block.parse(block)
        if parsed is None:
            return [_schema(ptr)]
        parsed.validate_json()
    except SlackObjectFormationError as exc:
        return [_schema(ptr), f"{exc} [json-pointer:{ptr}]"]
    except (TypeError, ValueError, KeyError, AttributeError):
        return [_schema(ptr)]
    return []


def block_errors(blocks: Any, ptr: str, max_items: int) -> list[str]:
    """Every problem found in a `blocks` array, each as Slack words it (without the [ERROR] prefix)."""
    if not isinstance(blocks, list):
        return [f"must be an array [json-pointer:{ptr}]"]
    if len(blocks) > max_items:
        return [_too_many(ptr, max_items)]
    errors: list[str] = []
    seen_ids: dict[str, int] = {}
    for i, block in enumerate(blocks):
        bptr = f"{ptr}/{i}"
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            errors.append(_schema(bptr))
            continue
        if block["type"] not in KNOWN_BLOCK_TYPES:
            errors += [_schema(bptr), f"unsupported type: {block['type']} [json-pointer:{bptr}/type]"]
            continue
        block_id = block.get("block_id")
        if block_id is not None:
            if not isinstance(block_id, str) or len(block_id) > BLOCK_ID_MAX:
                errors.append(_too_long(f"{bptr}/block_id", BLOCK_ID_MAX))
            elif block_id in seen_ids:
                errors.append(f"duplicate block_id: {block_id} [json-pointer:{bptr}/block_id]")
            else:
                seen_ids[block_id] = i
        specific = _block_specific_errors(block, bptr)
        errors += specific or _sdk_backstop(block, bptr)
    return errors


def check_message_content(args: dict[str, Any], *, require_content: bool = True) -> None:
    """chat.postMessage / chat.update / chat.postEphemeral content rules. Raises SlackError."""
    blocks = args.get("blocks")
    text = args.get("text")
    attachments = args.get("attachments")
    if isinstance(blocks, str) or isinstance(attachments, str):
        # A JSON-valued field that did not decode.
        raise SlackError("invalid_blocks_format" if isinstance(blocks, str) else "invalid_attachments")
    if require_content and not text and not blocks and not attachments:
        raise SlackError("no_text")
    if isinstance(text, str) and len(text) > MESSAGE_TEXT_MAX:
        raise SlackError("msg_too_long")
    if blocks is not None:
        if not isinstance(blocks, list):
            raise SlackError("invalid_blocks_format")
        problems = block_errors(blocks, "/blocks", MESSAGE_MAX_BLOCKS)
        if problems:
            raise blocks_error(problems)


def view_errors(view: Any, *, expect: str | None = None) -> list[str]:
    """Problems in a view payload (modal or home). `expect` restricts the type ("modal" or "home")."""
    ptr = "/view"
    if not isinstance(view, dict):
        return [_schema(ptr)]
    kind = view.get("type")
    missing = [field for field in ("type", "blocks") if field not in view]
    if kind == "modal" and "title" not in view:
        missing.insert(0, "title")
    if missing:
        return [_missing(field, ptr) for field in missing]
    if kind not in ("modal", "home") or (expect is not None and kind != expect):
        return [_schema(ptr), f"must be {expect or 'modal or home'} [json-pointer:{ptr}/type]"]
    errors: list[str] = []
    if kind == "modal":
        for field in ("title", "submit", "close"):
            if field in view:
                errors += text_object_errors(view[field], f"{ptr}/{field}", VIEW_TEXT_MAX, plain_only=True)
    pm = view.get("private_metadata")
    if pm is not None and (not isinstance(pm, str) or len(pm) > PRIVATE_METADATA_MAX):
        errors.append(_too_long(f"{ptr}/private_metadata", PRIVATE_METADATA_MAX))
    for field in ("callback_id", "external_id"):
        value = view.get(field)
        if value is not None and (not isinstance(value, str) or len(value) > ID_MAX):
            errors.append(_too_long(f"{ptr}/{field}", ID_MAX))
    block_problems = block_errors(view["blocks"], f"{ptr}/blocks", VIEW_MAX_BLOCKS)
    if block_problems:
        errors += [_schema(ptr), *block_problems]
    has_input = isinstance(view["blocks"], list) and any(
        isinstance(b, dict) and b.get("type") == "input" for b in view["blocks"])
    if kind == "modal" and has_input and "submit" not in view:
        errors.append(f"must provide a submit property when using input blocks [json-pointer:{ptr}]")
    return errors


def check_view(view: Any, *, expect: str | None = None) -> None:
    problems = view_errors(view, expect=expect)
    if problems:
        raise arguments_error(*problems)
