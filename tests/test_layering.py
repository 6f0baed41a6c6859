"""The statute core stays pure: nothing in rules/ may import an outer layer or a framework."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {"storage", "bot", "handlers", "slack_bolt", "slack_sdk", "sqlalchemy"}


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES)))
def test_rules_module_imports_no_outer_layer(path: Path) -> None:
    bad = imported_roots(path.read_text()) & FORBIDDEN
    assert not bad, f"{path} imports {sorted(bad)}; rules/ must stay pure"


def test_the_check_itself_catches_forbidden_imports() -> None:
    # Guard against a checker that silently finds nothing (e.g. a wrong path or a broken parser).
    assert imported_roots("import sqlalchemy.orm\nfrom slack_bolt import App\nfrom . import x") == {
        "sqlalchemy", "slack_bolt"}
    assert len(list(RULES.rglob("*.py"))) >= 5
