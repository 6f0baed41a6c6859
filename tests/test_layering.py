"""The house's one direction of imports, lowest first: rules < storage < services < handlers < bot, with the
sandbox beside the bot (ARCHITECTURE in docs/reference/architecture.md). A module imports only from its own
layer or below; only the sandbox command (bot/commands/sandbox.py) may import `sandbox`, so an install never
needs the rehearsal tooling to serve an office. Function-level imports count as much as top-level ones: a lazy
import is still a dependency."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["rules", "storage", "services", "handlers", "bot"]
SANDBOX = "sandbox"
PACKAGES = [*ORDER, SANDBOX]
# What each layer may not use of the outside world: the statute core is pure; the use cases do not talk Slack.
FRAMEWORKS = {
    "rules": {"sqlalchemy", "slack_bolt", "slack_sdk", "alembic", "fpdf", "waitress"},
    "storage": {"slack_bolt", "waitress"},
    "services": {"slack_bolt", "slack_sdk", "waitress"},
}
SANDBOX_GATE = Path("bot/commands/sandbox.py")


def imported_roots(source: str) -> set[str]:
    """Every top-level package a module imports, at any depth of the module (lazy imports too)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def violations(path: Path, source: str) -> list[str]:
    layer = path.parts[0]
    found = []
    for root in sorted(imported_roots(source)):
        if root == SANDBOX and layer != SANDBOX and path != SANDBOX_GATE:
            found.append(f"{path} imports {root}: only {SANDBOX_GATE} may")
        elif root in ORDER and layer in ORDER and ORDER.index(root) > ORDER.index(layer):
            found.append(f"{path} ({layer}) imports {root}, a layer above it")
        elif root in FRAMEWORKS.get(layer, ()):
            found.append(f"{path} ({layer}) imports {root}")
        elif root in {"tests", "benchmarks"} and layer in PACKAGES:
            found.append(f"{path} imports {root}")
    return found


def modules() -> list[Path]:
    return sorted(p.relative_to(ROOT) for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=str)
def test_module_imports_only_its_layer_or_below(path: Path) -> None:
    found = violations(path, (ROOT / path).read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


def test_the_check_catches_each_kind_of_wrong_import() -> None:
    # A checker that silently finds nothing (a wrong path, a broken parser) would pass every module above.
    lazy = "def f():\n    from handlers.cards import post_case_card\n"
    assert violations(Path("services/returns/upload.py"), lazy) == [
        "services/returns/upload.py (services) imports handlers, a layer above it"]
    assert violations(Path("rules/margin.py"), "import sqlalchemy.orm\nfrom . import x\n") == [
        "rules/margin.py (rules) imports sqlalchemy"]
    assert violations(Path("bot/app_factory.py"), "from sandbox.slack_standin import SlackStandIn\n")
    assert not violations(SANDBOX_GATE, "from sandbox.office import Sandbox\n")
    assert not violations(Path("sandbox/office.py"), "from bot.app_factory import build_app\n")
    assert violations(Path("services/returns/upload.py"), "from slack_sdk import WebClient\n")
    assert len(modules()) > 200 and {p.parts[0] for p in modules()} == set(PACKAGES)
