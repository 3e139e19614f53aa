"""The lobby's forms start from a person's last choices: the request form from their
last request (seats, fish, time per turn, rated, private), the bots form from their last
table with bots (the bots' level too); kept per account, so a new log-in finds them too."""

import re

import pytest

from games.lobby import service as requests
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db


def checked(page: str, form_prefix: str) -> dict:
    """The form's checked radios and boxes, and its seconds, as the page shows them."""
    shown = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        ident = re.search(r'id="([^"]+)"', tag)
        if not (name and ident and ident.group(1).startswith(form_prefix)):
            continue
        name = name.group(1)
        if 'type="number"' in tag:
            shown[name] = re.search(r'value="([^"]*)"', tag).group(1)
        elif " checked" in tag:
            value = re.search(r'value="([^"]*)"', tag)
            shown[name] = value.group(1) if value and 'type="radio"' in tag else "on"
    return shown


def test_the_request_form_starts_from_the_last_request(client, make_user):
    masha = make_user("masha")
    client.force_login(masha)
    assert checked(client.get("/").content.decode(), "id_") == {
        "game": "kozel", "players": "4", "fish": "all", "turn_seconds": "30", "rated": "on"}
    post_form(client, "/games/new/", {"players": 3, "fish": "one", "turn_seconds": 45,
                                   "private": "on"})
    requests.leave_request(masha, masha.seats.get().match_id)
    client.logout()
    client.force_login(masha)
    assert checked(client.get("/").content.decode(), "id_") == {
        "game": "kozel", "players": "3", "fish": "one", "turn_seconds": "45", "private": "on"}


def test_the_bots_form_starts_from_the_last_table_with_bots(client, make_user):
    olya = make_user("olya")
    client.force_login(olya)
    post_form(client, "/games/bots/", {"players": 2, "fish": "one", "turn_seconds": 20,
                                       "level": "master"})
    page = client.get("/").content.decode()
    assert checked(page, "bots_") == {"game": "kozel", "players": "2", "fish": "one",
                                      "turn_seconds": "20", "level": "master"}
    # The request form keeps its own defaults.
    assert checked(page, "id_")["players"] == "4"


def test_a_refused_form_is_not_remembered(client, make_user):
    alex = make_user("alex")
    client.force_login(alex)
    post_form(client, "/games/new/", {"players": 3, "fish": "one", "turn_seconds": 5})
    assert alex.player.__class__.objects.get(pk=alex.player.pk).table_terms == {}


def test_a_client_seed_is_never_remembered(client, make_user):
    """kozel-fair/1: each table gets the person's fresh seed, not the last one again."""
    vera = make_user("vera")
    client.force_login(vera)
    post_form(client, "/games/new/", {"players": 2, "fish": "all", "turn_seconds": 30,
                                "client_seed": "my-own-seed-42"})
    vera.player.refresh_from_db()
    assert "client_seed" not in vera.player.table_terms["request"]
    assert "my-own-seed-42" not in client.get("/").content.decode()


def test_a_choice_of_pairs_is_remembered_by_both_forms(client, make_user):
    serg = make_user("serg")
    client.force_login(serg)
    assert "pairs" not in checked(client.get("/").content.decode(), "id_")
    post_form(client, "/games/new/", {"players": 4, "fish": "one", "turn_seconds": 40, "rated": "on",
                                "pairs": "on"})
    requests.leave_request(serg, serg.seats.get().match_id)
    post_form(client, "/games/bots/", {"players": 4, "fish": "all", "turn_seconds": 25, "pairs": "on"})
    page = client.get("/").content.decode()
    assert checked(page, "id_") == {"game": "kozel", "players": "4", "fish": "one",
                                    "turn_seconds": "40", "rated": "on", "pairs": "on"}
    assert checked(page, "bots_") == {"game": "kozel", "players": "4", "fish": "all",
                                      "turn_seconds": "25", "pairs": "on", "level": "heuristic"}
