"""manifest.yml is a valid Slack app manifest and agrees with the code.

1. It validates against Slack's published schema (tests/fixtures/slack/, a copy of ../shared/slack/).
2. Against the real registry (`handlers.build_registry()`): every command, shortcut and event the code
   registers is declared, actions and views can reach the app (interactivity), and nothing is declared that
   no listener handles.
3. The usage hint of /recount names exactly the subcommands in `SUBCOMMANDS.table`.
4. Every Web API method the code calls is covered by a bot scope, and every bot scope is needed by something.
"""
from __future__ import annotations

import ast
import copy
import json
import re
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
import yaml
from jsonschema.validators import validator_for
from slack_sdk import WebClient

from bot.web.server import EVENTS_PATH
from handlers import build_registry
from handlers.registry import Registry, Surface

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "manifest.yml"
FIXTURES = ROOT / "tests" / "fixtures" / "slack"
SCHEMA = FIXTURES / "manifest.schema.1.0.0.json"
LICENCE = FIXTURES / "LICENSE-manifest-schema"
SHARED = ROOT.parent / "shared" / "slack"  # the shared docs beside the checkout, when present

# Code that calls the Slack Web API as the bot. bot/slack_standin is the stand-in server, not a client.
SCANNED = ("bot", "handlers", "storage", "rules")
NOT_SCANNED = (ROOT / "bot" / "slack_standin",)

# slack_sdk method -> the bot scopes it needs (all of them); () means none. A method missing here fails
# test_every_web_api_method_the_code_calls_is_covered_by_a_scope: look its scope up on
# https://api.slack.com/methods/<method> and add it (to this map and, if new, to manifest.yml).
METHOD_SCOPES: dict[str, tuple[str, ...]] = {
    "auth_test": (),
    "chat_postMessage": ("chat:write",),
    "chat_update": ("chat:write",),
    "chat_postEphemeral": ("chat:write",),
    "chat_delete": ("chat:write",),
    "chat_getPermalink": (),
    # For a DM with one person; opening a group DM would need mpim:write instead.
    "conversations_open": ("im:write",),
    # The outbox looks for a message it may already have posted (a crash mid-delivery) in the channel or
    # the DM it posts to: public channels, private channels, DMs.
    "conversations_history": ("channels:history", "groups:history", "im:history"),
    "conversations_replies": ("channels:history", "groups:history", "im:history"),
    "users_info": ("users:read",),
    "users_lookupByEmail": ("users:read.email",),
    "views_open": (),
    "views_push": (),
    "views_update": (),
    "views_publish": (),
    "reactions_add": ("reactions:write",),
    "files_getUploadURLExternal": ("files:write",),
    "files_completeUploadExternal": ("files:write",),
    "files_upload_v2": ("files:write",),
    # The results file a person attaches to `/recount returns upload` (a file_input): its url_private_download.
    "files_info": ("files:read",),
}
# Bolt's `say()` is chat.postMessage to the conversation of the request.
BOLT_UTILITIES = {"say": "chat_postMessage"}

# Events the bot may subscribe to -> the bot scopes the subscription needs. An event missing here fails the test.
EVENT_SCOPES: dict[str, tuple[str, ...]] = {
    "app_home_opened": (),
    "app_uninstalled": (),
    "tokens_revoked": (),
    "app_mention": ("app_mentions:read",),
    "message.im": ("im:history",),
    "member_joined_channel": ("channels:read",),
}
HEX_COLOUR = "app-manifests.v1.display_information.schema"


# ----------------------------------------------------------------------------------------------- loading

@lru_cache(maxsize=None)
def _manifest_text() -> str:
    return MANIFEST.read_text(encoding="utf-8")


def load_manifest() -> dict:
    return yaml.safe_load(_manifest_text())


@lru_cache(maxsize=None)
def load_schema() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def schema_validator() -> jsonschema.protocols.Validator:
    schema = load_schema()
    cls = validator_for(schema)  # chosen by the schema's "$schema"
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_errors(manifest: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
            for e in sorted(schema_validator().iter_errors(manifest), key=lambda e: list(map(str, e.absolute_path)))]


