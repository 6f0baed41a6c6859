"""Two offices on one install never see or touch each other's records: every id a request carries (a case in a
button's value, a case number typed after `/recount record`, an observers' link) is looked up in the workspace
the request comes from, and each office's posts go out with its own workspace's token."""
from __future__ import annotations

from sqlalchemy import func, select

from handlers.ids import Action
from storage.models import AuditEntry, ObserverLink, RecountCase, Workspace
from tests.flows.offices.conftest import load_returns
from tests.support.offices import OFFICE_A, OFFICE_B, Office, TwoOffices
from tests.support.slack_app import text_of


def _check(offices: TwoOffices, office: Office) -> list[dict]:
    """`/recount check` in the office's channel; its verdict and case cards as posted."""
    before = len(offices.posted(office.channel))
    offices.command("check", team=office.team, user=office.official, channel=office.channel)
    offices.settle()
    return offices.posted(office.channel)[before:]


def _card(posts: list[dict], action: Action) -> dict:
    return next(p for p in posts if any(e.get("action_id") == action.value for b in p.get("blocks", [])
                                        for e in b.get("elements", []) + [b.get("accessory") or {}]))


def _button_value(message: dict, action: Action) -> str:
    for block in message.get("blocks", []):
        for element in block.get("elements", []) + [block.get("accessory") or {}]:
            if element.get("action_id") == action.value:
                return element["value"]
    raise AssertionError(f"no {action.value} button")


def _told(offices: TwoOffices, count: int) -> str:
    return text_of(offices.wait("response_url", count=count)[count - 1].args)


def _audit_rows(offices: TwoOffices) -> int:
    with offices.db.read() as session:
        return session.scalar(select(func.count()).select_from(AuditEntry))


def _both_checked(installed: TwoOffices) -> tuple[list[dict], list[dict]]:
    load_returns(installed, OFFICE_A, name="Adams Election")
    load_returns(installed, OFFICE_B, name="Boulder Election")
    return _check(installed, OFFICE_A), _check(installed, OFFICE_B)


def test_each_office_checks_only_its_own_elections_and_posts_with_its_own_token(installed) -> None:
    posts_a, posts_b = _both_checked(installed)
    assert len(posts_a) == 3 and len(posts_b) == 3  # a verdict and two case cards each
    assert "Adams Election" in text_of(posts_a[0]) and "Boulder" not in text_of(posts_a[0])
    assert "Boulder Election" in text_of(posts_b[0]) and "Adams" not in text_of(posts_b[0])
    tokens = {OFFICE_A.channel: installed.token_of(OFFICE_A), OFFICE_B.channel: installed.token_of(OFFICE_B)}
    posts = installed.slack.calls_to("chat.postMessage")
    assert len(posts) == 6 and all(c.response["ok"] for c in posts)
    for call in posts:
        assert call.headers["Authorization"] == f"Bearer {tokens[call.args['channel']]}"
    with installed.db.read() as session:
        offices = dict(session.execute(select(Workspace.slack_team_id, Workspace.id)).all())
        opened = session.execute(select(RecountCase.workspace_id, func.count()).group_by(RecountCase.workspace_id))
        assert dict(opened.all()) == {offices[OFFICE_A.team]: 2, offices[OFFICE_B.team]: 2}


def test_a_button_from_one_office_carrying_the_others_case_is_refused_and_changes_nothing(installed) -> None:
    posts_a, _ = _both_checked(installed)
    card_a = _card(posts_a, Action.SHARE_OBSERVER_LINK)
    audit = _audit_rows(installed)
    # B's official clicks with A's case id (a forged payload, or a copied message): looked up in B's office.
    installed.click(card_a, Action.SHARE_OBSERVER_LINK.value, team=OFFICE_B.team, user=OFFICE_B.official,
                    channel=OFFICE_B.channel)
    assert "does not exist in this office" in _told(installed, 1)
    with installed.db.read() as session:
        assert session.scalar(select(func.count()).select_from(ObserverLink)) == 0
    assert _audit_rows(installed) == audit
    # The same click from A's own official works: the refusal above was about the office, nothing else.
    installed.click(card_a, Action.SHARE_OBSERVER_LINK.value, team=OFFICE_A.team, user=OFFICE_A.official,
                    channel=OFFICE_A.channel)
    assert "Observers' link #1" in _told(installed, 2)


def test_an_observers_link_of_one_office_cannot_be_revoked_from_the_other(installed) -> None:
    posts_a, posts_b = _both_checked(installed)
    card_a = _card(posts_a, Action.SHARE_OBSERVER_LINK)
    installed.click(card_a, Action.SHARE_OBSERVER_LINK.value, team=OFFICE_A.team, user=OFFICE_A.official,
                    channel=OFFICE_A.channel)
    _told(installed, 1)
    with installed.db.read() as session:
        link_id = session.scalar(select(ObserverLink.id))
    card_b = _card(posts_b, Action.SHARE_OBSERVER_LINK)
    # B's card has no revoke button; a payload carrying the revoke action and A's link id is forged from B's card.
    forged = {**card_b, "blocks": card_b["blocks"] + [{"type": "actions", "block_id": "forged", "elements": [
        {"type": "button", "action_id": Action.REVOKE_OBSERVER_LINK.value, "value": str(link_id),
         "text": {"type": "plain_text", "text": "Revoke"}}]}]}
    installed.click(forged, Action.REVOKE_OBSERVER_LINK.value, team=OFFICE_B.team, user=OFFICE_B.official,
                    channel=OFFICE_B.channel)
    assert "does not exist in this office" in _told(installed, 2)
    with installed.db.read() as session:
        assert session.get(ObserverLink, link_id).revoked_at is None


def test_recount_record_of_the_other_offices_case_finds_nothing(installed) -> None:
    _both_checked(installed)
    with installed.db.read() as session:
        a_id = session.scalar(select(Workspace.id).where(Workspace.slack_team_id == OFFICE_A.team))
        case_a = session.scalar(select(RecountCase.id).where(RecountCase.workspace_id == a_id))
    uploads = len(installed.slack.calls_to("files.getUploadURLExternal"))
    installed.command(f"record {case_a}", team=OFFICE_B.team, user=OFFICE_B.official, channel=OFFICE_B.channel)
    assert f"There is no recount case #{case_a} in this office" in _told(installed, 1)
    assert len(installed.slack.calls_to("files.getUploadURLExternal")) == uploads  # no record left the bot
    installed.command(f"record {case_a}", team=OFFICE_A.team, user=OFFICE_A.official, channel=OFFICE_A.channel)
    assert f"The record of case #{case_a}" in _told(installed, 2)


def test_the_worker_posts_each_offices_queued_edits_with_that_offices_token(installed) -> None:
    posts_a, posts_b = _both_checked(installed)
    for office, posts in ((OFFICE_A, posts_a), (OFFICE_B, posts_b)):
        installed.click(_card(posts, Action.SHARE_OBSERVER_LINK), Action.SHARE_OBSERVER_LINK.value,
                        team=office.team, user=office.official, channel=office.channel)
    installed.settle()
    edits = installed.slack.calls_to("chat.update")  # the cards' edits, sent by the worker from the outbox
    assert {c.args["channel"] for c in edits} == {OFFICE_A.channel, OFFICE_B.channel}
    tokens = {OFFICE_A.channel: installed.token_of(OFFICE_A), OFFICE_B.channel: installed.token_of(OFFICE_B)}
    for call in edits + installed.slack.calls_to("chat.postMessage"):
        assert call.response["ok"], call
        assert call.headers["Authorization"] == f"Bearer {tokens[call.args['channel']]}"
