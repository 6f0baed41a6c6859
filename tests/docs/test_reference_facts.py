"""The hand-written reference pages hold what the code holds: every setting with its default (docs/admin/settings.md),
every reading and option of the statute (docs/reference/statute-readings.md), every results format
(docs/reference/returns-formats.md) and every package of the layout (docs/reference/architecture.md). A reading, a
format, a setting or a package added to the code without its line here fails."""
from __future__ import annotations

import re

from pydantic_core import PydanticUndefined

from bot.settings import Settings
from rules.deadlines import DEFAULT_COMPLETION_ROLLOVER, CompletionRollover
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MultiSeatRule
from rules.notices_owed import NoticesReading
from rules.returns.options import ElectionKind
from rules.returns.registry import KNOWN_AS, READERS
from rules.settlement import DEFAULT_NO_CHOICE_REFUND, NoChoiceRefund
from tests.docs.pages import DOCS, ROOT, known_settings, read

SETTINGS = DOCS / "admin" / "settings.md"
READINGS = DOCS / "reference" / "statute-readings.md"
FORMATS = DOCS / "reference" / "returns-formats.md"
ARCHITECTURE = DOCS / "reference" / "architecture.md"
FIXTURES = ROOT / "tests" / "fixtures" / "returns"


def _table_rows(text: str) -> dict[str, str]:
    """A table's rows by their first cell's code: {"PORT": "| `PORT` | serve, run | ... |"}."""
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `([^`]+)` \|.*$", text, re.M)}


def test_the_settings_page_lists_every_setting_once() -> None:
    rows = re.findall(r"^\| `([A-Z_]+)` \|", read(SETTINGS), re.M)
    assert len(rows) == len(set(rows)) and set(rows) == known_settings()


def test_each_settings_default_is_the_codes() -> None:
    rows = _table_rows(read(SETTINGS))
    for field in Settings.model_fields.values():
        row = rows[field.alias]
        if field.default is PydanticUndefined:
            assert "required" in row, field.alias
        elif field.default is not None:
            assert re.search(rf"default:? `?{re.escape(str(field.default))}`?", row), (field.alias, field.default)


def test_every_reading_the_rules_name_is_on_the_readings_page() -> None:
    page = read(READINGS)
    constants = {name for path in (ROOT / "rules").rglob("*.py")
                 for name in re.findall(r"^([A-Z_]*READING[A-Z_]*)\s*=", read(path), re.M)}
    assert len(constants) >= 15, constants  # the search itself still finds them
    assert {c for c in constants if f"`{c}`" not in page} == set()


def test_every_option_of_a_reading_is_on_the_page_with_its_default_first() -> None:
    page = read(READINGS)
    for enum, default in ((MultiSeatRule, DEFAULT_MULTI_SEAT_RULE), (CompletionRollover, DEFAULT_COMPLETION_ROLLOVER),
                          (NoChoiceRefund, DEFAULT_NO_CHOICE_REFUND), (NoticesReading, NoticesReading.NOTICE_FIRST),
                          (ElectionKind, None)):
        assert f"`{enum.__name__}`" in page, enum.__name__
        row = next(line for line in page.splitlines() if line.startswith("|") and f"`{enum.__name__}`" in line)
        options = [f"`{member.value}`" for member in enum]
        assert all(option in row for option in options), (enum.__name__, row)
        if default is not None:  # "options (default first)"
            assert row.index(f"`{default.value}`") == min(row.index(option) for option in options), enum.__name__


def test_every_format_read_is_on_the_formats_page_with_its_reader_and_real_files() -> None:
    rows = _table_rows(read(FORMATS))
    assert set(READERS) <= set(rows), set(READERS) - set(rows)
    for name, module in READERS.items():
        assert f"`{module.replace('.', '/')}.py`" in rows[name], name
        files = re.findall(r"`([\w*.-]+\.(?:csv|json|xml|xlsx))`|`([\w-]+/)`", rows[name].split("|")[-2])
        assert files, f"{name}: no real file named"
        for found in (a or b for a, b in files):
            assert any(FIXTURES.glob(found)) or (ROOT / "examples" / found).exists() or any(
                (ROOT / found).parent.glob((ROOT / found).name)), (name, found)


def test_the_readme_names_every_format_read_with_its_source() -> None:
    """The README's table of results files: every format the registry reads, each with where it comes from."""
    readme = read(ROOT / "README.md")
    table = readme[readme.index("## Results files it reads"):]
    table = table[:table.index("\n## ")]
    named = {name for row in re.findall(r"^\| (`[^|]+`) \| ([^|]+) \|$", table, re.M)
             for name in re.findall(r"`([\w-]+)`", row[0]) if row[1].strip()}
    assert named == set(READERS), set(READERS) ^ named


def test_where_each_formats_files_come_from_is_what_slacks_help_says() -> None:
    assert list(KNOWN_AS) == list(READERS)  # one for each reader, in the order they are recognised
    rows = _table_rows(read(FORMATS))
    for name, known in KNOWN_AS.items():
        assert rows[name].split(" | ")[2].strip() == known.source, name


def test_every_package_of_the_layout_is_on_the_architecture_page() -> None:
    page = read(ARCHITECTURE)
    packages = [p for top in ("rules", "storage", "services", "handlers", "bot", "sandbox")
                for p in [ROOT / top, *(ROOT / top).iterdir()] if p.is_dir() and (p / "__init__.py").exists()]
    missing = [str(p.relative_to(ROOT)) for p in packages if f"`{p.relative_to(ROOT)}/" not in page]
    assert not missing, f"packages architecture.md does not place: {missing}"
