"""Downloading a file a person uploaded to Slack (a modal's `file_input`), with the bot token.

    download_file(client, file_id) -> Download(name, filetype, size, data, sha256)

`files.info` (scope files:read) gives the file's `url_private_download`; a GET with
`Authorization: Bearer xoxb-...` returns its bytes. The token must never reach anyone but Slack, so:

- only a URL on Slack's files host is fetched: https://files.slack.com when the Web API is slack.com
  (files.slack-gov.com for slack-gov.com), else the very origin of SLACK_API_BASE_URL (the Slack stand-in of
  the tests and the offline sandbox). Any other URL is refused before a connection is made;
- a redirect is followed only to that same origin, by hand (urllib's own handler would carry the token along);
- a file larger than MAX_BYTES is refused from its size in files.info, and a download that runs past it is cut
  off; every network wait has a timeout, and the whole download a deadline.

Failures are `FileProblem`: a sentence for the person, never a traceback or the token.
"""
from __future__ import annotations

import hashlib
import logging
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urljoin, urlsplit

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

log = logging.getLogger("recount_bot.slack_files")

MAX_BYTES = 50 * 1024 * 1024  # a county's precinct-level detail file is a few MB; Slack's file_input takes 10 MB
TIMEOUT_SECONDS = 20.0  # each connect and read
DEADLINE_SECONDS = 120.0  # the whole download
CHUNK = 1 << 16
MAX_REDIRECTS = 3
Progress = Callable[[int, "int | None"], None]  # progress(bytes so far, the file's size when Slack gave it)
FILES_HOSTS = {"slack.com": "files.slack.com", "slack-gov.com": "files.slack-gov.com"}


class FileProblem(Exception):
    """The file could not be fetched; `message` says why, for the person who attached it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Download:
    file_id: str
    name: str
    filetype: str
    size: int
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def files_origin(api_base_url: str) -> str:
    """The only scheme://host[:port] files are downloaded from, for a Web API at `api_base_url`."""
    parts = urlsplit(api_base_url)
    host = (parts.hostname or "").lower()
    for domain, files_host in FILES_HOSTS.items():
        if host == domain or host.endswith("." + domain):
            return f"https://{files_host}"
    return f"{parts.scheme}://{parts.netloc}".lower()


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a malformed port raises here
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D102 - urllib's signature
        return None  # answered as an HTTPError; `_fetch` decides whether to follow it


_OPENER = urllib.request.build_opener(_NoRedirects)


def download_file(client: WebClient, file_id: str, *, max_bytes: int = MAX_BYTES,
                  progress: Progress | None = None) -> Download:
    """The file's bytes, fetched from Slack's files host with the client's token (see the module's doc).
    `progress(bytes so far, the size files.info gave or None)` is called after each chunk (a modal's "40%")."""
    try:
        info = client.files_info(file=file_id)["file"]
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        if error in ("file_not_found", "file_deleted"):
            raise FileProblem("That file is no longer in Slack (it was deleted); attach it again.") from None
        log.warning("files.info %s failed: %s", file_id, error)
        raise FileProblem(f"Slack would not give me the file ({error or 'no answer'}); try again in a moment.") \
            from None
    name = str(info.get("name") or info.get("title") or file_id)
    size = info.get("size")
    if isinstance(size, int) and size > max_bytes:
        raise FileProblem(f"{name} is {size / 1048576:,.1f} MB; the most I read is {max_bytes / 1048576:,.0f} MB. "
                          "Split it, or import it at the console (`recount-bot import`).")
    url = info.get("url_private_download") or info.get("url_private")
    if not isinstance(url, str) or not url:
        raise FileProblem(f"Slack gave no download address for {name}; attach it again.")
    data = _fetch(url, token=client.token or "", allowed=files_origin(client.base_url), max_bytes=max_bytes,
                  name=name, progress=_told(progress, size if isinstance(size, int) and size > 0 else None))
    filetype = str(info.get("filetype") or name.rpartition(".")[2] or "").lower()
    return Download(file_id=file_id, name=name, filetype=filetype, size=len(data), data=data)


def _told(progress: Progress | None, size: int | None) -> Callable[[int], None]:
    def told(done: int) -> None:
        if progress is not None:
            try:
                progress(done, size)
            except Exception:  # telling the person how far it is must not stop the download
                log.exception("could not report a download's progress")
    return told


def _fetch(url: str, *, token: str, allowed: str, max_bytes: int, name: str,
           progress: Callable[[int], None]) -> bytes:
    deadline = time.monotonic() + DEADLINE_SECONDS
    for _ in range(MAX_REDIRECTS + 1):
        if _origin(url) != allowed:
            log.warning("refused to download %s from %s: files come only from %s", name, _origin(url) or "?",
                        allowed)
            raise FileProblem(f"Slack gave an address for {name} that is not on its files host ({allowed}); "
                              "nothing was downloaded.")
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
        try:
            with _OPENER.open(request, timeout=TIMEOUT_SECONDS) as response:
                return _read(response, max_bytes=max_bytes, deadline=deadline, name=name, progress=progress)
        except urllib.error.HTTPError as exc:
            location = exc.headers.get("Location") if exc.code in (301, 302, 303, 307, 308) else None
            exc.close()
            if location:
                url = urljoin(url, location)
                continue
            log.warning("downloading %s: HTTP %s", name, exc.code)
            raise FileProblem(f"Slack answered HTTP {exc.code} when I asked for {name}; try again in a moment.") \
                from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            log.warning("downloading %s failed: %s", name, getattr(exc, "reason", exc))
            raise FileProblem(f"{name} could not be downloaded from Slack (no answer in time); try again.") from None
    raise FileProblem(f"Slack sent {name} around too many redirects; nothing was downloaded.")


def _read(response, *, max_bytes: int, deadline: float, name: str, progress: Callable[[int], None]) -> bytes:
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FileProblem(f"{name} is larger than the {max_bytes / 1048576:,.0f} MB I read.")
    parts, total = [], 0
    while True:
        chunk = response.read(CHUNK)
        if not chunk:
            return b"".join(parts)
        total += len(chunk)
        if total > max_bytes:
            raise FileProblem(f"{name} is larger than the {max_bytes / 1048576:,.0f} MB I read.")
        if time.monotonic() > deadline:
            raise FileProblem(f"{name} took too long to download from Slack; try again.")
        parts.append(chunk)
        progress(total)
