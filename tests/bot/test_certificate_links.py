"""Certificate links (6): `GET /certificates/<token>` on the bot's HTTP server answers the PDF while the link is
valid, 410 Gone after it expires, 404 for a token it never made; tokens never reach the log. The link's base is
PUBLIC_BASE_URL (validated like every setting) or http://localhost:PORT. On each database."""
from __future__ import annotations

import datetime as dt
import io
import logging
import urllib.error
import urllib.request

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from bot.app_factory import build_app
from bot.settings import SettingsError, load_settings
from bot.web.server import RunningServer, WebApp
from services.completion import certificates as certs
from services.completion.complete import complete_case
from services.errors import UserError
from services.public_url import public_base_url
from storage.models import AuditEntry, Certificate
from storage.models.conduct import link_token_sha256
from tests.services.test_completion_services import DEO, _requested_case, _tally, services  # noqa: F401
from tests.support.slack_app import Clock

START = dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def clock(services):  # noqa: F811
    clock = Clock(START)
    services.clock = clock
    return clock


@pytest.fixture
def completed(services, clock):  # noqa: F811
    """Pine Ridge recounted in favor of Sam Okafor, who wins: one certificate, for him."""
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {"Dana Whitfield": 600, "Sam Okafor": 811}, {"Dana Whitfield": 747, "Sam Okafor": 590})
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           actual_cost="350.00")
    [(candidate, votes, token)] = result.certificates
    assert (candidate, votes) == ("Sam Okafor", 1401) and len(token) == 43
    return case_id, token


@pytest.fixture
def server(services, clock):  # noqa: F811
    app = build_app(services=services, bot_token="xoxb-test-token", signing_secret="test-signing-secret-0123",
                    api_base_url="http://127.0.0.1:9/", verify_token=False)
    with RunningServer(WebApp(app, services.db, clock=clock)) as running:
        yield running


def get(server, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    request = urllib.request.Request(server.url + path, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_a_valid_link_answers_the_certificate_as_a_pdf(server, completed, caplog) -> None:
    case_id, token = completed
    caplog.set_level(logging.INFO, logger="recount_bot")
    status, headers, body = get(server, f"/certificates/{token}")
    assert status == 200 and headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")
    assert headers["Content-Disposition"] == 'inline; filename="certificate-of-election-Sam-Okafor.pdf"'
    assert headers["Cache-Control"] == "private, no-store" and headers["Referrer-Policy"] == "no-referrer"
    text = " ".join(PdfReader(io.BytesIO(body)).pages[0].extract_text().split())
    for expected in ("CERTIFICATE OF ELECTION", "Sam Okafor", "1,401", "Pine Ridge - Director", "Regular Election",
                     "November 3, 2026", "Given on November 10, 2026", "Designated Election Official",
                     f"Recount case #{case_id}"):
        assert expected in text, expected
    status, headers, body = get(server, f"/certificates/{token}", method="HEAD")
    assert status == 200 and body == b"" and headers["Content-Type"] == "application/pdf"
    assert token not in caplog.text and "certificate link " + token[:4] + "…: served" in caplog.text


def test_an_expired_link_is_gone_an_unknown_one_not_found(server, completed, clock, caplog) -> None:
    _, token = completed
    caplog.set_level(logging.INFO, logger="recount_bot")
    clock.advance(days=29, hours=23)
    assert get(server, f"/certificates/{token}")[0] == 200
    clock.advance(hours=1)  # 30 days after completion
    status, headers, body = get(server, f"/certificates/{token}")
    assert status == 410 and headers["Content-Type"].startswith("text/plain")
    assert body.decode() == ("This certificate link has expired. Ask the election office for a new link "
                             "(in Slack: the case card, New link).\n")
    for path in ("/certificates/" + "A" * 43, "/certificates/", "/certificates/short", f"/certificates/{token}/x",
                 f"/certificates/{token[:-1]}%2F", "/certificates/%00" + token[1:]):
        assert get(server, path)[0] == 404, path
    assert get(server, f"/certificates/{token}", method="POST")[0] == 405
    assert token not in caplog.text


def test_a_new_link_replaces_the_old_one_and_a_double_click_keeps_it(
        services, completed, clock, server) -> None:  # noqa: F811
    case_id, token = completed
    with services.db.transaction() as s:
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.token_sha256 == link_token_sha256(token)))
    kept = certs.renew_link(services, workspace_id=services.workspace_id, certificate_id=certificate_id, actor=DEO)
    # Moments after it was made: kept, and not shown again (only its hash is stored), but it still works.
    assert not kept.renewed and kept.certificate.token is None and get(server, f"/certificates/{token}")[0] == 200
    clock.advance(days=31)
    assert get(server, f"/certificates/{token}")[0] == 410
    renewed = certs.renew_link(services, workspace_id=services.workspace_id, certificate_id=certificate_id, actor=DEO)
    assert renewed.renewed and renewed.certificate.token != token
    assert renewed.certificate.expires_at == clock() + dt.timedelta(days=30)
    assert get(server, f"/certificates/{renewed.certificate.token}")[0] == 200
    assert get(server, f"/certificates/{token}")[0] == 404
    again = certs.renew_link(services, workspace_id=services.workspace_id, certificate_id=certificate_id, actor=DEO)
    assert not again.renewed and again.certificate.token is None
    assert get(server, f"/certificates/{renewed.certificate.token}")[0] == 200
    with services.db.transaction() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "certificate.link_renewed")).all()
        assert entry.entity == "recount_case" and entry.entity_id == str(case_id)
        assert renewed.certificate.token not in str(entry.after) and token not in str(entry.before)


