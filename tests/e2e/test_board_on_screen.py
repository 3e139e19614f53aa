"""The room's board on a phone (390x844, touch) and a desktop (1440x900), issue 42: a
score table that scrolls says so and is reached by keys, the room's and the replay's
landmarks for assistive technology, and a board that uses the screen.  Screenshots are
kept in test-artifacts/screenshots/board-*.png to be looked at."""

from __future__ import annotations

import pytest

from games import rules

from .page_checks import SCREENSHOTS
from .staging import played_rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
DEVICE = {"phone": {"has_touch": True, "is_mobile": True}, "desktop": {}}
NAMES = ("Konstantin", "Aleksandra", "Vladislav", "Ekaterina")


def person_at(browser, server, size: str, name: str = "look"):
    from .conftest import Person

    return Person(browser, server, f"{name}-{size}", SIZES[size], **DEVICE[size])


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"board-{name}.png"), caret="initial")


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in NAMES]


# The score table's scrolling box: whether it scrolls, its name, its tab stop, and the
# hint of more at its edges (a fade drawn by a mask at the edge that hides more).
SCROLL_BOX = """() => {
  const box = document.querySelector("#round-table .table-scroll");
  const style = getComputedStyle(box);
  const mask = style.maskImage || style.webkitMaskImage || "none";
  return {scrolls: box.scrollWidth > box.clientWidth + 1, tabIndex: box.tabIndex,
          role: box.getAttribute("role"), label: box.getAttribute("aria-label") || "",
          more: box.dataset.more || "", mask, scrollLeft: box.scrollLeft,
          focused: document.activeElement === box};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_four_player_score_table_that_scrolls_says_so_and_keys_reach_it(
        browser, daphne_server, four, size):
    match = played_rounds(four, rounds=3)
    person = person_at(browser, daphne_server, size)
    try:
        person.enter_room(four[0], daphne_server, match.pk)
        page = person.page
        page.locator("#round-table summary").click()
        page.locator("#round-table .table-scroll").wait_for()
        seen = page.evaluate(SCROLL_BOX)
        # Reached by keys and named, whether or not it scrolls at this size.
        assert seen["tabIndex"] == 0 and seen["role"] == "region" and seen["label"], seen
        if size == "phone":
            # Four players' columns do not fit a phone: the box scrolls, and the fade at its
            # right edge says there is more.
            assert seen["scrolls"] and "right" in seen["more"] and "gradient" in seen["mask"], seen
            page.locator("#round-table .table-scroll").scroll_into_view_if_needed()
            shot(page, f"score-table-{size}")
            # Keys scroll it: a Tab stop, then the arrow key.
            page.locator("#round-table .table-scroll").focus()
            page.keyboard.press("ArrowRight")
            wait_for_script(page, """(() => {
              const box = document.querySelector("#round-table .table-scroll");
              return box.scrollLeft > 0 && (box.dataset.more || "").includes("left"); })()""")
            shot(page, f"score-table-scrolled-{size}")
        else:
            assert not seen["scrolls"] and seen["more"] == "" and seen["mask"] == "none", seen
            shot(page, f"score-table-{size}")
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()


@pytest.fixture
def finished_game(make_user):
    """A game of three played to its end (tests/ratings/records/finished_rules8.json)."""
    from tests.ratings import played

    players = [make_user(name) for name in ("Masha", "Alex", "Olya")]
    record = played.load("finished_rules8")
    return played.play(played.seat_table(players, record), players, record), players


@pytest.mark.parametrize("size", SIZES)
def test_the_room_has_a_heading_and_the_chains_are_groups(browser, daphne_server, four,
                                                          finished_game, size):
    finished, players = finished_game
    match = played_rounds(four, rounds=1)
    person = person_at(browser, daphne_server, size)
    try:
        person.enter_room(four[0], daphne_server, match.pk)
        page = person.page
        heading = page.locator("h1")
        assert heading.count() == 1 and heading.text_content().strip() == f"Игра №{match.pk}"
        # Said to a screen reader, not shown: the room's bar says where one is.
        assert heading.evaluate("h => h.getBoundingClientRect().width") <= 1
        assert page.locator("#table [data-chain]").get_attribute("role") == "group"
        assert page.get_by_role("group", name="Стол").count() == 1

        person.log_in_as(players[0], daphne_server)
        page.goto(f"/games/{finished.pk}/replay/?step=12")
        chain = page.locator(".replay-table .chain")
        assert chain.get_attribute("role") == "group" and chain.get_attribute("aria-label") == "Стол"
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()


def wait_for_script(page, expression: str, seconds: float = 15.0) -> None:
    """Until ``expression`` is true in the page, asked with ``page.evaluate`` (Playwright's
    wait_for_function polls with eval, which the Content-Security-Policy refuses)."""
    import time

    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} did not come true in {seconds} s"
        page.wait_for_timeout(50)


@pytest.mark.parametrize("size", SIZES)
def test_a_frame_sets_no_inline_style_under_the_policy(browser, daphne_server, make_user,
                                                        make_match, size):
    """The room's frames replace #table and #room; an element they replace may carry a
    style of its own when the frame comes (set by the page's scripts, the browser's
    autofill or an extension), which htmx once copied onto the new element as a style
    attribute: the policy refused it, on the console."""
    from .staging import a_moment, staged_match

    users = [make_user("Masha"), make_user("Alex")]
    state = a_moment(lambda s: s.turn == 0 and len(s.chain) >= 4, 2)
    match = staged_match(make_match, users, state)
    person = person_at(browser, daphne_server, size)
    try:
        person.enter_room(users[0], daphne_server, match.pk)
        page = person.page
        version = page.locator("#table").get_attribute("data-version")
        # Styles set through the CSSOM, which the policy allows.
        page.evaluate("""() => {
          document.getElementById("table").style.setProperty("--probe", "1");
          document.getElementById("room").style.outlineOffset = "0px";
        }""")
        assert person.play() or person.draw()
        wait_for_script(page, f'document.getElementById("table").dataset.version !== "{version}"')
        page.wait_for_timeout(300)  # htmx settles the swap after 20 ms
        assert person.refused == [] and person.errors == []
    finally:
        person.context.close()


# A board that uses the screen (issue 42, point 2): the chain's tiles, the boxes that must
# be in sight while one plays, and the seats' boxes.
BOARD = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const all = s => [...document.querySelectorAll(s)].map(box);
  return {
    tiles: all("#table .chain-tile svg"),
    seats: all("#table .seat"),
    inSight: {bar: all("#table .room-bar"), seats: all("#table .seat"), chain: all("#table .chain-tile svg"),
              ends: all("#table .open-end"), hand: all("#room [data-hand] .hand-tile"),
              felt: all("#table .felt")},
    height: window.innerHeight, width: window.innerWidth,
  };
}"""

