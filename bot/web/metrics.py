"""GET /metrics: the Prometheus text of a `bot.metrics.Metrics`, and who may read it.

The numbers tell no names, but they tell how busy an office is and when its worker is down, and the endpoint
shares a port with Slack's (which must face the internet). So:

- METRICS_TOKEN set: every request must carry `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), from
  wherever it comes. Prometheus sends it with `authorization: {credentials: ...}` in its scrape config.
- METRICS_TOKEN unset: only a client on this machine (127.0.0.0/8, ::1) that came straight here is answered; 403
  for everyone else. A request relayed by a reverse proxy arrives from loopback too, so one that carries a
  proxy's header (Forwarded, X-Forwarded-For, X-Real-IP) is not taken as local: a proxy that forwards every
  path then does not publish /metrics by accident. (A proxy that adds none of these headers does; set
  METRICS_TOKEN, or do not forward /metrics.)
"""
from __future__ import annotations

import hmac
import ipaddress
import logging
from typing import Iterable

from prometheus_client import CONTENT_TYPE_LATEST

from bot.metrics import Metrics

log = logging.getLogger("recount_bot.metrics")
METRICS_PATH = "/metrics"
_PROXY_HEADERS = ("HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP")


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%", 1)[0]).is_loopback
    except ValueError:  # a Unix socket's path, or nothing
        return False


class MetricsEndpoint:
    """A WSGI app answering GET/HEAD with the metrics, under the rule above (any path: mount it where wanted)."""

    def __init__(self, metrics: Metrics, token: str | None = None) -> None:
        self.metrics = metrics
        self.token = token or None

    def refusal(self, environ: dict) -> tuple[str, str] | None:
        """None when the request may read the metrics, else (status line, what to do about it)."""
        if self.token is not None:
            given = environ.get("HTTP_AUTHORIZATION") or ""
            scheme, _, credentials = given.partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(credentials.strip().encode(), self.token.encode()):
                return None
            return "401 Unauthorized", "Send Authorization: Bearer <METRICS_TOKEN>.\n"
        if is_loopback(environ.get("REMOTE_ADDR")) and not any(environ.get(h) for h in _PROXY_HEADERS):
            return None
        return "403 Forbidden", ("/metrics answers only on this machine while METRICS_TOKEN is not set; set it to "
                                 "read the metrics from elsewhere.\n")

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Length", "0")])
            return [b""]
        refused = self.refusal(environ)
        if refused is not None:
            status, text = refused
            log.info("refused GET %s from %s (%s)", METRICS_PATH, environ.get("REMOTE_ADDR", "?"), status[:3])
            headers = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(text))),
                       ("Cache-Control", "no-store")]
            if status.startswith("401"):
                headers.append(("WWW-Authenticate", 'Bearer realm="recount-bot metrics"'))
            start_response(status, headers)
            return [text.encode()]
        data = self.metrics.render()
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(data))),
                                  ("Cache-Control", "no-store")])
        return [data]


class OnlyMetrics:
    """`recount-bot worker --metrics-port`: the endpoint at /metrics, 404 elsewhere."""

    def __init__(self, endpoint: MetricsEndpoint) -> None:
        self.endpoint = endpoint

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == METRICS_PATH:
            body = self.endpoint(environ, start_response)
            return [] if environ.get("REQUEST_METHOD") == "HEAD" else body
        start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "9")])
        return [b"Not Found"]
