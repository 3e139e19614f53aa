"""Issue 42, point 5, on a phone (390x844, touch) and a desktop (1440x900): the room's
count of watchers opens who they are -- logged-in spectators by login, anonymous ones
counted ("и ещё N гостя") -- and the open list follows people coming and going.
Screenshots in test-artifacts/screenshots/watching-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .page_checks import SCREENSHOTS, axe_problems
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"watching-{name}.png"), caret="initial")


@pytest.mark.parametrize("size", SIZES)
def test_the_count_of_watchers_opens_who_watches(people, daphne_server, make_user,
                                                  make_match, size):
    state = a_moment(lambda s: s.turn == 0 and len(s.chain) >= 3)
    users = [make_user("masha"), make_user("oleg"), make_user("Zoya"), make_user("anton")]
    match = running_match(make_match, users[:2], state)
    phone = size == "phone"
    masha = people("masha", phone=phone, viewport=SIZES[size])
    zoya = people("zoya", viewport=SIZES["desktop"])
    guest = people("guest", viewport=SIZES["desktop"])
    masha.enter_room(users[0], daphne_server, match.pk)
    zoya.enter_room(users[2], daphne_server, match.pk)
    guest.page.goto(f"/games/{match.pk}/")
    guest.wait_until_live()
    page = masha.page
    count = page.locator("#room-watching [data-watching-open]")
    expect(count).to_have_text("Зрителей: 2")
    assert count.get_attribute("aria-expanded") == "false"
    # Opened with keys: a Tab stop, Enter opens it.
    count.focus()
    page.keyboard.press("Enter")
    listing = page.locator("#watching-list")
    expect(listing).to_be_visible()
    expect(listing.locator("li")).to_have_text(["Zoya", "и ещё 1 гость"])
    assert listing.locator("a").get_attribute("href") == "/players/Zoya/"
    assert page.locator("#room-watching [data-watching-open]").get_attribute("aria-expanded") == "true"
    listing.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"open-{size}")
    assert axe_problems(page) == []

    # Anton comes to watch and the guest goes: the open list follows.
    anton = people("anton", viewport=SIZES["desktop"])
    anton.enter_room(users[3], daphne_server, match.pk)
    guest.context.close()
    expect(page.locator("#room-watching [data-watching-open]")).to_have_text("Зрителей: 2")
    expect(listing.locator("li")).to_have_text(["anton", "Zoya"])
    expect(listing).to_be_visible()
    shot(page, f"followed-{size}")

    # A second press closes it.
    page.locator("#room-watching [data-watching-open]").click()
    expect(listing).to_be_hidden()
    assert masha.errors == [] and zoya.errors == [] and anton.errors == []
