"""Certificate links (issue 14, items 8 and 10), on each database: only a token's SHA-256 is stored, so what a
database reader sees does not work as a link while the link does; links made before revision 0005 keep working
after the upgrade; HEAD answers headers only on a kept-alive connection; the file name in Content-Disposition is
bounded and safe (RFC 6266, with an RFC 5987 `filename*`)."""
from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import io
import logging
import secrets
import urllib.parse

import pytest
from pypdf import PdfReader
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError

from bot.app_factory import build_app
from bot.web.server import RunningServer, WebApp
from services.completion.certificates import CertificateDocument, LinkState
from services.documents.certificate import CertificateFacts
from services.services import Services
from storage.db import Database
from storage.migrate import upgrade
from storage.models import Certificate
from storage.models.conduct import link_token_sha256
from tests.bot.test_certificate_links import START, clock, completed, get, server  # noqa: F401
from tests.services.test_completion_services import services  # noqa: F401
from tests.support.databases import fresh_database_url
from tests.support.slack_app import Clock


def stored_rows(db: Database) -> list[dict]:
    with db.engine.connect() as conn:
        return [dict(row._mapping) for row in conn.execute(text("SELECT * FROM certificates"))]


def test_only_the_hash_is_stored_and_it_is_no_link(services, completed, server) -> None:  # noqa: F811
    _, token = completed
    [row] = stored_rows(services.db)
    assert row["token_sha256"] == hashlib.sha256(token.encode()).hexdigest() == link_token_sha256(token)
    assert "token" not in row and all(token not in str(value) for value in row.values())
    assert get(server, f"/certificates/{token}")[0] == 200
    assert get(server, f"/certificates/{row['token_sha256']}")[0] == 404  # 64 characters of [0-9a-f]: looks like one


def test_a_path_that_is_no_token_does_not_write_into_the_log(server, caplog) -> None:  # noqa: F811
    caplog.set_level(logging.INFO, logger="recount_bot")
    for path in ("/certificates/%0Aforged%20line", "/certificates/%1b[31mred", "/certificates/\u202e" + "A" * 42):
        assert get(server, urllib.parse.quote(path, safe="/%"))[0] == 404
    messages = [r.getMessage() for r in caplog.records if r.name == "recount_bot.server"]
    assert messages == ["certificate link ????…: unknown"] * 3


def head_then_get(connection: http.client.HTTPConnection, path: str) -> tuple[http.client.HTTPResponse, bytes,
                                                                             http.client.HTTPResponse, bytes]:
    connection.request("HEAD", path)
    head = connection.getresponse()
    head_body = head.read()
    connection.request("GET", path)
    got = connection.getresponse()
    return head, head_body, got, got.read()


def test_head_on_a_certificate_link_sends_headers_only_and_keeps_the_connection_intact(
        services, completed, server, clock) -> None:  # noqa: F811
    _, token = completed
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        head, head_body, got, pdf = head_then_get(connection, f"/certificates/{token}")
        assert head.status == got.status == 200 and head_body == b""
        assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
        assert int(head.getheader("Content-Length")) == len(pdf) == int(got.getheader("Content-Length"))
        assert head.getheader("Content-Type") == got.getheader("Content-Type") == "application/pdf"
        assert head.getheader("Content-Disposition") == got.getheader("Content-Disposition")
        assert "Sam Okafor" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        clock.advance(days=31)
        head, head_body, got, gone = head_then_get(connection, f"/certificates/{token}")
        assert head.status == got.status == 410 and head_body == b"" and b"has expired" in gone
        head, head_body, got, missing = head_then_get(connection, "/certificates/" + "B" * 43)
        assert head.status == got.status == 404 and head_body == b"" and missing == b"Not Found"
    finally:
        connection.close()


@pytest.mark.parametrize("name, ascii_name, unicode_name", [
    ("Sam Okafor", "Sam-Okafor", None),
    ("José Núñez-Ávila", "Jose-Nunez-Avila", "José-Núñez-Ávila"),
    ("王小明", "candidate", "王小明"),
    ("דוד כהן", "candidate", "דוד-כהן"),
    ("محمد علي", "candidate", "محمد-علي"),
    ("हिन्दी नाम", "candidate", "हिन्दी-नाम"),  # vowel signs are marks (Mn/Mc): kept, not split off
    ("Ann\u202eevil\u202c \"quoted\"; name=x\r\nX-Injected: 1", "Ann-evil-quoted-name-x-X-Injected-1", None),
    ("Zoë 🗳️ Ray", "Zoe-Ray", "Zoë-Ray"),
])
def test_a_file_name_is_safe_ascii_with_the_name_as_written_beside_it(name, ascii_name, unicode_name) -> None:
    document = CertificateDocument(LinkState.FOUND, CertificateFacts(
        candidate=name, votes=1, office="Director", election="Regular", election_date=dt.date(2026, 11, 3),
        local_government="Pine Ridge", issued_on=dt.date(2026, 11, 10), case_id=1, seats=1))
    header = document.content_disposition()
    assert header.isascii() and "\r" not in header and "\n" not in header
    assert header.startswith(f'inline; filename="certificate-of-election-{ascii_name}.pdf"')
    if unicode_name is None:
        assert "filename*" not in header
    else:
        encoded = header.split("; filename*=UTF-8''", 1)[1]
        assert urllib.parse.unquote(encoded) == f"certificate-of-election-{unicode_name}.pdf"


