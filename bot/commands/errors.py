class UsageError(Exception):
    """Bad input from the person at the keyboard: shown as one or more lines, exit status 2."""


class CommandFailed(Exception):
    """The command could not do its work for a reason outside the input (a database that does not answer,
    Slack out of reach): shown as one line, exit status 1. Not a bug, so no "rerun with --debug"."""
