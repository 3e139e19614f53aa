"""The room, the game page and the record of a pair game (RULES.md 11): partners marked
(seats 0 and 2 pair 1, seats 1 and 3 pair 2), each pair's score shown once, and a score
table column per pair.  The game is the hand-written pair record
(tests/ratings/records/pairs_fish.json), played through the services."""

import json
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.room.present import round_table, seat_names
from tests.ratings import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("Masha", "Alex", "Olya", "Serg")]


def pair_game(users, fish):
    record = played.load("pairs_fish")
    record.fish = fish
    match = played.seat_table(users, record)
    match.pairs = True
    match.save(update_fields=["pairs"])
    return played.play(match, users, record)


def test_the_room_marks_the_pairs_and_shows_each_pairs_score_once(client, four):
    match = pair_game(four, "all")  # fish for all: pair 1 at 54, pair 2 at 70
    client.force_login(four[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    marks = dict(re.findall(r'data-seat="(\d)".*?class="pair-mark pair-(\d)"', page, re.DOTALL))
    assert marks == {"0": "1", "1": "2", "2": "1", "3": "2"}
    pairs = re.search(r'<ul class="pair-scores".*?</ul>', page, re.DOTALL).group(0)
    assert "Masha &amp; Olya" in pairs and "Alex &amp; Serg" in pairs
    assert re.findall(r'class="score"[^>]*>(\d+)<', pairs) == ["54", "70"]
    # The players' own boxes carry no score: the pair's is shown once.
    players = re.search(r'<div class="table-grid">.*?<div class="felt">', page, re.DOTALL).group(0)
    assert players.count('class="seat') == 4 and 'class="score"' not in players
    assert "пары (2 на 2)" in page
    # The round summary gives the pairs' points and credits, and why.
    summary = re.search(r'<ul class="summary-rows pair-summary">.*?</ul>', page, re.DOTALL).group(0)
    assert re.findall(r'data-credited="(\d+)".*?очки раунда: (\d+)</span>', summary,
                      re.DOTALL) == [("54", "54"), ("70", "70")]
    assert re.findall(r'<span class="why">([^<]*)</span>', summary) == [
        "+54: рыба на всех — очки на руках пары; счёт открыт",
        "+70: рыба на всех — очки на руках пары; счёт открыт"]


def test_the_score_table_has_a_column_per_pair(four):
    match = pair_game(four, "all")
    table = round_table(match, seat_names(match.seats.all()), 4)
    assert table["names"] == ["Masha & Olya", "Alex & Serg"]
    [row] = table["rounds"]
    # Fish for all: each pair's points are its two hands (17 + 37, 30 + 40), credited.
    assert [(c["points"], c["credited"], c["after"]["score"], c["fish"]) for c in row["cells"]] \
        == [(54, 54, 54, True), (70, 70, 70, True)]
    html = render_to_string("games/_round_table.html", {"table": table})
    assert re.findall(r'<th scope="col">([^<]+)</th>', html)[1:] == [
        "Masha &amp; Olya", "Alex &amp; Serg"]
    assert html.count('<td class="cell">') == 2


def test_the_game_page_and_the_record_say_it_is_a_pair_game(client, four):
    match = pair_game(four, "one")  # pair 2 takes T = 124: Alex and Serg are goats
    page = client.get(reverse("records:game", args=[match.pk])).content.decode()
    assert "пары (2 на 2)" in page
    assert page.count('class="pair-mark pair-1"') == 2 and page.count('class="pair-mark pair-2"') == 2
    assert page.count('class="goat-badge"') == 2
    assert "Masha &amp; Olya" in page  # the score table's column
    record = json.loads(client.get(reverse("records:download", args=[match.pk])).content)
    assert record["pairs"] is True and record["fish"] == "one"


def test_the_players_game_list_marks_a_pair_game(client, four):
    match = pair_game(four, "one")
    page = client.get(reverse("players:profile", args=["Masha"])).content.decode()
    row = re.search(rf'href="/games/{match.pk}/[^"]*".*?</tr>', page, re.DOTALL).group(0)
    assert 'class="pairs-badge"' in row


def test_the_replay_marks_the_pairs(client, four):
    match = pair_game(four, "one")
    page = client.get(reverse("records:replay", args=[match.pk]) + "?step=3").content.decode()
    marks = dict(re.findall(r'data-seat="(\d)".*?class="pair-mark pair-(\d)"', page, re.DOTALL))
    assert marks == {"0": "1", "1": "2", "2": "1", "3": "2"}


def test_the_replay_shows_each_pairs_score_once(client, four):
    match = pair_game(four, "one")  # pair 2 has more points (70 to 54): credited T = 124
    end = match.moves.count()
    page = client.get(reverse("records:replay", args=[match.pk]) + f"?step={end}").content.decode()
    pairs = re.search(r'<ul class="pair-scores".*?</ul>', page, re.DOTALL).group(0)
    one, two = re.findall(r'<li class="pair pair-\d[^"]*" data-pair="\d">.*?</li>', pairs, re.DOTALL)
    assert "Masha &amp; Olya" in one and '<span class="zero">0</span>' in one
    assert "Alex &amp; Serg" in two and re.search(r'class="score"[^>]*>124<', two)
    assert 'class="pair pair-2 goat"' in two
    # The players' own lines carry no score: the pair's is shown once.
    players = re.search(r'<ol class="players replay-players">.*?</ol>', page, re.DOTALL).group(0)
    assert 'class="score"' not in players and 'class="zero"' not in players
    # The round's summary credits the pairs: each player's line gives their points only.
    summary = re.search(r'<table class="summary-table pair-summary">.*?</table>', page,
                        re.DOTALL).group(0)
    assert re.findall(r"<td>(\d+)</td><td>(\d+)</td>", summary) == [("54", "0"), ("70", "124")]
    seats = re.search(r'<table class="summary-table">.*?</table>', page, re.DOTALL).group(0)
    assert "Записано" not in seats and len(re.findall(r"<tr><td>", seats)) == 4
