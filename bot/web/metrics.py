"""GET /metrics: the Prometheus text of a `bot.metrics.Metrics`, and who may read it.

The numbers tell no names, but they tell how busy an office is and when its worker is down, and the endpoint
shares a port with Slack's (which must face the internet). So:

- METRICS_TOKEN set: every request must carry `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), from
  wherever it comes. Prometheus sends it with `authorization: {credentials: ...}` in its scrape config.
- METRICS_TOKEN unset: only a client on this machine (127.0.0.0/8, ::1) that came straight here is answered; 403
  for everyone else. "This machine only", behind a reverse proxy: a request the proxy relays arrives from
  loopback too, on behalf of anyone, so a request that carries any header a proxy adds to say whom it relays
  (Forwarded, X-Forwarded-*, X-Real-IP, X-Client-IP, True-Client-IP, CF-Connecting-IP, X-Cluster-Client-IP, Via),
  whatever it holds, is not taken as local: an empty one (a proxy that relays an empty value), and one that
  names loopback (a forged "X-Forwarded-For: 127.0.0.1" passed on), are refused like any other. No header is
  believed: a proxy's word on where a request came from is only as good as its configuration, which this
  process cannot see. So a proxy that forwards every path does not publish /metrics by accident; to read the
  metrics through a proxy, set METRICS_TOKEN. (A proxy that adds none of these headers is indistinguishable
  from a local client: set METRICS_TOKEN, or do not forward /metrics.)
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
# The WSGI names of the headers proxies add to say whom they relay (any HTTP_X_FORWARDED_* besides these).
_PROXY_HEADERS = frozenset({"HTTP_FORWARDED", "HTTP_X_REAL_IP", "HTTP_X_CLIENT_IP", "HTTP_TRUE_CLIENT_IP",
                            "HTTP_CF_CONNECTING_IP", "HTTP_X_CLUSTER_CLIENT_IP", "HTTP_VIA",
                            "HTTP_X_ORIGINAL_FORWARDED_FOR"})


def relayed(environ: dict) -> bool:
    """Whether the request carries a proxy's header, present at all (empty counts: it was sent)."""
    return any(key in _PROXY_HEADERS or key.startswith("HTTP_X_FORWARDED_") for key in environ)


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
        if is_loopback(environ.get("REMOTE_ADDR")) and not relayed(environ):
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
