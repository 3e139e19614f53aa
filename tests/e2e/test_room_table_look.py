"""How the table looks, on a phone (390x844) and a desktop (1366x900), for 2, 3 and 4
players and a pair game, mid-round (a long chain that must turn at the table's edge), at
a round's summary and at the game's end: the page's own seat at the bottom (a partner
opposite), nothing wider than the screen, the chain's tiles inside the felt and never on
top of each other, its open ends beside it.  Screenshots are kept in the test's folder
(tmp_path) to be looked at."""

from __future__ import annotations

import pytest

from games import rules

from .staging import a_game_end, a_moment, a_round_end, staged_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

TABLES = [  # seats, fish, pairs, the chain's length mid-round
    (2, rules.FISH_ALL, False, 16), (3, rules.FISH_ONE, False, 16),
    (4, rules.FISH_ONE, False, 20), (4, rules.FISH_ALL, True, 20)]

# Where each seat's box is, and the tiles' boxes of the chain, the felt and the open ends.
GEOMETRY = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  return {
    seats: Object.fromEntries([...document.querySelectorAll("#table .seat")].map(
      s => [s.dataset.seat, box(s)])),
    felt: box(document.querySelector("#table .felt")),
    tiles: [...document.querySelectorAll("#table .chain-tile svg")].map(box),
    ends: [...document.querySelectorAll("#table .open-end")].map(box),
    widest: Math.max(...[...document.querySelectorAll("body *")].map(
      e => e.getBoundingClientRect().right)),
    scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth,
  };
}"""


# The round's log: how many lines it has, how many are wholly in sight in its box, and the
# lines only partly in sight (a sliver above the four latest, say).
LOG_LINES = """() => {
  const log = document.querySelector("#table .round-log");
  const box = log.getBoundingClientRect();
  const lines = [...log.querySelectorAll("li")].map(li => li.getBoundingClientRect());
  const inside = r => r.top >= box.top - 1 && r.bottom <= box.bottom + 1;  // (sub-pixels)
  const outside = r => r.bottom <= box.top + 1 || r.top >= box.bottom - 1;
  return {lines: lines.length, seen: lines.filter(inside).length,
          cut: lines.filter(r => !inside(r) && !outside(r)).map(r => [r.top, r.bottom, box.top])};
}"""


def overlap(a, b) -> float:
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


def inside(inner, outer, slack: float = 1.0) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


def check_table(page, seat: int, seats: int) -> dict:
    seen = page.evaluate(GEOMETRY)
    assert seen["scrollWidth"] <= seen["width"], seen["scrollWidth"]
    assert seen["widest"] <= seen["width"] + 1, seen["widest"]
    boxes = seen["seats"]
    # This page's seat is the lowest box; the next clockwise is on its left, and opposite
    # it (a partner in a pair game) sits the highest.
    mine = boxes[str(seat)]
    assert all(mine["top"] >= b["top"] for b in boxes.values())
    if seats == 4:
        across = boxes[str((seat + 2) % 4)]
        assert all(across["top"] <= b["top"] for b in boxes.values())
        assert boxes[str((seat + 1) % 4)]["left"] < boxes[str((seat + 3) % 4)]["left"]
    for n, tile in enumerate(seen["tiles"]):
        assert inside(tile, seen["felt"]), (n, tile, seen["felt"])
        for other in seen["tiles"][n + 1:]:
            assert overlap(tile, other) < 2, (tile, other)
    for end in seen["ends"]:
        assert inside(end, seen["felt"]), (end, seen["felt"])
        assert all(overlap(end, tile) < 2 for tile in seen["tiles"])
    return seen


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_table_at_every_size_of_game_and_moment(people, daphne_server, make_user,
                                                     make_match, phone, tmp_path):
    users = [make_user(name) for name in ("masha", "alex", "olya", "serg")]
    person = people("look", phone=phone)
    for seats, fish, pairs, length in TABLES:
        players = users[:seats]
        moments = {
            "mid-round": a_moment(lambda s: len(s.chain) >= length, seats, fish, pairs=pairs),
            "summary": a_round_end(seats, fish, pairs,
                                   wanted=lambda s: s.last_round["result"] == "fish"
                                   or s.bank or s.round > 1),
            "game-end": a_game_end(seats, fish, pairs),
        }
        for moment, state in moments.items():
            match = staged_match(make_match, players, state)
            seat = 1 if seats > 2 else 0  # not always seat 0 at the bottom
            person.enter_room(players[seat], daphne_server, match.pk)  # measured once it is the socket's
            page = person.page
            if moment == "mid-round":
                page.locator("#table .chain.laid-out").wait_for()
            name = f"{seats}{'-pairs' if pairs else ''}-{moment}-{'phone' if phone else 'desktop'}"
            page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
            seen = check_table(page, seat, seats)
            if moment == "mid-round":
                assert len(seen["tiles"]) == len(state.chain) and len(seen["ends"]) == 2
            if moment == "summary":
                assert page.locator(".summary .why").count() >= 1
                # The log scrolled to its latest lines, four in sight and none cut in half.
                log = page.evaluate(LOG_LINES)
                assert log["lines"] > 4 and log["seen"] == 4 and log["cut"] == [], log
            if moment == "game-end":
                assert page.locator(".game-end").is_visible()
    assert person.errors == []
