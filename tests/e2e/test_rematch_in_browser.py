"""One more game in real browsers: after a game (a short one, staged: a player's clock runs
out), both people see the offer at the top of the page, on a phone and a wide desktop
alike, with the bot already agreeing; each accepts by clicking, and both pages go to the
new game, where everyone sits one seat on.  A player who leaves the game is waited for by
nobody: the others see at once that the offer is closed, and why (issue 42, defect 8)."""

from __future__ import annotations

import re

import pytest

from games import rules
from django.utils import timezone

from games.models import Match, Rematch

from .conftest import WIDE
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def person_line(page, name):
    return page.locator("#rematch .rematch-people li", has_text=name)


def clock_runs_out(game) -> None:
    """The turn's deadline passes now: the server's clock times out the player to move."""
    Match.objects.filter(pk=game.pk).update(deadline=timezone.now())


def in_sight_unscrolled(page, selector: str) -> bool:
    """Whether ``selector`` is wholly in the viewport with the page at its top."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return window.scrollY === 0 && box.top >= 0 && box.bottom <= window.innerHeight
            && box.height > 0;
    }""", selector)


def test_after_a_game_all_accept_and_the_new_game_starts_with_seats_turned(
        people, daphne_server, make_user, make_match, tmp_path):
    state = a_moment(lambda s: s.round >= 2 and s.turn == 0, seats=3)  # masha to move
    users = [make_user("masha"), make_user("alex")]
    game = running_match(make_match, [*users, None], state, rated=False)  # seat 2: a bot
    bot = game.seats.get(number=2).bot_name
    masha, alex = people("masha", viewport=WIDE), people("alex", phone=True)
    for person, user in ((masha, users[0]), (alex, users[1])):
        person.log_in_as(user, daphne_server)
        person.page.goto(f"/games/{game.pk}/")
        person.page.locator("#room[data-status='playing']").wait_for()

    clock_runs_out(game)
    for person in (masha, alex):
        person.page.locator('#rematch[data-rematch="open"]').wait_for()
        # While its clock runs, the offer and its button are in sight without scrolling.
        assert in_sight_unscrolled(person.page, '[data-action="rematch-accept"]')
        assert in_sight_unscrolled(person.page, "#rematch .rematch-title")
        # Everyone one seat on: the bot (seat 2) first, then masha and alex.
        assert person.page.locator("#rematch .rematch-people .name").all_inner_texts() == [
            bot, "masha", "alex"]
        assert person_line(person.page, bot).locator(".answer").inner_text() == "да"
        assert person.page.locator("#rematch [data-commitment]").inner_text() == \
            Rematch.objects.get(game=game).table.commitment
    # (caret="initial": hiding the caret sets a style on the field, which the offer's next
    # swap would copy over, and the page's Content-Security-Policy refuse.)
    alex.page.screenshot(path=str(tmp_path / "offer-phone.png"), caret="initial")
    masha.page.screenshot(path=str(tmp_path / "offer-desktop.png"), caret="initial")
    assert alex.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    alex.page.locator('[data-action="rematch-accept"]').click()
    person_line(masha.page, "alex").locator(".answer", has_text="да").wait_for()
    alex.page.locator("#rematch", has_text="Вы согласились").wait_for()
    alex.page.screenshot(path=str(tmp_path / "accepted-phone.png"), full_page=True)
    masha.page.locator('[data-action="rematch-accept"]').click()

    new = None
    for person in (masha, alex):
        person.page.wait_for_url(re.compile(r"/games/(?!%d/)\d+/$" % game.pk))
        person.page.locator("#room[data-status='playing']").wait_for()
        new = int(re.search(r"/games/(\d+)/", person.page.url).group(1))
    match = Match.objects.get(pk=new)
    assert Rematch.objects.get(game=game).table_id == new
    assert {s.number: s.name for s in match.seats.all()} == {0: bot, 1: "masha", 2: "alex"}
    seeds = match.client_seeds
    assert seeds[0] == "0" and all(re.fullmatch(r"[0-9a-f]{32}", s) for s in seeds[1:])
    assert seeds[1] != seeds[2]  # each browser's own
    assert rules.GameState.from_json(match.state).round == 1
    alex.page.screenshot(path=str(tmp_path / "new-game-phone.png"), full_page=True)
    assert [e for p in (masha, alex) for e in p.errors] == []


def test_a_decline_is_seen_at_once_by_the_other(people, daphne_server, make_user, make_match,
                                                 tmp_path):
    state = a_moment(lambda s: s.round >= 2)
    users = [make_user("vera"), make_user("oleg")]
    game = running_match(make_match, users, state)
    vera, oleg = people("vera", phone=True), people("oleg", viewport=WIDE)
    for person, user in ((vera, users[0]), (oleg, users[1])):
        person.enter_room(user, daphne_server, game.pk)
        person.page.locator("#room[data-status='playing']").wait_for()
    clock_runs_out(game)
    vera.page.locator('[data-action="rematch-decline"]').click()
    for person in (vera, oleg):
        person.page.locator('#rematch[data-rematch="withdrawn"]').wait_for()
        assert "Отказ: vera." in person.page.locator("#rematch").inner_text()
        assert person.page.locator('#rematch [data-action^="rematch"]').count() == 0
    assert Rematch.objects.get(game=game).table is None
    vera.page.screenshot(path=str(tmp_path / "declined-phone.png"), full_page=True)
    assert [e for p in (vera, oleg) for e in p.errors] == []


def test_one_who_leaves_is_not_waited_for_and_the_others_see_it_at_once(
        people, daphne_server, make_user, make_match, tmp_path):
    state = a_moment(lambda s: s.round >= 2, seats=3)
    users = [make_user("nina"), make_user("ivan"), make_user("lena")]
    game = running_match(make_match, users, state)
    nina = people("nina", phone=True)
    ivan = people("ivan", viewport=WIDE)
    lena = people("lena")
    for person, user in ((nina, users[0]), (ivan, users[1]), (lena, users[2])):
        person.enter_room(user, daphne_server, game.pk)
        person.page.locator("#room[data-status='playing']").wait_for()
    lena.page.on("dialog", lambda dialog: dialog.accept())  # "Leave the game?"
    lena.page.locator('[data-action="leave"]').click()
    for person in (nina, ivan):
        person.page.locator('#rematch[data-rematch="withdrawn"]').wait_for()
        text = person.page.locator("#rematch").inner_text()
        assert "Предложение больше не действует." in text and "Выход из игры: lena." in text
        # Nobody is asked to answer, nor waits: no button, no clock.
        assert person.page.locator('#rematch [data-action^="rematch"]').count() == 0
        assert person.page.locator("#rematch .clock").count() == 0
        assert in_sight_unscrolled(person.page, "#rematch")
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.table) == ("withdrawn", "left", None)
    nina.page.screenshot(path=str(tmp_path / "left-phone.png"))
    ivan.page.screenshot(path=str(tmp_path / "left-wide.png"))
    assert [e for p in (nina, ivan, lena) for e in p.errors] == []