@pytest.fixture(scope="module")
def manifest() -> dict:
    return load_manifest()


@pytest.fixture(scope="module")
def registry() -> Registry:
    return build_registry()


def _keys(registry: Registry, surface: Surface) -> list:
    return [route.key for route in registry.routes if route.surface is surface]


def _literal_keys(registry: Registry, surface: Surface) -> set[str]:
    keys = _keys(registry, surface)
    patterns = [k.pattern for k in keys if not isinstance(k, str)]
    assert not patterns, f"{surface.value} routes must have literal keys to be declared in the manifest: {patterns}"
    return set(keys)


def _socket_mode(manifest: dict) -> bool:
    return bool(manifest.get("settings", {}).get("socket_mode_enabled"))


def _assert_request_url(manifest: dict, url: str | None, what: str) -> None:
    if _socket_mode(manifest):
        return
    assert url, f"{what} needs a request URL (or settings.socket_mode_enabled: true)"
    assert url.startswith("https://"), f"{what}: Slack posts to HTTPS URLs only, not {url}"
    assert url.endswith(EVENTS_PATH), f"{what}: the server answers at {EVENTS_PATH}, not {url}"


# ----------------------------------------------------------------------------------------------- schema

def test_the_schema_copy_is_slacks_published_schema_with_its_licence() -> None:
    assert "MIT License" in LICENCE.read_text(encoding="utf-8")
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not here (a clean clone); the copy in {FIXTURES} is used as is")
    for name in (SCHEMA.name, LICENCE.name):
        assert (FIXTURES / name).read_bytes() == (SHARED / name).read_bytes(), \
            f"tests/fixtures/slack/{name} differs from {SHARED / name}: copy it again"


def test_the_schema_is_draft_07_and_is_itself_valid() -> None:
    schema = load_schema()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert validator_for(schema) is jsonschema.Draft7Validator
    jsonschema.Draft7Validator.check_schema(schema)


def test_the_manifest_is_valid_against_slacks_schema(manifest) -> None:
    assert manifest["_metadata"]["major_version"] == 1, "schema 1.0.0 is for manifests of major version 1"
    errors = schema_errors(manifest)
    assert not errors, "manifest.yml is not a valid Slack app manifest:\n" + "\n".join(errors)


def test_the_background_colour_is_a_hex_colour(manifest) -> None:
    # The schema spells this check "regex", a keyword JSON Schema ignores, so the validator never applies it.
    prop = load_schema()["definitions"][HEX_COLOUR]["properties"]["background_color"]
    colour = manifest["display_information"].get("background_color")
    if colour is not None:
        assert re.fullmatch(prop["regex"], colour), f"background_color {colour!r} is not #rgb or #rrggbb"


@pytest.mark.parametrize("breakage", [
    "slash command without command", "usage hint too long", "unknown top-level key", "scope is not a list",
    "interactivity without is_enabled", "command without a leading slash",
])
def test_the_validator_rejects_broken_manifests(manifest, breakage) -> None:
    # Guard against a check that cannot fail (a wrong schema, a validator that ignores everything).
    broken = copy.deepcopy(manifest)
    command = broken["features"]["slash_commands"][0]
    if breakage == "slash command without command":
        del command["command"]
    elif breakage == "usage hint too long":
        command["usage_hint"] = "x" * 1001
    elif breakage == "unknown top-level key":
        broken["slash_commands"] = []
    elif breakage == "scope is not a list":
        broken["oauth_config"]["scopes"]["bot"] = "commands chat:write"
    elif breakage == "interactivity without is_enabled":
        del broken["settings"]["interactivity"]["is_enabled"]
    elif breakage == "command without a leading slash":
        command["command"] = "recount"
    assert schema_errors(broken), f"the schema accepted a manifest with a {breakage}"


# ----------------------------------------------------------------------------------------------- routes

