"""`recount-bot COMMAND ...` builds the parser of that command alone (argparse's fifteen cost some 16 ms of every
command's run): the same arguments, and the same errors and help, as with every command's parser."""
from __future__ import annotations

import contextlib
import io

import pytest

from bot import cli


def test_each_command_is_registered_by_the_module_named_for_it() -> None:
    full = cli.build_parser()
    commands = next(a for a in full._actions if a.dest == "command").choices
    assert set(commands) == set(cli.BY_NAME)
    for name in cli.BY_NAME:
        alone = cli.build_parser(name)
        assert name in next(a for a in alone._actions if a.dest == "command").choices


def _outcome(parse, argv: list[str]) -> tuple:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = parse(argv)
        except SystemExit as exit:
            return ("exit", exit.code, out.getvalue(), err.getvalue())
    return ("args", {k: v for k, v in vars(args).items() if k != "func"}, args.func)


@pytest.mark.parametrize("argv", [
    ["check", "returns.csv", "--format", "json"],
    ["--debug", "check", "returns.csv"],
    ["audit", "verify", "--quiet"],
    ["restore", "backup.tar"],
    ["check"],  # its FILE missing: check's own usage
    ["check", "returns.csv", "--bogus"],  # unknown after the command: the top parser's complaint
    ["--bogus", "check", "returns.csv"],
    ["check", "--help"],
    ["--help"],
    ["-h", "check"],
    ["nonsense"],
    [],
    ["db"],
])
def test_one_command_s_parser_parses_and_complains_as_every_command_s_does(argv: list[str]) -> None:
    assert _outcome(cli._parse, argv) == _outcome(lambda a: cli.build_parser().parse_args(a), argv)
