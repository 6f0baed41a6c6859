"""`GET /observe/<token>` and what its page asks for (bot.web.server routes here; services.observers.page decides).

    GET /observe/<token>                       the observers' page (HTML); a load is counted and audited
    GET /observe/<token>/state.json            what the page shows now, polled by its script: ETag, and 304 Not
                                               Modified for If-None-Match when nothing changed (waitress gives
                                               each request a thread: short polls, no held connections)
    GET /observe/<token>/certificates/<id>     a certificate of election of that case, as a PDF

A revoked or expired link answers 410 Gone, a token it never made (or an altered one) 404. Every answer carries
strict headers: a Content-Security-Policy allowing only the page's own inline style and script by a per-response
nonce and fetches to itself, no referrer, noindex, nosniff, no-store. Tokens are never logged whole.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import re
import secrets
from typing import Callable, Iterable

from bot.web.observers_page import GONE_TEXT, gone_html, live_html, live_note, page_html
from handlers.cards import refresh_card_views
from services.observers.page import LinkState, certificate_for_observers, observer_state, record_view, short
from services.services import Services
from storage.db import Database

log = logging.getLogger("recount_bot.observers")
PREFIX = "/observe/"
POLL_MS = 5000
_PATH = re.compile(r"^/observe/([^/]*)(?:/(state\.json|certificates/(\d{1,12})))?$")


def security_headers(nonce: str | None = None) -> list[tuple[str, str]]:
    sources = f"'nonce-{nonce}'" if nonce else "'none'"
    return [("Content-Security-Policy",
             f"default-src 'none'; script-src {sources}; style-src {sources}; connect-src 'self'; img-src 'none'; "
             "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
            ("Referrer-Policy", "no-referrer"), ("X-Robots-Tag", "noindex, nofollow"),
            ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ("Cache-Control", "no-store"), ("Cross-Origin-Resource-Policy", "same-origin")]


class ObserversEndpoint:
    def __init__(self, db: Database, clock: Callable[[], dt.datetime], *, poll_ms: int = POLL_MS) -> None:
        self.services = Services(db, clock=clock)
        self.poll_ms = poll_ms

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        match = _PATH.match(environ.get("PATH_INFO", ""))
        if match is None:
            return self._answer(start_response, "404 Not Found", "text/plain; charset=utf-8", b"Not Found")
        if method not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Length", "0")])
            return [b""]
        token, part, certificate_id = match.groups()
        try:
            if part is None:
                return self.page(token, method, start_response)
            if part == "state.json":
                return self.state(token, environ, start_response)
            return self.certificate(token, int(certificate_id), start_response)
        except Exception:
            log.exception("observers' link %s: the lookup failed", short(token))
            return self._answer(start_response, "503 Service Unavailable", "text/plain; charset=utf-8",
                                b"The recount cannot be read right now; try again in a moment.\n")

    def page(self, token: str, method: str, start_response) -> Iterable[bytes]:
        # A HEAD is no view; a GET is counted (and audited, at most once per link per interval) before reading.
        if method == "GET":
            found = record_view(self.services, token)
            if found.state is not LinkState.FOUND:
                return self._refused(found.state, token, start_response, as_json=False)
            self._show_views_on_card(found.case_id)
        found, state = observer_state(self.services, token)
        if state is None:
            return self._refused(found.state, token, start_response, as_json=False)
        nonce = secrets.token_urlsafe(16)
        body = page_html(state, token, nonce=nonce, poll_ms=self.poll_ms, version=state.version(),
                         now=self.services.now()).encode()
        log.info("observers' link %s: page served", short(token))
        return self._answer(start_response, "200 OK", "text/html; charset=utf-8", body, nonce=nonce)

    def _show_views_on_card(self, case_id: int | None) -> None:
        """The card counts the links' views: it is edited after each load (the page is served even if queueing
        the edit fails; the next load or change of the case brings the card up to date)."""
        if case_id is None:
            return
        try:
            refresh_card_views(self.services, case_id)
        except Exception:
            log.exception("the card of case %s could not be queued for its observers' view count", case_id)

    def state(self, token: str, environ, start_response) -> Iterable[bytes]:
        found, state = observer_state(self.services, token)
        if state is None:
            return self._refused(found.state, token, start_response, as_json=True)
        version = state.version()
        etag = f'"{version}"'
        asked = [t.strip().removeprefix("W/") for t in environ.get("HTTP_IF_NONE_MATCH", "").split(",")]
        note = live_note(state, self.services.now())
        if etag in asked or "*" in asked:
            start_response("304 Not Modified", [("ETag", etag), ("X-Live-Note", note), *security_headers()])
            return [b""]
        body = json.dumps({"version": version, "html": live_html(state, token), "state": state.as_json(),
                           "note": note},
                          ensure_ascii=False).encode()
        return self._answer(start_response, "200 OK", "application/json; charset=utf-8", body, extra=[("ETag", etag)])

    def certificate(self, token: str, certificate_id: int, start_response) -> Iterable[bytes]:
        from services.completion.certificates import CertificateDocument
        from services.completion.certificates import LinkState as CertificateState
        from services.documents.certificate import certificate_pdf

        found, facts = certificate_for_observers(self.services, token, certificate_id)
        if facts is None:
            return self._refused(found.state, token, start_response, as_json=False)
        document = CertificateDocument(CertificateState.FOUND, facts)
        data = certificate_pdf(facts)
        log.info("observers' link %s: certificate %s served", short(token), certificate_id)
        return self._answer(start_response, "200 OK", "application/pdf", data,
                            extra=[("Content-Disposition", document.content_disposition())])

    def _refused(self, state: LinkState, token: str, start_response, *, as_json: bool) -> Iterable[bytes]:
        log.info("observers' link %s: %s", short(token), state.value)
        if state in (LinkState.EXPIRED, LinkState.REVOKED):
            if as_json:
                body = json.dumps({"state": state.value, "message": GONE_TEXT[state.value]}).encode()
                return self._answer(start_response, "410 Gone", "application/json; charset=utf-8", body)
            nonce = secrets.token_urlsafe(16)
            return self._answer(start_response, "410 Gone", "text/html; charset=utf-8",
                                gone_html(state.value, nonce=nonce).encode(), nonce=nonce)
        if as_json:
            body = json.dumps({"state": "unknown", "message": "This link does not work. Check it, or ask the "
                                                              "election office for a new one."}).encode()
            return self._answer(start_response, "404 Not Found", "application/json; charset=utf-8", body)
        return self._answer(start_response, "404 Not Found", "text/plain; charset=utf-8", b"Not Found")

    @staticmethod
    def _answer(start_response, status: str, content_type: str, body: bytes, *, nonce: str | None = None,
                extra: list[tuple[str, str]] | None = None) -> Iterable[bytes]:
        start_response(status, [("Content-Type", content_type), ("Content-Length", str(len(body))),
                                *security_headers(nonce), *(extra or [])])
        return [body]