def test_every_registered_command_is_declared_and_nothing_else(manifest, registry) -> None:
    registered = _literal_keys(registry, Surface.COMMAND)
    commands = manifest.get("features", {}).get("slash_commands", [])
    declared = [c["command"] for c in commands]
    assert len(declared) == len(set(declared)), f"a slash command is declared twice: {declared}"
    assert registered - set(declared) == set(), f"registered but not in features.slash_commands: " \
                                                f"{sorted(registered - set(declared))}"
    assert set(declared) - registered == set(), f"declared but no listener handles it: " \
                                                f"{sorted(set(declared) - registered)}"
    for command in commands:
        _assert_request_url(manifest, command.get("url"), f"slash command {command['command']}")


def test_actions_and_views_can_reach_the_app(manifest, registry) -> None:
    interactive = [r.label for r in registry.routes
                   if r.surface in (Surface.ACTION, Surface.VIEW, Surface.VIEW_CLOSED, Surface.SHORTCUT)]
    interactivity = manifest.get("settings", {}).get("interactivity", {})
    assert bool(interactivity.get("is_enabled")) == bool(interactive), (
        f"interactivity.is_enabled must be {bool(interactive)}: interactive listeners {interactive}")
    if interactive:
        _assert_request_url(manifest, interactivity.get("request_url"), "settings.interactivity")


def test_every_shortcut_is_declared_and_nothing_else(manifest, registry) -> None:
    registered = _literal_keys(registry, Surface.SHORTCUT)
    declared = {s["callback_id"] for s in manifest.get("features", {}).get("shortcuts", [])}
    assert registered == declared, (f"shortcuts registered but not declared: {sorted(registered - declared)}; "
                                    f"declared but not handled: {sorted(declared - registered)}")


def test_every_event_is_subscribed_and_nothing_else(manifest, registry) -> None:
    registered = _literal_keys(registry, Surface.EVENT)
    subscriptions = manifest.get("settings", {}).get("event_subscriptions")
    declared = set((subscriptions or {}).get("bot_events", []))
    assert registered - declared == set(), f"events handled but not in settings.event_subscriptions.bot_events: " \
                                           f"{sorted(registered - declared)}"
    assert declared - registered == set(), f"events subscribed that no listener handles: " \
                                           f"{sorted(declared - registered)}"
    assert not (subscriptions or {}).get("user_events"), "the bot handles no user events"
    if registered:
        _assert_request_url(manifest, subscriptions.get("request_url"), "settings.event_subscriptions")
    else:
        assert subscriptions is None, "settings.event_subscriptions declared while no event listener exists"
    app_home = manifest.get("features", {}).get("app_home", {})
    if "app_home_opened" in registered:
        assert app_home.get("home_tab_enabled"), "app_home_opened is handled: enable features.app_home.home_tab_enabled"
    if "message.im" in registered:
        assert not app_home.get("messages_tab_read_only_enabled"), "message.im is handled: let people write DMs"


def test_the_usage_hint_names_exactly_the_subcommands(manifest, registry) -> None:
    from handlers.subcommands import SUBCOMMANDS  # filled by build_registry() (the registry fixture)

    [recount] = [c for c in manifest["features"]["slash_commands"] if c["command"] == "/recount"]
    hint = recount["usage_hint"]
    named = [alternative.split()[0] for alternative in hint.split(" | ")]
    assert sorted(named) == sorted(SUBCOMMANDS.table), (
        f"usage_hint alternatives {sorted(named)} vs subcommands {sorted(SUBCOMMANDS.table)}: the hint is "
        "'name args | name args | ...' with one alternative per /recount subcommand")
    assert len(SUBCOMMANDS.table) >= 3, "the subcommand table looks empty: is build_registry() importing them?"


def test_mentions_reach_the_admin_subcommand_escaped(manifest) -> None:
    """`/recount admin role @jane staff` needs Slack to send `<@U…|jane>`, which `should_escape` does."""
    from handlers.admin import _user

    [recount] = [c for c in manifest["features"]["slash_commands"] if c["command"] == "/recount"]
    assert recount.get("should_escape") is True
    assert _user("<@U0123ABCD|jane>") == "U0123ABCD"


