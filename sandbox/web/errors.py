"""The sandbox API's one kind of refusal: a mistake by the page (an unknown person, a button no longer on its
message), with the HTTP status the web server answers and a sentence saying what was wrong."""
from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message
