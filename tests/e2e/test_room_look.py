"""How the room looks at moments a new player met: the "draw from the bazaar" button is
a button that stands out from the felt, and the yellow remembered points can be read in
the players' boxes (WCAG AA: text contrast at least 4.5:1), on a phone and a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .contrast import AA_TEXT, contrast
from .staging import a_moment, can_draw, has_remembered_points, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_draw_button_stands_out_and_remembered_points_can_be_read(
        people, daphne_server, make_user, make_match, phone, tmp_path):
    state = a_moment(lambda s: can_draw(s) and has_remembered_points(s))
    users = [make_user("ira"), make_user("oleg")]
    match = running_match(make_match, users, state)
    person = people("turn", phone=phone)
    person.enter_room(users[state.turn], daphne_server, match.pk)  # the socket's view, not the page's
    page = person.page
    draw = page.locator('[data-action="draw"]')
    page.screenshot(path=str(tmp_path / "room.png"), full_page=True)

    # A button: its own background, not the felt's, and text that can be read on it.
    room_background = page.locator("[data-room]").evaluate("e => getComputedStyle(e).backgroundColor")
    looks = draw.evaluate("e => ({bg: getComputedStyle(e).backgroundColor,"
                          " height: e.getBoundingClientRect().height})")
    assert looks["bg"] != room_background and looks["height"] >= 40, looks
    assert contrast(draw)["ratio"] >= AA_TEXT

    remembered = page.locator("#table .seat .remembered")
    assert remembered.count() >= 1
    for n in range(remembered.count()):
        seen = contrast(remembered.nth(n))
        assert seen["ratio"] >= AA_TEXT, seen
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert person.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_bots_turn_says_thinking_instead_of_a_countdown(people, daphne_server, make_user,
                                                          make_match, phone, tmp_path):
    state = a_moment(lambda s: s.turn == 1)
    user = make_user("ira")
    match = running_match(make_match, [user, None], state)  # seat 1: a bot, on the move
    person = people("ira", phone=phone)
    person.enter_room(user, daphne_server, match.pk)
    page = person.page
    thinking = page.locator(".room-bar [data-bot-thinking]")
    thinking.wait_for()
    page.screenshot(path=str(tmp_path / "bot-turn.png"))
    assert thinking.inner_text() == "думает…"
    assert page.locator(".room-bar [data-deadline]").count() == 0
    assert person.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_chat_lines_buttons_can_be_tapped_on_a_phone(people, daphne_server, make_user,
                                                       make_match, phone, tmp_path):
    from games.models import ChatMessage

    state = a_moment(lambda s: s.turn == 0)
    users = [make_user("ira"), make_user("oleg")]
    match = running_match(make_match, users, state)
    ChatMessage.objects.create(match=match, author=users[1], room="players", text="удачи всем")
    person = people("ira", phone=phone)
    person.enter_room(users[0], daphne_server, match.pk)
    page = person.page
    buttons = page.locator("#chat-lines .chat-act")
    expect(buttons).to_have_count(2)  # mute, report
    buttons.first.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "chat.png"))
    sizes = [buttons.nth(n).bounding_box() for n in range(2)]
    if phone:  # WCAG 2.2 (2.5.8): a target at least 24 x 24 px
        assert all(box["height"] >= 24 and box["width"] >= 24 for box in sizes), sizes
    gap = sizes[1]["x"] - (sizes[0]["x"] + sizes[0]["width"])
    assert gap >= 0 or sizes[1]["y"] >= sizes[0]["y"] + sizes[0]["height"]  # apart
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert person.errors == []