# ----------------------------------------------------------------------------------------------- scopes

def _python_files() -> list[Path]:
    files = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not any(path.is_relative_to(skip) for skip in NOT_SCANNED):
                files.append(path)
    return files


def web_api_calls(source: str) -> set[str]:
    """slack_sdk method names used in `source` (`client.chat_postMessage(...)`, `ix.client.views_open`, `say(`)."""
    methods = {name for name in dir(WebClient) if not name.startswith("_") and callable(getattr(WebClient, name))}
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in methods:
            found.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BOLT_UTILITIES:
            found.add(BOLT_UTILITIES[node.func.id])
    return found


@lru_cache(maxsize=None)
def calls_in_code() -> dict[str, list[str]]:
    """method -> the files that call it."""
    calls: dict[str, list[str]] = {}
    for path in _python_files():
        for method in web_api_calls(path.read_text(encoding="utf-8")):
            calls.setdefault(method, []).append(str(path.relative_to(ROOT)))
    return calls


def _slack_name(method: str) -> str:
    family, _, rest = method.partition("_")
    return f"{family}.{rest.replace('_', '.')}"


def test_the_scanner_finds_calls_however_they_are_written() -> None:
    source = ("def f(ix, client, say, web):\n"
              "    ix.client.chat_postMessage(channel='C', text='t')\n"
              "    client.users_info(\n        user='U')\n"
              "    opener = web.views_open\n"
              "    say('hi')\n"
              "    ix.respond(text='no scope')\n")
    assert web_api_calls(source) == {"chat_postMessage", "users_info", "views_open"}
    # And the real code calls the Web API at all (a wrong path would find nothing and pass).
    assert {"chat_postMessage", "users_info"} <= set(calls_in_code())


def test_every_web_api_method_the_code_calls_is_covered_by_a_scope(manifest) -> None:
    calls = calls_in_code()
    assert "api_call" not in calls, (f"api_call(...) in {calls.get('api_call')}: call the named method "
                                     "(client.chat_postMessage, ...) so this test can check its scope")
    unknown = {m: files for m, files in calls.items() if m not in METHOD_SCOPES}
    assert not unknown, ("Web API methods with no entry in METHOD_SCOPES (look the scope up and add it here and, "
                         "if new, to manifest.yml): " +
                         "; ".join(f"{_slack_name(m)} in {files}" for m, files in sorted(unknown.items())))
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    missing = {f"{_slack_name(m)} needs {s}" for m in calls for s in METHOD_SCOPES[m] if s not in scopes}
    assert not missing, f"scopes missing from oauth_config.scopes.bot: {sorted(missing)}"


def test_every_scope_is_needed(manifest, registry) -> None:
    """The fewest scopes: each one requested is needed by a method the code calls, an event or a command."""
    needed: dict[str, str] = {}
    if _keys(registry, Surface.COMMAND):
        needed["commands"] = "slash commands"
    for method in calls_in_code():
        for scope in METHOD_SCOPES.get(method, ()):
            needed.setdefault(scope, _slack_name(method))
    events = _literal_keys(registry, Surface.EVENT)
    unknown_events = events - set(EVENT_SCOPES)
    assert not unknown_events, f"events with no entry in EVENT_SCOPES: {sorted(unknown_events)}"
    for event in events:
        for scope in EVENT_SCOPES[event]:
            needed.setdefault(scope, f"the {event} event")
    scopes = manifest["oauth_config"]["scopes"]
    bot = scopes["bot"]
    assert len(bot) == len(set(bot)), f"a scope is listed twice: {bot}"
    unneeded = sorted(set(bot) - set(needed))
    assert not unneeded, f"scopes nothing in the code needs (remove them): {unneeded}"
    missing = sorted(set(needed) - set(bot))
    assert not missing, f"scopes the code needs: {[f'{s} ({needed[s]})' for s in missing]}"
    assert not scopes.get("user"), "recount-bot acts as its bot user only; it asks for no user scopes"