def test_a_ten_thousand_character_name_gives_a_short_header(services, completed, server, backend) -> None:  # noqa: F811
    _, token = completed
    # SQLite keeps whatever it is given; PostgreSQL holds the column to its 300 characters.
    name = ("Ñandú Ωmega " * 900)[:10_000 if backend == "sqlite" else 300]
    with services.db.transaction() as s:
        s.execute(update(Certificate).values(candidate=name))
    status, headers, body = get(server, f"/certificates/{token}", method="HEAD")
    assert status == 200 and body == b""
    disposition = headers["Content-Disposition"]
    assert len(disposition) < 400 and disposition.isascii()
    fallback = disposition.split('filename="', 1)[1].split('"', 1)[0]
    assert fallback.startswith("certificate-of-election-Nandu-mega-Nandu") and len(fallback) <= 90
    as_written = urllib.parse.unquote(disposition.split("filename*=UTF-8''", 1)[1])
    assert as_written.startswith("certificate-of-election-Ñandú-Ωmega-Ñandú") and len(as_written) <= 90


# ---------------------------------------------------------------- revision 0005 on a database holding links
def _insert_before_0005(conn, token: str, expires: dt.datetime) -> None:
    at = dt.datetime(2026, 11, 10, 17, 0)
    conn.execute(text("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                      "VALUES (1, 'T0OLD', 'Office', '{}', :at)"), {"at": at})
    conn.execute(text("INSERT INTO local_governments (id, workspace_id, name, governing_body) "
                      "VALUES (1, 1, 'Pine Ridge', 'Board')"))
    conn.execute(text("INSERT INTO elections (id, local_government_id, name, election_date, created_at) "
                      "VALUES (1, 1, 'Regular Election', :day, :at)"), {"day": dt.date(2026, 11, 3), "at": at})
    conn.execute(text("INSERT INTO contests (id, election_id, name, kind, seats, position) "
                      "VALUES (1, 1, 'Pine Ridge - Director', 'candidate', 1, 0)"))
    conn.execute(text("INSERT INTO survey_versions (id, election_id, number, reason, evidence, source_format, "
                      "source_name, created_by, created_at) VALUES (1, 1, 1, 'first', '[]', 'csv', 'x.csv', 'test', "
                      ":at)"), {"at": at})
    conn.execute(text("INSERT INTO recount_cases (id, workspace_id, contest_id, kind, status, opened_at, opened_by, "
                      "survey_version_id, multi_seat_rule, verdict, completed_at) VALUES (1, 1, 1, 'requested', "
                      "'completed', :at, 'U0DEO', 1, 'last_winner_vs_first_loser', '{}', :at)"), {"at": at})
    for row_id, candidate, row_token in ((1, "Sam Okafor", token), (2, "Old Expired", secrets.token_urlsafe(32))):
        conn.execute(text("INSERT INTO certificates (id, case_id, candidate, votes, token, created_at, expires_at) "
                          "VALUES (:id, 1, :candidate, 1401, :token, :at, :expires)"),
                     {"id": row_id, "candidate": candidate, "token": row_token, "at": at,
                      "expires": expires if row_id == 1 else at})


def test_upgrading_to_0005_hashes_the_tokens_and_the_links_handed_out_keep_working(backend, tmp_path) -> None:
    token = secrets.token_urlsafe(32)
    with fresh_database_url(backend, tmp_path) as url:
        db = Database(url)
        try:
            upgrade(db, "0004")
            with db.engine.begin() as conn:
                _insert_before_0005(conn, token, dt.datetime(2026, 12, 10, 17, 0))
            upgrade(db, "0005")
            rows = {row["id"]: row for row in stored_rows(db)}
            assert rows[1]["token_sha256"] == hashlib.sha256(token.encode()).hexdigest()
            assert "token" not in rows[1] and all(token not in str(v) for row in rows.values() for v in row.values())
            assert len({row["token_sha256"] for row in rows.values()}) == 2
            with db.engine.connect() as conn, pytest.raises(IntegrityError):  # still unique
                conn.execute(text("UPDATE certificates SET token_sha256 = :h WHERE id = 2"),
                             {"h": rows[1]["token_sha256"]})
                conn.commit()
            upgrade(db)
            services = Services(db, clock=Clock(START))
            app = build_app(services=services, bot_token="xoxb-test-token", signing_secret="test-signing-secret-0123",
                            api_base_url="http://127.0.0.1:9/", verify_token=False)
            with RunningServer(WebApp(app, db, clock=services.clock)) as running:
                status, headers, body = get(running, f"/certificates/{token}")
                assert status == 200 and body.startswith(b"%PDF")
                assert headers["Content-Disposition"] == 'inline; filename="certificate-of-election-Sam-Okafor.pdf"'
                assert get(running, f"/certificates/{rows[1]['token_sha256']}")[0] == 404
                services.clock.advance(days=31)
                assert get(running, f"/certificates/{token}")[0] == 410
        finally:
            db.dispose()
