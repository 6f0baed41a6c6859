class UsageError(Exception):
    """Bad input from the person at the keyboard: shown as one or more lines, exit status 2."""