def test_the_manifest_says_which_method_needs_which_scope() -> None:
    """The YAML comment beside the scopes names each method the code calls, so a reader can audit them."""
    text = _manifest_text()
    for method in calls_in_code():
        if METHOD_SCOPES.get(method):
            assert _slack_name(method) in text, f"manifest.yml does not say which scope {_slack_name(method)} needs"


def test_settings_for_a_single_workspace_http_app(manifest) -> None:
    settings = manifest["settings"]
    assert settings.get("socket_mode_enabled") is False, "HTTP by default; `recount-bot socket` switches"
    assert settings.get("org_deploy_enabled") is False
    assert settings.get("token_rotation_enabled") is False  # the bot token is a long-lived xoxb- in settings


# ----------------------------------------------------------------------------------------------- least privilege
_ENTRY = re.compile(r"^\s*#   (?P<scopes>[a-z][a-z.:_]*(?:, [a-z][a-z.:_]*)*)\s*(?:- (?P<text>.*))?$")
_MORE = re.compile(r"^\s*#\s{5,}(?P<text>.*)$")


def scope_comments(text: str) -> dict[str, str]:
    """scope -> what the comment list above `bot:` says of it (the feature and the methods)."""
    block = text[text.index("oauth_config:"):text.index("    bot:", text.index("oauth_config:"))]
    entries: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        entry = _ENTRY.match(line)
        if entry:
            entries.append((entry.group("scopes").split(", "), [entry.group("text") or ""]))
        elif entries and (more := _MORE.match(line)):
            entries[-1][1].append(more.group("text").lstrip("- "))
        elif entries and line.strip().startswith("#") and not line.strip().startswith("#   "):
            break  # the notes after the list
    return {scope: " ".join(words) for scopes, words in entries for scope in scopes}


def scope_comment_problems(text: str, bot_scopes: list[str]) -> list[str]:
    """Each requested scope must be named in the comment list with a method the code calls that needs it."""
    said = scope_comments(text)
    problems = [f"{scope}: no comment says which feature needs it" for scope in bot_scopes if scope not in said]
    problems += [f"{scope}: the comment names a scope that is not requested" for scope in said if scope not in bot_scopes]
    for scope, words in said.items():
        if scope == "commands":
            if "/recount" not in words:
                problems.append("commands: the comment does not name the slash command")
            continue
        methods = [m for m in calls_in_code() if scope in METHOD_SCOPES.get(m, ())]
        if not any(_slack_name(m) in words for m in methods):
            problems.append(f"{scope}: the comment names none of the methods that need it "
                            f"({', '.join(sorted(_slack_name(m) for m in methods)) or 'none in the code'})")
    return problems


def test_every_scope_has_a_comment_naming_its_feature_and_method(manifest) -> None:
    problems = scope_comment_problems(_manifest_text(), manifest["oauth_config"]["scopes"]["bot"])
    assert not problems, problems


def test_the_comment_check_catches_a_scope_without_its_reason(manifest) -> None:
    text = _manifest_text()
    bot = manifest["oauth_config"]["scopes"]["bot"]
    assert scope_comment_problems(text, [*bot, "reactions:write"]) == [
        "reactions:write: no comment says which feature needs it"]
    silent = text.replace("or owner: users.info", "or owner")
    assert scope_comment_problems(silent, bot) == [
        "users:read: the comment names none of the methods that need it (users.info)"]


def test_an_unused_scope_fails_the_scope_test(manifest, registry) -> None:
    """test_every_scope_is_needed is what stops a scope the code does not use; it must fail on one."""
    broader = copy.deepcopy(manifest)
    broader["oauth_config"]["scopes"]["bot"].append("channels:read")
    with pytest.raises(AssertionError, match=r"scopes nothing in the code needs \(remove them\): \['channels:read'\]"):
        test_every_scope_is_needed(broader, registry)


def test_doctor_expects_exactly_the_manifests_scopes(manifest) -> None:
    from bot.slack.scopes import BOT_SCOPES

    assert list(BOT_SCOPES) == manifest["oauth_config"]["scopes"]["bot"]
