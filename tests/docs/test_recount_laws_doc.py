"""docs/reference/recount-laws.md is generated from the profiles (rules/laws) and must not drift from them: the
committed page is exactly what `recount-bot laws` writes, and it names what a clerk compares the laws on."""
from __future__ import annotations

from itertools import zip_longest
from pathlib import Path

from rules.laws import LAWS
from rules.laws.table import ROWS, comparison_markdown
from tests.bot.test_cli_deadlines import recount_bot

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "reference" / "recount-laws.md"
REGENERATE = "regenerate it: recount-bot laws --output docs/reference/recount-laws.md"


def test_the_committed_page_is_what_the_profiles_generate() -> None:
    committed = PAGE.read_text(encoding="utf-8")
    generated = comparison_markdown()
    if committed != generated:
        pairs = zip_longest(committed.splitlines(), generated.splitlines())
        line = next(i for i, (a, b) in enumerate(pairs, start=1) if a != b)
        raise AssertionError(f"{PAGE.relative_to(ROOT)} differs from the profiles (first at line {line}); {REGENERATE}")


def test_the_cli_writes_the_same_page(tmp_path) -> None:
    out = tmp_path / "laws.md"
    result = recount_bot("laws", "--output", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8") == comparison_markdown()
    printed = recount_bot("laws")
    assert printed.returncode == 0 and printed.stdout == comparison_markdown()


def test_the_table_has_a_column_per_law_and_the_rows_the_issue_names() -> None:
    page = PAGE.read_text(encoding="utf-8")
    header = next(line for line in page.splitlines() if line.startswith("| |"))
    assert [f"`--law {key}`" in header for key in LAWS] == [True] * len(LAWS)
    labels = [label for label, _ in ROWS]
    for wanted in ("Automatic when", "Multi-seat contests", "Who may request", "Notarized", "Once only",
                   "Request window opens", "Request window closes", "Automatic recount completed by",
                   "Requested recount completed by", "Cost determined", "Automatic recount paid by", "Refund",
                   "Unused deposit", "Waiver of an automatic recount", "Notice of the recount to", "Notice given by",
                   "Tie"):
        assert wanted in labels
        assert f"| {wanted} |" in page
    # Figures a clerk would check against the statutes, as the table states them.
    row = {line.split(" | ")[0].lstrip("| "): line for line in page.splitlines() if line.startswith("| ")}
    assert "day 17 after the election" in row["Request window closes"]
    assert "day 10 after the election (C.R.S. 31-10-1207(2))" in row["Request window closes"]
    assert "day 22 after the election (C.R.S. 1-10.5-106(2))" in row["Request window closes"]
    assert "day 10 after the election (C.R.S. 1-10.5-106(2))" in row["Request window opens"]
    assert "e-mail; telephone; facsimile transmission; personal service" in row["Notice given by"]
    assert "drawn by the clerk and the clerk's assistant (C.R.S. 31-10-1204)" in row["Tie"]
    assert "drawn by the board of canvassers (the canvass board) (C.R.S. 1-11-102)" in row["Tie"]


def test_every_quote_names_the_copy_and_the_day_it_was_read() -> None:
    page = PAGE.read_text(encoding="utf-8")
    quotes = [line for line in page.splitlines() if line.startswith("- **C.R.S.")]
    assert len(quotes) >= 60
    assert all("read 2026-12-04" in line for line in quotes)
    assert any("Not confirmed for the text in force" in line and "1-10.5-106(2)" in line for line in quotes)
