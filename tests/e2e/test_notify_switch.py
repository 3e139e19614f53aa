""""Сообщать о моём ходе" is a switch, in a real browser at phone and desktop sizes: it
shows whether it is on; after the browser refuses notifications it says why, beside it;
after the browser allows them it can be switched off again, and stays off.

The browser's answer to the request for permission is staged (an init script in place of
the browser's prompt, which a headless browser cannot show)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

# The browser's permission, "default" until asked; asked, it becomes window.kozelAnswer.
PERMISSION = """(() => {
  let permission = "default";
  Object.defineProperty(Notification, "permission", {get: () => permission});
  Notification.requestPermission = () => {
    permission = window.kozelAnswer || "denied";
    return Promise.resolve(permission);
  };
})();"""


def a_room(people, daphne_server, make_user, make_match, phone, answer):
    users = [make_user("masha"), make_user("alex")]
    match = running_match(make_match, users, a_moment(lambda s: s.turn == 0))
    person = people("masha", phone=phone, viewport=None if phone else WIDE)
    person.context.add_init_script(PERMISSION + f"window.kozelAnswer = {answer!r};")
    person.enter_room(users[0], daphne_server, match.pk)
    return person


def press(person, locator):
    (locator.tap if person.touch else locator.click)()


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_after_a_refusal_the_switch_says_why(people, daphne_server, make_user, make_match,
                                            tmp_path, phone):
    person = a_room(people, daphne_server, make_user, make_match, phone, "denied")
    page = person.page
    switch = page.locator("[data-notify-toggle]")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "false")
    press(person, switch)
    status = page.locator("[data-notify-status]")
    expect(status).to_be_visible()
    expect(status).to_contain_text("запрещены в настройках браузера")
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.screenshot(path=str(tmp_path / f"notify-refused-{'phone' if phone else 'desktop'}.png"))
    # Refused for good: still there, and a press says why again.
    page.reload()
    person.wait_until_live()
    expect(switch).to_be_visible()
    expect(status).to_be_hidden()
    press(person, switch)
    expect(status).to_contain_text("запрещены в настройках браузера")
    assert person.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_after_a_grant_the_switch_turns_off_and_stays_off(people, daphne_server, make_user,
                                                          make_match, tmp_path, phone):
    person = a_room(people, daphne_server, make_user, make_match, phone, "granted")
    page = person.page
    switch = page.locator("[data-notify-toggle]")
    expect(switch).to_have_attribute("aria-pressed", "false")
    press(person, switch)
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-notify-status]")).to_be_hidden()
    page.screenshot(path=str(tmp_path / f"notify-on-{'phone' if phone else 'desktop'}.png"))
    press(person, switch)
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('kozel.notify')") == "off"
    press(person, switch)  # and on again, without asking the browser
    expect(switch).to_have_attribute("aria-pressed", "true")
    press(person, switch)
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert person.errors == []
