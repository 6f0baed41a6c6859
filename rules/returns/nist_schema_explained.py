"""The error `nist_schema` yields with a message already written for the clerk.

Its own module because it subclasses jsonschema's ValidationError and `nist_schema` imports jsonschema only when
a NIST JSON file is first validated (see `nist_schema._tools`): importing a module happens once even when two
threads ask at the same time, so every error is of this one class and `isinstance` recognises it.
"""
from __future__ import annotations

from jsonschema.exceptions import ValidationError


class Explained(ValidationError):
    """An error whose message is already written for the clerk."""
