"""The verifiable deal in a browser (RECORD.md, kozel-fair/1), under the site's
Content-Security-Policy: static/js/fair.js fills the client seeds with the browser's own
randomness (crypto.getRandomValues, checked by noting what it makes), a player may type
their own, the server keeps what was sent; the commitment shows from the request on, and
the game's page shows the seeds once it is over, on a phone without scrolling sideways."""

from __future__ import annotations

import os
import re

import pytest

from tests import seeding

from tests.e2e.page_checks import MEASURE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
HEX_SEED = re.compile(r"^[0-9a-f]{32}$")
# The parts of a page that stick out of a phone's width, within ``selector``.
STICKING_OUT = """(selector) => {
  const width = document.documentElement.clientWidth;
  return {scroll: document.scrollingElement.scrollWidth, width,
          wide: [...document.querySelectorAll(selector + ', ' + selector + ' *')]
            .filter(e => e.getBoundingClientRect().right > width + 1).map(e => e.tagName)};
}"""


def assert_fits(page, selector: str) -> None:
    # Measured with the page's stylesheets applied: a row can be in the DOM (and its text
    # found) while they still load, and the hex string then has the browser's own styles.
    page.wait_for_load_state("load")
    found = page.evaluate(STICKING_OUT, selector)
    assert found["scroll"] <= found["width"] and found["wide"] == [], found


# Run before any script of the page: every array crypto.getRandomValues fills is noted, in
# hex, so that the test can tell the seeds came from it (not from Math.random, say).
NOTE_RANDOM_VALUES = """(() => {
  const fill = Crypto.prototype.getRandomValues;
  window.__randomHex = [];
  Crypto.prototype.getRandomValues = function (array) {
    const filled = fill.call(this, array);
    const bytes = new Uint8Array(filled.buffer, filled.byteOffset, filled.byteLength);
    window.__randomHex.push(Array.from(bytes, b => b.toString(16).padStart(2, "0")).join(""));
    return filled;
  };
})();"""


def from_get_random_values(page, seed: str) -> bool:
    return seed in page.evaluate("window.__randomHex")


def test_client_seeds_come_from_the_browser_and_the_commitment_shows(people, make_user,
                                                                      daphne_server):
    from playwright.sync_api import expect

    from games.models import Match

    masha_user, alex_user = make_user("Masha"), make_user("Alex")
    masha, alex = people("masha", phone=True), people("alex")
    masha.log_in_as(masha_user, daphne_server)
    alex.log_in_as(alex_user, daphne_server)

    for person in (masha, alex):
        person.page.add_init_script(NOTE_RANDOM_VALUES)
    page = masha.page
    page.goto("/")
    expect(page.locator("#id_client_seed")).to_have_value(HEX_SEED)
    expect(page.locator("#bots_client_seed")).to_have_value(HEX_SEED)
    assert from_get_random_values(page, page.locator("#id_client_seed").input_value())
    assert from_get_random_values(page, page.locator("#bots_client_seed").input_value())
    assert page.locator("#id_client_seed").input_value() != \
        page.locator("#bots_client_seed").input_value()
    form = page.locator('[data-testid="create-request"]')
    form.locator("summary").click()  # the disclosure opens: the field may be changed
    assert_fits(page, '[data-testid="create-request"]')  # opened, on a phone
    opened = page.evaluate(MEASURE)
    assert opened["wide"] == [], opened
    # The form shows the commitment of the seed drawn for it before a seed is typed
    # (issue 39: the creator's client seed comes after the commitment, too).
    shown = form.locator("[data-form-commitment]").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", shown)
    form.locator("#id_client_seed").fill("Masha's own seed ~ 42")
    form.locator('label[for="id_players_0"]').click()  # 2 players
    form.locator('button[type="submit"]').click()
    expect(page.locator("[data-my-table]")).to_be_visible()
    match = Match.objects.get()
    assert match.seats.get(number=0).client_seed == "Masha's own seed ~ 42"
    assert match.commitment == shown  # exactly the seed the form showed
    # The server process drew the form's seed from the test's seed (tests/seeding.py): one
    # of the seeds it drew for the lobby's forms so far (two per page shown).
    seed = int(os.environ[seeding.SEED_VARIABLE])
    made = seeding.seed_generator(seed, seeding.server_stream("daphne"))
    assert bytes(match.server_seed) in [made.randbytes(32) for _n in range(8)]
    expect(page.locator(f'[data-request="{match.pk}"] [data-commitment]')).to_have_text(
        match.commitment)
    assert_fits(page, f'[data-request="{match.pk}"]')  # the commitment wraps on a phone

    other = alex.page
    alex.open_lobby()
    row = other.locator(f'[data-request="{match.pk}"]')
    expect(row.locator("[data-commitment]")).to_have_text(match.commitment)
    seed_field = row.locator("input[data-client-seed]")
    expect(seed_field).to_have_value(HEX_SEED)
    sent = seed_field.input_value()
    assert from_get_random_values(other, sent)
    row.locator("summary").click()
    assert_fits(other, f'[data-request="{match.pk}"]')
    row.locator('[data-action="join"]').click()
    other.wait_for_url(re.compile(rf"/games/{match.pk}/$"))
    assert match.seats.get(number=1).client_seed == sent
    expect(other.locator("[data-commitment]")).to_have_text(match.commitment)

    # Over (Alex leaves in round 1: aborted): the game's page shows every seed, and fits
    # a phone.
    other.on("dialog", lambda dialog: dialog.accept())
    other.locator('[data-action="leave"]').click()
    expect(other.locator('#room[data-status="aborted"]')).to_have_count(1)
    match.refresh_from_db()
    page.goto(f"/games/{match.pk}/record/")
    assert_fits(page, "[data-fair]")
    expect(page.locator("[data-server-seed]")).to_have_text(bytes(match.server_seed).hex())
    expect(page.locator('[data-client-seed-of="1"]')).to_have_text(sent)
    assert masha.errors == [] and alex.errors == []

