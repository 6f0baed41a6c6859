"""Observers' links (C.R.S. 1-13.5-1306(1)) through the bot's real HTTP server, on each database: `GET /observe/<token>`
answers the recount's page while the link is valid, its state.json follows the count (ETag, 304 when unchanged),
a revoked or expired link answers 410, an unknown or altered one 404; names are escaped; page loads (not polls) are
in the audit log by the link's id, never its token."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import logging
import re
import urllib.error
import urllib.request

import pytest
from sqlalchemy import select

from bot.app_factory import build_app
from bot.web.server import RunningServer, WebApp
from rules.returns import parse_returns
from services.completion.complete import complete_case
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet
from services.observers import links
from services.office import access
from services.office.office_settings import OfficeSettings
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.models import AuditEntry, ObserverLink
from storage.models.conduct import link_token_sha256
from tests.services.test_completion_services import DEO, _requested_case, services  # noqa: F401
from tests.support.slack_app import Clock

START = dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)
SCRIPT_NAME = "<script>alert(1)</script>"
CHANNEL_NAME = "<!channel> Ana & \"Bo\""
RTL_NAME = "\u05de\u05e8\u05d9\u05dd \u202e<b>ltr</b>"  # Hebrew, a right-to-left override, markup


@pytest.fixture
def clock(services):  # noqa: F811
    clock = Clock(START)
    services.clock = clock
    return clock


@pytest.fixture
def server(services, clock):  # noqa: F811
    app = build_app(services=services, bot_token="xoxb-test-token", signing_secret="test-signing-secret-0123",
                    api_base_url="http://127.0.0.1:9/", verify_token=False)
    with RunningServer(WebApp(app, services.db, clock=clock)) as running:
        yield running


def get(server, path: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(server.url + path, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def share(services, case_id: int) -> str:  # noqa: F811
    shared = links.share_link(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    assert shared.newly_made and len(shared.link.token) == 43
    return shared.link.token


def sheet(services, case_id, sheet_id, unit, counts):  # noqa: F811
    enter_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id=sheet_id, unit=unit,
                counts=counts, entry=1, actor=DEO)


def views_audited(services):  # noqa: F811
    with services.db.transaction() as s:
        return [e.after for e in s.scalars(select(AuditEntry).where(AuditEntry.action == "observers.page_viewed")
                                           .order_by(AuditEntry.id))]


def test_a_link_shows_the_recount_and_its_state_follows_the_count(server, services, clock, caplog) -> None:  # noqa: F811
    caplog.set_level(logging.INFO, logger="recount_bot")
    case_id = _requested_case(services, paid="400.00")
    token = share(services, case_id)
    with services.db.transaction() as s:  # only the hash is stored
        assert s.scalar(select(ObserverLink.token_sha256)) == link_token_sha256(token)

    status, headers, body = get(server, f"/observe/{token}")
    page = body.decode()
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    nonce = re.search(r"script-src 'nonce-([A-Za-z0-9_-]+)'", headers["Content-Security-Policy"]).group(1)
    assert f'<script nonce="{nonce}">' in page and "default-src 'none'" in headers["Content-Security-Policy"]
    assert (headers["Referrer-Policy"], headers["X-Content-Type-Options"], headers["Cache-Control"]) == (
        "no-referrer", "nosniff", "no-store")
    assert "noindex" in headers["X-Robots-Tag"]
    assert "Pine Ridge - Director" in page and "0 of 2 units tallied" in page
    assert "C.R.S. 1-13.5-1306(1)" in page and "Status: Counting" in page

    # The page's poll: the state and its ETag; the same ETag again is 304 and no body.
    status, headers, body = get(server, f"/observe/{token}/state.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    first = json.loads(body)
    assert headers["ETag"] == f'"{first["version"]}"' and first["state"]["tally"]["tallied"] == 0
    status, headers, body = get(server, f"/observe/{token}/state.json", headers={"If-None-Match": headers["ETag"]})
    assert status == 304 and body == b""

    # A sheet entered: the same ETag is no longer current; the running totals show it.
    sheet(services, case_id, "S-1", "Precinct 1", {"Dana Whitfield": 600, "Sam Okafor": 811})
    status, headers, body = get(server, f"/observe/{token}/state.json",
                                headers={"If-None-Match": f'"{first["version"]}"'})
    now = json.loads(body)
    assert status == 200 and now["version"] != first["version"]
    assert now["state"]["tally"]["tallied"] == 1
    assert now["state"]["tally"]["running_totals"] == [["Dana Whitfield", 600], ["Sam Okafor", 811]]
    assert "1 of 2 units tallied" in now["html"] and "811" in now["html"]

    # Completed: the result and the certificate, served under the observers' link.
    sheet(services, case_id, "S-2", "Precinct 2", {"Dana Whitfield": 747, "Sam Okafor": 590})
    complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO, actual_cost="350.00")
    status, _, body = get(server, f"/observe/{token}")
    page = body.decode()
    assert "The recount changes the result" in page and "Elected: <bdi>Sam Okafor</bdi>" in page
    href = re.search(r'href="([^"]+/certificates/\d+)"', page).group(1)
    status, headers, pdf = get(server, f"/observe/{href}")
    assert status == 200 and headers["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF")
    assert get(server, f"/observe/{token}/certificates/999999")[0] == 404

    # HEAD: the headers a GET would send, no body, and no view counted.
    status, headers, body = get(server, f"/observe/{token}", method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0
    with services.db.transaction() as s:
        assert s.scalar(select(ObserverLink.views)) == 2
    assert token not in caplog.text and f"observers' link {token[:4]}…: page served" in caplog.text


def test_an_expired_link_answers_410_and_a_new_link_works(server, services, clock) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    token = share(services, case_id)
    clock.advance(days=30, seconds=-1)
    assert get(server, f"/observe/{token}")[0] == 200
    clock.advance(seconds=1)
    status, headers, body = get(server, f"/observe/{token}")
    assert status == 410 and "has expired" in body.decode() and headers["Referrer-Policy"] == "no-referrer"
    status, _, body = get(server, f"/observe/{token}/state.json")
    assert status == 410 and json.loads(body)["state"] == "expired"
    assert get(server, f"/observe/{share(services, case_id)}")[0] == 200


def test_a_revoked_link_answers_410_and_revoking_twice_changes_nothing(server, services, clock) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    token = share(services, case_id)
    with services.db.transaction() as s:
        link_id = s.scalar(select(ObserverLink.id))
    assert links.revoke_link(services, workspace_id=services.workspace_id, link_id=link_id, actor=DEO).newly_revoked
    assert not links.revoke_link(services, workspace_id=services.workspace_id, link_id=link_id,
                                 actor=DEO).newly_revoked
    status, _, body = get(server, f"/observe/{token}")
    assert status == 410 and "revoked" in body.decode()
    assert json.loads(get(server, f"/observe/{token}/state.json")[2])["state"] == "revoked"
    with services.db.transaction() as s:
        actions = s.scalars(select(AuditEntry.action).where(AuditEntry.action.like("observers.%"))
                            .order_by(AuditEntry.id)).all()
    assert actions == ["observers.link_made", "observers.link_revoked"]  # refused loads are not views


def test_an_altered_or_unknown_token_answers_404(server, services, clock) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    token = share(services, case_id)
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    for path in (f"/observe/{altered}", f"/observe/{altered}/state.json", "/observe/", "/observe/%0Aevil",
                 f"/observe/{token}/elsewhere", f"/observe/{token}/certificates/x"):
        assert get(server, path)[0] == 404, path
    assert get(server, f"/observe/{token}", method="POST")[0] == 405


def test_a_double_click_makes_one_link(services, clock) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    share(services, case_id)
    again = links.share_link(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    assert not again.newly_made and again.link.token is None
    clock.advance(minutes=2)
    assert links.share_link(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO).newly_made


def test_page_loads_are_audited_by_link_id_once_per_interval_and_polls_are_not(server, services, clock) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    token = share(services, case_id)
    with services.db.transaction() as s:
        link_id = s.scalar(select(ObserverLink.id))
    get(server, f"/observe/{token}")
    for _ in range(3):
        get(server, f"/observe/{token}/state.json")
    clock.advance(minutes=5)
    get(server, f"/observe/{token}")  # within 10 minutes of the first entry: counted, not a new entry
    assert views_audited(services) == [{"link": link_id, "views": 1, "views_since_last_entry": 1,
                                        "first_view": True, "citation": "C.R.S. 1-13.5-1306(1)"}]
    clock.advance(minutes=5)
    get(server, f"/observe/{token}")
    assert views_audited(services)[1] == {"link": link_id, "views": 3, "views_since_last_entry": 2,
                                          "first_view": False, "citation": "C.R.S. 1-13.5-1306(1)"}
    with services.db.transaction() as s:
        entries = s.scalars(select(AuditEntry).where(AuditEntry.action.like("observers.%"))).all()
        assert {e.actor for e in entries if e.action == "observers.page_viewed"} == {f"observer-link:{link_id}"}
        assert all(token not in json.dumps(e.after) for e in entries)
        assert all(token not in json.dumps(e.after) and token not in e.actor for e in entries)


# ------------------------------------------------------------------------------------------ hostile names
def hostile_csv() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["contest", "choice", "votes", "kind", "unit"])
    contest = "Director <img src=x onerror=alert(2)>"
    for unit, votes in (("Precinct <1>", (500, 499, 10)), ("Precinct 2", (300, 300, 5))):
        for name, v in zip((SCRIPT_NAME, CHANNEL_NAME, RTL_NAME), votes):
            writer.writerow([contest, name, v, "candidate", unit])
    return out.getvalue().encode()


@pytest.fixture
def hostile_case(db):
    svc = Services(db, clock=Clock(START))
    import_returns(svc, team_id="T0HOSTILE", returns=parse_returns(hostile_csv()), election_name="Election <b>",
                   election_date=dt.date(2026, 11, 3), local_government="District & <i>Co</i>",
                   governing_body="Board", actor="test")
    access.bootstrap_official(svc, "T0HOSTILE", DEO, reason="test")
    svc.workspace_id = access.resolve_member(svc, "T0HOSTILE", DEO).workspace_id
    [verdict] = [v for v in check(svc, team_id="T0HOSTILE", actor=DEO, settings=OfficeSettings()).verdicts
                 if v.case_id is not None]
    start_counting(svc, workspace_id=svc.workspace_id, case_id=verdict.case_id, actor=DEO)
    set_up_count(svc, workspace_id=svc.workspace_id, case_id=verdict.case_id, method="paper", units=None,
                 double_entry=False, actor=DEO)
    sheet(svc, verdict.case_id, "S<1>", "Precinct <1>", {SCRIPT_NAME: 500, CHANNEL_NAME: 499, RTL_NAME: 10})
    return svc, verdict.case_id


def test_hostile_names_are_escaped_on_the_page_and_in_its_state(hostile_case) -> None:
    svc, case_id = hostile_case
    token = share(svc, case_id)
    app = build_app(services=svc, bot_token="xoxb-test-token", signing_secret="test-signing-secret-0123",
                    api_base_url="http://127.0.0.1:9/", verify_token=False)
    with RunningServer(WebApp(app, svc.db, clock=svc.clock)) as running:
        page = get(running, f"/observe/{token}")[2].decode()
        fragment = json.loads(get(running, f"/observe/{token}/state.json")[2])["html"]
    for text in (page, fragment):
        assert "<script>alert" not in text and "<img" not in text and "<!channel>" not in text
        assert "<b>" not in text and "<i>" not in text and "<1>" not in text
        assert "<bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi>" in text
        assert "<bdi>&lt;!channel&gt; Ana &amp; &quot;Bo&quot;</bdi>" in text
        assert "<bdi>\u05de\u05e8\u05d9\u05dd \u202e&lt;b&gt;ltr&lt;/b&gt;</bdi>" in text  # isolated, escaped
    assert page.count("<script") == 1  # the page's own script, with its nonce
    assert "Director &lt;img src=x onerror=alert(2)&gt;" in page and "District &amp; &lt;i&gt;Co&lt;/i&gt;" in page