BOARD_TABLES = [  # seats, fish, pairs, the chain's length mid-round
    (2, rules.FISH_ALL, False, 16), (3, rules.FISH_ONE, False, 16),
    (4, rules.FISH_ONE, False, 20), (4, rules.FISH_ALL, True, 20)]
LONG_SIDE = {"phone": 56, "desktop": 80}
ROTATED = {"phone": {"width": 844, "height": 390}, "desktop": {"width": 900, "height": 1440}}


def check_board(page, size: str) -> dict:
    seen = page.evaluate(BOARD)
    long_sides = [max(t["width"], t["height"]) for t in seen["tiles"]]
    assert long_sides and min(long_sides) >= LONG_SIDE[size], long_sides
    # All that one plays with is in sight, with no scrolling by the person.
    for what, boxes in seen["inSight"].items():
        for b in boxes:
            assert b["top"] >= -1 and b["bottom"] <= seen["height"] + 1, (what, b, seen["height"])
            assert b["left"] >= -1 and b["right"] <= seen["width"] + 1, (what, b, seen["width"])
    # The seats' boxes are even: one height, one width.
    heights = [s["height"] for s in seen["seats"]]
    widths = [s["width"] for s in seen["seats"]]
    assert max(heights) - min(heights) <= 1 and max(widths) - min(widths) <= 1, seen["seats"]
    return seen


@pytest.mark.parametrize("size", SIZES)
def test_a_board_that_uses_the_screen(browser, daphne_server, make_user, make_match, size):
    from .staging import a_moment, staged_match
    from .test_room_table_look import check_table

    users = [make_user(name) for name in NAMES]
    person = person_at(browser, daphne_server, size)
    page = person.page
    try:
        for seats, fish, pairs, length in BOARD_TABLES:
            players = users[:seats]
            state = a_moment(lambda s: len(s.chain) >= length, seats, fish, pairs=pairs)
            match = staged_match(make_match, players, state)
            seat = 1 if seats > 2 else 0
            person.enter_room(players[seat], daphne_server, match.pk)
            page.locator("#table .chain.laid-out").wait_for()
            page.wait_for_timeout(400)  # the tiles' slide, and the page's own scroll
            name = f"{seats}{'-pairs' if pairs else ''}-{size}"
            shot(page, name)
            check_board(page, size)
            check_table(page, seat, seats)
            if seats == 4 and not pairs:
                # Turned (a phone on its side) and back: the chain lays itself out again.
                page.set_viewport_size(ROTATED[size])
                page.wait_for_timeout(400)
                shot(page, f"{name}-rotated")
                check_table(page, seat, seats)
                page.set_viewport_size(SIZES[size])
                page.wait_for_timeout(400)
                check_board(page, size)
                check_table(page, seat, seats)
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()
