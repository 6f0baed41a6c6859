"""What the caller can tell a reader that a file may not say: seats, the kind of election, its name."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Mapping


class ElectionKind(str, enum.Enum):
    PRIMARY = "primary"  # one contest per office, district and party: parties are never compared
    GENERAL = "general"  # every candidate of a contest is compared, whatever the party


@dataclass(frozen=True)
class ReadOptions:
    """seats          contest name -> seats, where the file does not say
    election_kind  None: from the file (its name, its flags, its content), else as given
    file_name      the file's name as the clerk gave it, e.g. "20160628__co__primary__county.csv": the
                   OpenElections convention names the kind of election
    """

    seats: Mapping[str, int] | None = None
    election_kind: ElectionKind | None = None
    file_name: str | None = None


# Words of a file name: split at anything not a letter or digit, and where case or letters/digits change
# ("2024GeneralPrecinctLevelResults.csv": 2024, General, Precinct, ...).
_WORDS = re.compile(r"[^0-9A-Za-z]+|(?<=[a-z])(?=[A-Z])|(?<=[0-9])(?=[A-Za-z])|(?<=[A-Za-z])(?=[0-9])")


def kind_from_file_name(file_name: str | None) -> ElectionKind | None:
    """"primary" or "general" as a word of the file's name (OpenElections: 20160628__co__primary__county.csv)."""
    if not file_name:
        return None
    stem = file_name.replace("\\", "/").rsplit("/", 1)[-1]
    words = {word.casefold() for word in _WORDS.split(stem)}
    said = {kind for kind in ElectionKind if kind.value in words}
    return said.pop() if len(said) == 1 else None
