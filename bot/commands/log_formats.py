"""How a log record becomes one line on stderr, in either LOG_FORMAT: text (the default) or json.

Log lines carry what people typed and named (a contest, a file, a path someone requested). One with a newline
or a terminal escape in it must not split into two lines, forge a line of its own, or repaint the terminal:

- json: one JSON object per line (python-json-logger): time (ISO 8601 with its UTC offset, milliseconds),
  level, logger, message, and exception (the traceback's text) when there is one, plus any `extra=` fields.
  JSON escapes every control character, and non-ASCII is written as \\u escapes, so U+2028 too stays inside
  its string.
- text: `time level logger: message`, with control characters in the message (and the Unicode line and
  paragraph separators, and the bidirectional overrides that can reorder what a terminal shows) written as
  Python escapes (\\n, \\x1b, \\u2028; bot/terminal_text.py). A traceback keeps its lines, each indented by
  four spaces: a record's first line always begins with its time, so no line of a traceback (which may quote
  hostile text) reads as a record of its own.
"""
from __future__ import annotations

import datetime as dt
import logging

from pythonjsonlogger.json import JsonFormatter

from bot.terminal_text import escaped

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TRACEBACK_INDENT = "    "

def iso_time(record: logging.LogRecord) -> str:
    """The record's time in this machine's time zone, with its offset: 2026-11-10T10:00:00.123-07:00."""
    return dt.datetime.fromtimestamp(record.created).astimezone().isoformat(timespec="milliseconds")


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        message = record.message
        record.message = escaped(message)  # for this line only: other handlers see the record as it was
        try:
            return super().formatMessage(record)
        finally:
            record.message = message

    def formatException(self, ei) -> str:  # noqa: N802
        return self._indented(super().formatException(ei))

    def formatStack(self, stack_info: str) -> str:  # noqa: N802
        return self._indented(stack_info)

    @staticmethod
    def _indented(text: str) -> str:
        return "\n".join(TRACEBACK_INDENT + escaped(line) for line in text.splitlines())


class JsonLineFormatter(JsonFormatter):
    def __init__(self) -> None:
        super().__init__("{asctime}{levelname}{name}{message}", style="{",
                         rename_fields={"asctime": "time", "levelname": "level", "name": "logger",
                                        "exc_info": "exception", "stack_info": "stack"})

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return iso_time(record)


def formatter(log_format: str) -> logging.Formatter:
    return JsonLineFormatter() if log_format == "json" else TextFormatter()