def test_delivery_is_recorded_once_and_audited(services, completed, clock) -> None:  # noqa: F811
    case_id, token = completed
    with services.db.transaction() as s:
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.token_sha256 == link_token_sha256(token)))
    record = dict(services=services, workspace_id=services.workspace_id, certificate_id=certificate_id, actor=DEO)
    with pytest.raises(UserError, match="cannot have been delivered in the future"):
        certs.record_delivery(**record, delivered_at=clock() + dt.timedelta(hours=1), delivered_by="Dana",
                              method="in person")
    with pytest.raises(UserError, match="before the recount was completed"):
        certs.record_delivery(**record, delivered_at=clock() - dt.timedelta(days=1), delivered_by="Dana",
                              method="in person")
    with pytest.raises(UserError, match="not a way of delivering"):
        certs.record_delivery(**record, delivered_at=clock(), delivered_by="Dana", method="pigeon")
    first = certs.record_delivery(**record, delivered_at=clock(), delivered_by="Dana", method="certified mail",
                                  details="7019 0700 0000 1234")
    assert first.newly_recorded and first.certificate.delivery_method == "certified mail"
    second = certs.record_delivery(**record, delivered_at=clock(), delivered_by="Sam", method="email")
    assert not second.newly_recorded and second.certificate.delivered_by == "Dana"
    with services.db.transaction() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "certificate.delivered")).all()
        assert entry.entity_id == str(case_id) and entry.after["candidate"] == "Sam Okafor"
        assert entry.after["citation"] == "C.R.S. 1-13.5-1306(6)" and token not in str(entry.after)
    with pytest.raises(UserError, match="does not exist in this office"):
        certs.record_delivery(**{**record, "workspace_id": services.workspace_id + 1}, delivered_at=clock(),
                              delivered_by="Dana", method="in person")


# ---------------------------------------------------------------- PUBLIC_BASE_URL
BASE = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "test-signing-secret"}


@pytest.mark.parametrize("value, expected", [
    ("https://recount.example.org/", "https://recount.example.org"),
    ("http://10.0.0.5:8080/recount-bot", "http://10.0.0.5:8080/recount-bot"),
    ("", None),
])
def test_public_base_url_is_optional_and_normalised(value, expected) -> None:
    settings = load_settings(environ={**BASE, "PUBLIC_BASE_URL": value, "PORT": "8080"})
    assert settings.public_base_url == expected
    assert settings.links_base_url == (expected or "http://localhost:8080")


@pytest.mark.parametrize("value, message", [
    ("recount.example.org", "PUBLIC_BASE_URL 'recount.example.org': must be an http:// or https:// URL like "
                            "https://recount.example.org"),
    ("ftp://recount.example.org", "PUBLIC_BASE_URL 'ftp://recount.example.org': must be an http:// or https:// URL"),
    ("https://x.org:99999", "PUBLIC_BASE_URL 'https://x.org:99999': must be an http:// or https:// URL"),
    ("https://x.org/?a=1", "PUBLIC_BASE_URL 'https://x.org/?a=1': must be a plain base URL"),
    ("https://admin:hunter2@x.org", "PUBLIC_BASE_URL: must be a plain base URL"),
])
def test_a_malformed_public_base_url_is_one_clear_line(value, message) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings(environ={**BASE, "PUBLIC_BASE_URL": value})
    [line] = refused.value.lines
    assert line.startswith(message) and "hunter2" not in line


def test_certificate_links_start_with_public_base_url_or_localhost_and_port(monkeypatch) -> None:
    monkeypatch.delenv("PUBLIC_BASE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    assert certs.certificate_link("abc") == "http://localhost:3000/certificates/abc"
    monkeypatch.setenv("PORT", "8081")
    assert public_base_url() == "http://localhost:8081"
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://recount.example.org/bot/")
    assert certs.certificate_link("abc") == "https://recount.example.org/bot/certificates/abc"
