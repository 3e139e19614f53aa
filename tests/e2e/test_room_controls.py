"""Playing at the table by its new controls, in a real browser, and what the room tells a
player: a tile that fits both ends goes where the lit end tapped (a phone) or the end it
is dragged to (a mouse) says; a tile that fits one end goes there on a tap; when it
becomes a player's turn the tab's title says "Ваш ход", a chime sounds, a phone vibrates
and, if the player allowed notifications and the tab is out of sight, a notification
says so (none otherwise); 5 s before the time runs out a warning sounds and a phone
buzzes; the sound can be switched off and stays off, and a spectator's is off at first.

Each game is staged (tests/e2e/staging.py) between two people, with the turn's deadline
an hour away, so that nothing moves but what the test does."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import rules

from .staging import a_moment, can_draw, running_match
from .test_play_in_browser import wait_for_script

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

# The page's own record of the last sound it made (static/js/feedback.js).
LAST_SOUND = "document.querySelector('[data-room]').dataset.lastSound || ''"


def fits_both_ends(state, seat: int = 0) -> str | None:
    """A tile the seat to move may play on either end, the ends showing different values."""
    if state.phase != rules.PLAYING or state.turn != seat or not state.chain \
            or state.left == state.right:
        return None
    ends: dict[str, set] = {}
    for action in rules.legal_actions(state):
        if action.kind == rules.PLAY:
            ends.setdefault(action.tile.name, set()).add(action.end)
    return next((tile for tile, sides in ends.items() if len(sides) == 2), None)


def fits_one_end(state, seat: int = 0) -> tuple[str, str] | None:
    if state.phase != rules.PLAYING or state.turn != seat or not state.chain:
        return None
    ends: dict[str, set] = {}
    for action in rules.legal_actions(state):
        if action.kind == rules.PLAY:
            ends.setdefault(action.tile.name, set()).add(action.end)
    return next(((tile, sides.pop()) for tile, sides in ends.items() if len(sides) == 1), None)


def table_of(people, daphne_server, make_user, make_match, wanted, phone: bool):
    state = a_moment(wanted)
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, state)
    person = people("masha", phone=phone)
    person.enter_room(users[0], daphne_server, match.pk)
    person.page.locator('#room[data-turn-mine="true"]').wait_for()
    return person, state, match, users


def last_line(page) -> str:
    return page.locator("#table .round-log li").last.inner_text()


def test_on_a_phone_a_tile_that_fits_both_ends_goes_to_the_lit_end_tapped(
        people, daphne_server, make_user, make_match, tmp_path, end="left"):
    person, state, _match, _users = table_of(people, daphne_server, make_user, make_match,
                                             fits_both_ends, phone=True)
    page = person.page
    tile = fits_both_ends(state)
    page.locator(f'#room [data-tile="{tile}"]').tap()
    # Chosen: both ends lit, nothing sent yet.
    expect(page.locator("#table .open-end.lit")).to_have_count(2)
    expect(page.locator(f'#room [data-tile="{tile}"]')).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(tmp_path / "chosen.png"), full_page=True)
    version = page.locator("#room").get_attribute("data-version")
    page.locator(f'#table .open-end.lit[data-end="{end}"]').tap()
    expect(page.locator("#room")).not_to_have_attribute("data-version", version)
    expect(page.locator(f"#table .chain-tile.last[data-tile='{tile}']")).to_have_count(1)
    # It slid from the hand to its place (static/js/table.js: from where it was, to 0).
    assert page.locator("#table .chain-tile.last").evaluate("t => t.style.translate") == "0px"
    # The end named by the value it showed, as the board's marker showed it (issue 42).
    assert last_line(page) == f"masha: {tile} к {shown_on(state, end)}"
    chain = page.locator("#table .chain-tile")
    placed = chain.first if end == "left" else chain.last
    assert placed.get_attribute("data-tile") == tile
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert person.errors == []


def shown_on(state, end: str) -> int:
    """The value the chain's ``end`` showed before the move (its marker's number)."""
    return state.left if end == "left" else state.right


def test_on_a_phone_a_tile_that_fits_one_end_goes_there_on_a_tap(
        people, daphne_server, make_user, make_match):
    person, state, _match, _users = table_of(people, daphne_server, make_user, make_match,
                                             fits_one_end, phone=True)
    page = person.page
    tile, end = fits_one_end(state)
    assert person.play(tile) is True  # one tap
    expect(page.locator(f"#table .chain-tile.last[data-tile='{tile}']")).to_have_count(1)
    assert last_line(page) == f"masha: {tile} к {shown_on(state, end)}"
    assert person.errors == []


def test_with_a_mouse_a_tile_is_dragged_onto_an_end(people, daphne_server, make_user,
                                                     make_match, end="right"):
    person, state, _match, _users = table_of(people, daphne_server, make_user, make_match,
                                             fits_both_ends, phone=False)
    page = person.page
    tile = fits_both_ends(state)
    slide = "() => getComputedStyle(document.querySelector('#table .chain-tile')).transitionDuration"
    assert page.evaluate(slide) == "0.35s"
    page.emulate_media(reduced_motion="reduce")  # and no slide then
    assert page.evaluate(slide) == "0s"
    source = page.locator(f'#room [data-tile="{tile}"]')
    target = page.locator(f'#table .open-end[data-end="{end}"]')
    # By hand, to see the ends lit while the tile is dragged.
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] - 30, steps=3)
    expect(page.locator("#table .open-end.lit")).to_have_count(2)
    to = target.bounding_box()
    page.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=5)
    page.mouse.up()
    expect(page.locator(f"#table .chain-tile.last[data-tile='{tile}']")).to_have_count(1)
    assert last_line(page) == f"masha: {tile} к {shown_on(state, end)}"
    assert page.locator(".drag-ghost").count() == 0
    assert page.locator("#table .chain-tile.last").evaluate("t => t.style.translate") == ""
    assert person.errors == []


def test_a_tile_dropped_off_the_ends_is_not_played(people, daphne_server, make_user,
                                                  make_match):
    from games.models import Match

    person, state, match, _users = table_of(people, daphne_server, make_user, make_match,
                                            fits_both_ends, phone=False)
    page = person.page
    tile = fits_both_ends(state)
    page.locator(f'#room [data-tile="{tile}"]').drag_to(page.locator("#table .room-bar"))
    expect(page.locator("#table .open-end.lit")).to_have_count(0)
    # Then played for real: the one move the match has made is this one.
    assert person.play(tile, "left", how="drag")
    expect(page.locator(f"#table .chain-tile.last[data-tile='{tile}']")).to_have_count(1)
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert last_line(page) == f"masha: {tile} к {shown_on(state, 'left')}"
    assert person.errors == []


def test_my_turn_says_so_in_the_title_with_a_chime_and_sounds_can_be_switched_off(
        people, daphne_server, make_user, make_match):
    # Masha (a phone) is to move; Alex (a desktop) waits, and is told when it is his turn.
    state = a_moment(lambda s: fits_one_end(s) is not None
                     and any(a.kind == rules.PLAY for a in rules.legal_actions(s)))
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, state)
    masha, alex = people("masha", phone=True), people("alex")
    for person, user in ((masha, users[0]), (alex, users[1])):
        person.enter_room(user, daphne_server, match.pk)
    expect(masha.page).to_have_title(re.compile("^Ваш ход — "))
    assert not alex.page.title().startswith("Ваш ход")
    # A player's sound is on at first; Masha switches hers off.
    switch = masha.page.locator("[data-sound-toggle]")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "false")
    alex.page.locator("#table").click(position={"x": 5, "y": 5})  # a gesture: sound may start

    masha.play(fits_one_end(state)[0])
    expect(alex.page).to_have_title(re.compile("^Ваш ход — "))
    expect(masha.page).not_to_have_title(re.compile("^Ваш ход"))
    expect(alex.page.locator('#room[data-turn-mine="true"]')).to_have_count(1)
    wait_for_script(alex.page, f"{LAST_SOUND} === 'turn'", seconds=15)  # the play's sound, then the chime
    assert masha.page.evaluate(LAST_SOUND) == ""  # her sound is off: nothing played

    # Her choice is remembered.
    masha.page.reload()
    expect(masha.page.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")
    assert masha.errors + alex.errors == []


def test_five_seconds_before_my_time_runs_out_the_room_warns(people, daphne_server,
                                                            make_user, make_match):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match

    state = a_moment(lambda s: s.turn == 0)
    match = running_match(make_match, [make_user("masha"), make_user("alex")], state)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=8))
    person = people("masha", phone=True)
    person.context.add_init_script(FEEDBACK_HOOKS)
    person.enter_room(match.seats.get(number=0).user, daphne_server, match.pk)
    assert person.page.evaluate(LAST_SOUND) == ""
    assert person.page.evaluate("window.kozelVibrated") == []
    wait_for_script(person.page, f"{LAST_SOUND} === 'hurry'", seconds=10)
    expect(person.page.locator("#table .clock.hurry")).to_have_count(1)
    assert person.page.evaluate("window.kozelVibrated") == [200]  # a phone buzzes too
    assert person.errors == []


def test_a_spectators_sound_is_off_at_first(people, daphne_server, make_user, make_match):
    state = a_moment(lambda s: s.turn == 0)
    match = running_match(make_match, [make_user("masha"), make_user("alex")], state)
    watcher = people("watcher")
    watcher.enter_room(make_user("watcher"), daphne_server, match.pk)
    expect(watcher.page.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")
    assert watcher.page.locator("#room [data-hand]").count() == 0
    expect(watcher.page.locator("[data-notify-toggle]")).to_be_hidden()
    assert not watcher.page.title().startswith("Ваш ход")
    assert watcher.errors == []



# Installed before the page's own scripts: records each notification the page makes and
# each vibration it asks for (headless Chromium shows neither), and lets the test say
# whether the tab is hidden (a notification is for a tab out of sight).
FEEDBACK_HOOKS = """(() => {
  const Real = window.Notification;
  window.kozelNotified = [];
  window.kozelVibrated = [];
  window.kozelHidden = true;
  function Recording(title, options) {
    window.kozelNotified.push({title: title, body: (options || {}).body || ""});
  }
  Object.defineProperty(Recording, "permission",
    {get: () => (Real ? Real.permission : "default")});
  Recording.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recording;
  Object.defineProperty(document, "hidden", {get: () => window.kozelHidden});
  Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true,
    value: (pattern) => { window.kozelVibrated.push(pattern); return true; }});
})();"""


@pytest.mark.parametrize("allowed", [True, False], ids=["allowed", "not-allowed"])
def test_my_turn_notifies_only_if_allowed_and_vibrates(people, daphne_server, make_user,
                                                       make_match, allowed):
    # Masha plays; then it is Alex's turn, his tab out of sight, on a phone.
    state = a_moment(lambda s: fits_one_end(s) is not None)
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, state)
    masha, alex = people("masha"), people("alex", phone=True)
    alex.context.add_init_script(FEEDBACK_HOOKS)
    if allowed:
        alex.context.grant_permissions(["notifications"], origin=daphne_server.url)
    for person, user in ((masha, users[0]), (alex, users[1])):
        person.enter_room(user, daphne_server, match.pk)
    page = alex.page
    assert page.evaluate("Notification.permission") == ("granted" if allowed else "default")
    # A switch, on once allowed (it can be switched off: tests/e2e/test_notify_switch.py);
    # a spectator is never offered it (above).
    switch = expect(page.locator("[data-notify-toggle]"))
    switch.to_be_visible()
    switch.to_have_attribute("aria-pressed", "true" if allowed else "false")
    assert page.evaluate("window.kozelNotified") == []
    assert page.evaluate("window.kozelVibrated") == []

    masha.play(fits_one_end(state)[0])
    # The title is set by the same look at the frame that notifies and vibrates.
    expect(page).to_have_title(re.compile("^Ваш ход — "))
    notified = page.evaluate("window.kozelNotified")
    if allowed:
        assert notified == [{"title": "Ваш ход", "body": f"Ваш ход в партии №{match.pk}"}]
    else:
        assert notified == []
    assert page.evaluate("window.kozelVibrated") == [[120, 60, 120]]
    # Masha's page, whose turn it is not, asked for neither.
    assert masha.page.evaluate("document.title").startswith("Ваш ход") is False
    assert masha.errors + alex.errors == []


def test_no_notification_while_the_tab_is_in_sight(people, daphne_server, make_user,
                                                  make_match):
    state = a_moment(lambda s: fits_one_end(s) is not None)
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, state)
    masha, alex = people("masha"), people("alex")
    alex.context.add_init_script(FEEDBACK_HOOKS.replace("kozelHidden = true", "kozelHidden = false"))
    alex.context.grant_permissions(["notifications"], origin=daphne_server.url)
    for person, user in ((masha, users[0]), (alex, users[1])):
        person.enter_room(user, daphne_server, match.pk)
    masha.play(fits_one_end(state)[0])
    expect(alex.page).to_have_title(re.compile("^Ваш ход — "))
    assert alex.page.evaluate("window.kozelNotified") == []  # the page itself says it
    assert masha.errors + alex.errors == []


# Every sound the page makes, in order (feedback.js notes each on data-last-sound).
SOUNDS_HEARD = """(() => {
  window.kozelSounds = [];
  new MutationObserver((records) => records.forEach((record) => {
    if (record.target.matches && record.target.matches("[data-room]"))
      window.kozelSounds.push(record.target.dataset.lastSound);
  })).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-last-sound"]});
})();"""


def test_a_draw_a_play_and_a_knock_each_sound(people, daphne_server, make_user, make_match):
    from games.models import MatchStatus
    from tests.rules.positions import position

    # Masha must draw; Alex hears her draw, then her play, then his turn's chime.
    state = a_moment(lambda s: s.turn == 0 and can_draw(s))
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, state)
    masha, alex = people("masha"), people("alex")
    alex.context.add_init_script(SOUNDS_HEARD)
    for person, user in ((masha, users[0]), (alex, users[1])):
        person.enter_room(user, daphne_server, match.pk)
    assert masha.draw()
    wait_for_script(alex.page, "window.kozelSounds.includes('draw')", seconds=10)
    while not masha.page.locator('#room[data-turn-mine="false"]').count():
        masha.page.locator('#room [data-action="draw"], #room [data-hand] [data-playable]') \
            .first.wait_for()
        version = masha.page.locator("#room").get_attribute("data-version")
        assert masha.play() or masha.draw()
        expect(masha.page.locator("#room")).not_to_have_attribute("data-version", version)
    wait_for_script(alex.page, "window.kozelSounds.includes('turn')", seconds=10)
    heard = alex.page.evaluate("window.kozelSounds")
    assert heard[0] == "draw" and heard[-2:] == ["play", "turn"], heard

    # Vera plays 1-6: nothing of the bot's fits 1 or 6 and there is no bazaar, so the
    # server knocks for it, and Vera's page knocks.
    ones_and_sixes = " ".join(t.name for t in rules.TILES if {1, 6} & {t.low, t.high}
                              and t.name != "1-1")
    rest = " ".join(t.name for t in rules.TILES if not {1, 6} & {t.low, t.high}
                    and t.name != "5-5")
    vera_user = make_user("vera")
    knocking = make_match([vera_user, None], status=MatchStatus.PLAYING, version=3,
                          state=position(ones_and_sixes + " 5-5", rest, chain="1-1",
                                         bazaar="").to_json())
    vera = people("vera")
    vera.context.add_init_script(SOUNDS_HEARD)
    vera.enter_room(vera_user, daphne_server, knocking.pk)
    assert vera.play("1-6", "right")
    wait_for_script(vera.page, "window.kozelSounds.includes('knock')", seconds=10)
    expect(vera.page.locator("#table .round-log li").last).to_have_text("Bot 1: стук")
    assert masha.errors + alex.errors + vera.errors == []
