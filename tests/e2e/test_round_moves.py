"""Issue 42, point 4 and defect 6, on a phone (390x844, touch) and a desktop (1440x900):
the short log stays, and its button opens the whole round's moves, each play naming the
end by the value it showed (the board's open-end markers show the same numbers), a draw
never naming its tile; the list stays open, and grows, while moves come.  Screenshots in
test-artifacts/screenshots/round-moves-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import rules

from .page_checks import SCREENSHOTS, axe_problems
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"round-moves-{name}.png"), caret="initial")


def a_long_round(state) -> bool:
    """Seat 0 to play, after more moves than the short log shows, draws among them."""
    drawn = any(a.kind == rules.DRAW for a in state.moves)
    plays = any(a.kind == rules.PLAY for a in rules.legal_actions(state))
    return state.turn == 0 and len(state.moves) >= 14 and drawn and plays


IN_VIEW = """e => { const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


@pytest.mark.parametrize("size", SIZES)
def test_the_whole_rounds_moves_open_from_the_log_and_follow_the_game(
        people, daphne_server, make_user, make_match, size):
    state = a_moment(a_long_round, seats=2, tries=600)
    users = [make_user("masha"), make_user("oleg")]
    match = running_match(make_match, users, state)
    phone = size == "phone"
    masha = people("masha", phone=phone, viewport=SIZES[size])
    oleg = people("oleg", phone=phone, viewport=SIZES[size])
    masha.enter_room(users[0], daphne_server, match.pk)
    oleg.enter_room(users[1], daphne_server, match.pk)
    page = oleg.page

    short = page.locator("#table .round-log li")
    expect(short).to_have_count(8)
    opener = page.locator("#table [data-round-moves-open]")
    assert opener.inner_text().strip() == "Все ходы"
    assert opener.evaluate(IN_VIEW), "the button is in sight without scrolling"
    # Opened with keys: the button is a Tab stop, Enter opens it.
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#round-moves")
    expect(dialog).to_be_visible()
    lines = dialog.locator("li")
    seen = lines.all_inner_texts()
    assert len(seen) > 8 and seen[-8:] == short.all_inner_texts()
    assert seen[0].startswith("masha: заход") or seen[0].startswith("oleg: заход")
    assert any(line.endswith("берёт с базара") or "берёт с базара ×" in line for line in seen)
    assert not [line for line in seen if "слева" in line or "справа" in line]
    # Every play names the end by a value: a half of its own tile.
    for line in seen:
        played = re.search(r": (\d)-(\d) к (\d)$", line)
        if played:
            assert played.group(3) in played.group(1, 2), line
    assert dialog.evaluate(IN_VIEW), "the dialog fits the screen"
    assert page.locator(".round-moves-list").evaluate(
        "l => l.scrollTop + l.clientHeight >= l.scrollHeight - 2"), "its latest line in sight"
    assert axe_problems(page) == []
    shot(page, f"open-{size}")

    # Masha plays while Oleg reads: the list stays open and tells her move last.
    ends = {"left": state.left, "right": state.right}
    tile = masha.page.locator("#room [data-hand] [data-tile][data-playable]").first
    name = tile.get_attribute("data-tile")
    end = (tile.get_attribute("data-ends") or "").split()[0]
    version = page.locator("#table").get_attribute("data-version")
    assert masha.play(name, end)
    expect(page.locator("#table")).not_to_have_attribute("data-version", version)
    expect(dialog).to_be_visible()
    expect(lines).to_have_count(len(seen) + 1)
    assert lines.last.inner_text() == f"masha: {name} к {ends[end]}"
    # The value the log names is the one the board's marker showed at that end.
    shot(page, f"after-a-move-{size}")

    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # Back to the button that opened it (the dialog's close event comes a moment after).
    expect(opener).to_be_focused()
    shot(page, f"closed-{size}")
    assert oleg.errors == [] and masha.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_the_open_ends_are_marked_with_the_values_the_log_names(
        people, daphne_server, make_user, make_match, size):
    """Defect 6: a chain long enough that its rows turn; each open end's marker shows the
    value it has, and the last line of the log names the value its tile was played on,
    which is a value of that tile's inner half, never a "left" or "right"."""
    state = a_moment(lambda s: len(s.chain) >= 14 and s.turn == 0, seats=2, tries=600)
    users = [make_user("masha"), make_user("oleg")]
    match = running_match(make_match, users, state)
    person = people("masha", phone=size == "phone", viewport=SIZES[size])
    person.enter_room(users[0], daphne_server, match.pk)
    page = person.page
    markers = page.locator("#table .open-end")
    expect(markers).to_have_count(2)
    assert sorted(markers.all_inner_texts()) == sorted([str(state.left), str(state.right)])
    assert [markers.nth(n).get_attribute("aria-label") for n in range(2)] == [
        f"открытый конец: {state.left}", f"открытый конец: {state.right}"]
    # The snake turns: some chain tiles lie below the first row.
    tops = {round(t["y"]) for t in page.locator("#table .chain-tile").evaluate_all(
        "ts => ts.map(t => ({y: t.getBoundingClientRect().top}))")}
    assert len(tops) > 2
    log = page.locator("#table .round-log").inner_text()
    assert "слева" not in log and "справа" not in log
    shot(page, f"ends-{size}")
    assert person.errors == []
