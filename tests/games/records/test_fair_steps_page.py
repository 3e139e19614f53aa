"""The page that tells players how a game's deals follow from its seeds (RECORD.md,
kozel-fair/1), in both languages, linked from a finished game's page and the room."""

import re

import pytest

from games.lobby import service as requests
from games.play import service as services

pytestmark = pytest.mark.django_db

# What a player needs to redo a deal, in RECORD.md's order: context, stream, uniform,
# shuffle from the canonical order, the hands and the bazaar, redeals.
STEPS = {
    "ru": ["kozel-fair/1", "HMAC-SHA256", "mod <var>k</var>", "Фишер", "0-0, 0-1, …, 0-6, 1-1",
           "7<var>s</var> … 7<var>s</var> + 6", "следующая попытка"],
    "en": ["kozel-fair/1", "HMAC-SHA256", "mod <var>k</var>", "Fisher", "0-0, 0-1, …, 0-6, 1-1",
           "7<var>s</var> … 7<var>s</var> + 6", "next attempt"],
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_steps_are_told_in_order_in_both_languages(client, language):
    page = client.get("/rules/fair/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    places = [page.find(step) for step in STEPS[language]]
    assert -1 not in places, dict(zip(STEPS[language], places))
    assert places == sorted(places)
    assert "manage.py" not in page and "python" not in page  # written for players


@pytest.mark.parametrize("language, words", [("ru", "раздел 2 правил"), ("en", "section 2 of the rules")])
def test_the_redeal_step_links_to_the_rules_pages_own_dealing_section(client, db, language, words):
    # The rules page's section 2 (id "deal") holds the redeal: RULES.md's 3 is its 2.
    page = client.get("/rules/fair/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<a href="/rules/#deal">{words}</a>' in page
    rules = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(r'<h2 id="deal">2\. [^<]*</h2>', rules)


def test_a_finished_games_page_and_the_room_link_to_the_steps(client, make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    client.force_login(masha)
    room = client.get(f"/games/{match.pk}/").content.decode()
    assert 'href="/rules/fair/"' in room
    requests.join_request(alex, match.pk)
    services.leave_game(match.pk, alex)  # the game ends (aborted): the seed is revealed
    page = client.get(f"/games/{match.pk}/record/").content.decode()
    assert re.search(r'href="/rules/fair/"[^>]*data-fair-steps-link', page)
