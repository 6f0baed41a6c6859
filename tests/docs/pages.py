"""Reading the project's Markdown as the docs tests check it: its pages, headings and their anchors, links, code,
the `recount-bot` command lines it gives (checked against the real parser) and the settings it names."""
from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.cli import build_parser
from bot.commands.audit import KEY_FILE_VARIABLE, KEY_VARIABLE
from bot.settings import Settings
from tests.docs import reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```[^\n]*$", re.S | re.M)  # indented ones in lists too
INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# recount-bot as a command word: at the start, after a space, or as a path's last part (.../bin/recount-bot).
COMMAND = re.compile(r"(?:^|(?<=\s)|(?<=/bin/))recount-bot\s+(?P<args>[^`]*)")
INLINE_COMMAND = re.compile(r"`(recount-bot [^`]+)`")
SHELL_ENDS = {"|", "||", "&&", ";", ">", ">>", "2>", "&"}
SETTING_NAME = re.compile(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT)(?:=[^`]*)?`")
USAGE_MARKS = ("[", "{", "|", "...", "…")


def pages() -> list[Path]:
    """Every Markdown page of the documentation: README.md and docs/**."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def without_code(text: str) -> str:
    """The text with fenced blocks and inline code blanked (kept as newlines, so line numbers hold)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return INLINE_CODE.sub(lambda m: " " * len(m.group(0)), text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    for _, heading in HEADING.findall(without_fences(text)):
        base = slug(heading)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def without_fences(text: str) -> str:
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


@dataclass(frozen=True)
class Link:
    page: Path
    target: str
    image: bool

    @property
    def external(self) -> bool:
        return bool(re.match(r"^[a-z][a-z0-9+.-]*:", self.target))

    def resolved(self) -> tuple[Path, str]:
        """The file it points at (the page itself for "#anchor") and the anchor ("" when none)."""
        path, _, anchor = self.target.partition("#")
        file = self.page if not path else (self.page.parent / path).resolve()
        return file, anchor


def links(path: Path) -> list[Link]:
    return [Link(path, target, bool(bang)) for bang, _, target in LINK.findall(without_code(read(path)))]


def sections(text: str, level: int) -> dict[str, str]:
    """Each heading of `level` (2 for ##) and the text under it, up to the next heading of that level or above."""
    out: dict[str, str] = {}
    matches = [m for m in HEADING.finditer(without_fences(text)) if len(m.group(1)) <= level]
    for n, match in enumerate(matches):
        if len(match.group(1)) == level:
            end = matches[n + 1].start() if n + 1 < len(matches) else len(text)
            out[match.group(2)] = text[match.end():end]
    return out


# ---------------------------------------------------------------------------------------------- settings
def known_settings() -> set[str]:
    """Every environment variable recount-bot reads: bot/settings.py's, LOG_LEVEL, the audit key's two."""
    aliases = {field.alias for field in Settings.model_fields.values() if field.alias}
    return aliases | {"LOG_LEVEL", KEY_FILE_VARIABLE, KEY_VARIABLE}


@cache
def development_variables() -> frozenset[str]:
    """Variables the tests, dev.py and CI read (TEST_DATABASE_URL, RECOUNT_BROWSER_REQUIRED, ...): named in the
    docs for developers, read by code outside the program."""
    sources = [ROOT / "dev.py", *(ROOT / "tests").rglob("*.py"), *(ROOT / ".ci").glob("*")]
    read_env = re.compile(r"""environ(?:\.get)?[(\[]\s*["']([A-Z][A-Z0-9_]+)["']|getenv\(\s*["']([A-Z][A-Z0-9_]+)""")
    names: set[str] = set()
    for source in sources:
        if source.is_file():
            for match in read_env.finditer(source.read_text(encoding="utf-8", errors="replace")):
                names.add(match.group(1) or match.group(2))
    return frozenset(names)


@cache
def code_constants() -> frozenset[str]:
    """Module-level constants of the program (`CONFLICT_READING = ...`): a page naming one names code, not a setting."""
    define = re.compile(r"^([A-Z][A-Z0-9_]+)\s*(?::[^=]+)?=", re.M)
    return frozenset(name for package in ("rules", "storage", "services", "handlers", "bot", "sandbox")
                     for source in (ROOT / package).rglob("*.py")
                     for name in define.findall(source.read_text(encoding="utf-8")))


def named_settings(text: str) -> set[str]:
    """The environment variables a page names: upper-case names in code that are not the program's constants."""
    return {name for name in SETTING_NAME.findall(text) if name in known_settings() or name not in code_constants()}


# ---------------------------------------------------------------------------------------------- commands
def _arguments(rest: str) -> list[str]:
    words = []
    for word in shlex.split(rest, comments=True):
        if word in SHELL_ENDS:
            break
        words.append(word)
    return words


def _joined_usage_lines(block: str) -> list[str]:
    """A fenced block's lines, a usage line's indented continuations ("    [--team T0123ABCD]") joined to it."""
    lines: list[str] = []
    for line in block.splitlines():
        if lines and re.match(r"^\s+[\[-]", line) and COMMAND.search(lines[-1]):
            lines[-1] = f"{lines[-1]} {line.strip()}"
        else:
            lines.append(line)
    return lines


def command_lines(text: str) -> list[list[str]]:
    """The argument lists of every recount-bot command in fenced blocks and inline code."""
    found = []
    for block in FENCE.findall(text):
        for line in _joined_usage_lines(block):
            for match in COMMAND.finditer(line):
                found.append(_arguments(match.group("args")))
    for span in INLINE_COMMAND.findall(text):
        found.append(_arguments(span.removeprefix("recount-bot ")))
    return [args for args in found if args]


def parses(args: list[str]) -> argparse.Namespace:
    try:
        return build_parser().parse_args(args)
    except SystemExit as exc:
        raise AssertionError(f"`recount-bot {shlex.join(args)}` does not parse (exit {exc.code})") from None


@cache
def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    return {name: parser for name, _, parser in reference.commands()}


def _groups() -> set[str]:
    return {name.split(" ")[0] for name in _command_parsers() if " " in name}


def check_command_line(args: list[str]) -> None:
    """A command line as the docs give it holds: the command exists; a usage line's options (`[--seats CONTEST=N]`)
    are options of that command; any other line parses with the real parser, placeholders and all."""
    if args[0].endswith(":"):
        return  # a message the program prints ("recount-bot case-record: no recount case #99 ..."), not a command
    top_options = {o for a in build_parser()._actions for o in a.option_strings}
    words = list(args)
    while words and words[0] in top_options:
        words.pop(0)
    name = " ".join(words[:2]) if words and words[0] in _groups() else (words[0] if words else "")
    rest = words[len(name.split(" ")):] if name else []
    if name == "" and not words:
        raise AssertionError(f"`recount-bot {shlex.join(args)}` names no command")
    parser = _command_parsers().get(name)
    if parser is None:
        raise AssertionError(f"`recount-bot {shlex.join(args)}`: there is no command `{name}`")
    if not rest:
        return  # the command named in prose: `recount-bot import`
    if any(mark in word for word in rest for mark in USAGE_MARKS):
        options = {o for a in parser._actions for o in a.option_strings}
        for word in re.findall(r"(?<![\w-])--?[a-z][a-z-]*", " ".join(rest)):
            if word not in options:
                raise AssertionError(f"`recount-bot {shlex.join(args)}`: `{name}` has no option {word}")
        return
    parses(args)
