"""Every page of the site, opened in Chromium under the Content-Security-Policy: nothing
refused (the people fixture fails the test on any refusal Chromium reports), no script
error, and what moved from inline code to static files still works (the replay's keys).
"""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

ANYONE = ["/", "/rules/", "/rules/fair/", "/ratings/", "/accounts/login/", "/accounts/signup/",
          "/accounts/password/reset/", "/no-such-page/"]


def visit(person, path: str) -> None:
    person.page.goto(path)
    person.page.wait_for_load_state("load")


def test_the_pages_anyone_sees(people):
    visitor = people("visitor")
    for path in ANYONE:
        visit(visitor, path)
    assert visitor.errors == []


@pytest.fixture
def finished_game(make_user):
    """A game played to its end."""
    from tests.ratings import played

    players = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    record = played.load("finished_rules8")
    return played.play(played.seat_table(players, record), players, record), players


def test_a_players_pages_a_finished_game_and_its_replay(finished_game, people, daphne_server):
    match, players = finished_game
    masha = people("masha")
    masha.log_in_as(players[0], daphne_server)
    for path in ["/", "/players/Masha/", "/accounts/password/change/", f"/games/{match.pk}/",
                 f"/games/{match.pk}/record/"]:
        visit(masha, path)

    # The replay's arrow keys (static/js/replay.js, once an htmx trigger filter, which
    # the policy's lack of eval refuses) step through the moves.
    visit(masha, f"/games/{match.pk}/replay/?step=1")
    # (Polled by Playwright, not in the page: the policy refuses the eval that would take.)
    from playwright.sync_api import expect

    step_count = masha.page.locator(".step-count")
    expect(step_count).to_have_text(re.compile(r"^Ход 1 из \d+"))
    masha.page.keyboard.press("ArrowRight")
    expect(step_count).to_have_text(re.compile(r"^Ход 2 из \d+"))
    masha.page.keyboard.press("ArrowLeft")
    expect(step_count).to_have_text(re.compile(r"^Ход 1 из \d+"))
    assert masha.errors == []


def test_the_admin_and_the_moderation_pages(people, daphne_server, make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    person = people("boss")
    person.log_in_as(boss, daphne_server)
    reported_chat_line(make_user)
    for path in ["/admin/", "/admin/games/match/", "/admin/accounts/user/", f"/admin/accounts/user/{boss.pk}/change/",
                 "/moderation/", "/moderation/players/", "/moderation/chat/"]:
        visit(person, path)
    assert person.errors == []


def reported_chat_line(make_user):
    """A chat line someone reported, so that the moderators' chat page has its forms."""
    from games.models import ChatMessage, ChatReport, Match

    match = Match.objects.create(seats_count=2)
    line = ChatMessage.objects.create(match=match, author=make_user("rude"), room="players",
                                      text="a rude line")
    ChatReport.objects.create(message=line, reporter=make_user("reporter"))

