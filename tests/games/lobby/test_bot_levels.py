"""The bots' table form chooses the bots' level; the seats keep it, a bot's name says it
(in the page's language), and the clock plays each bot at its level."""

import re

import pytest
from django.utils import translation

from games.bots import levels
from games.lobby import rematch, service as requests
from games.models import BOT_LEVEL_WORDS, BotLevel, Match, Rematch, Seat
from games.play import bots, service
from games.room import cache
from tests.formseeds import post_form

from ..conftest import times_out

BOTS = "/games/bots/"


def test_the_levels_are_the_bots_packages():
    assert tuple(BotLevel.values) == levels.LEVELS
    with translation.override("en"):
        assert {level: str(BotLevel(level).label) for level in BotLevel.values} \
            == BOT_LEVEL_WORDS


def test_the_form_offers_the_three_levels_in_russian_and_english(client, make_user):
    client.force_login(make_user("me"))
    page = client.get("/").content.decode()
    form = re.search(r'<form[^>]*data-testid="play-bots".*?</form>', page, re.DOTALL).group(0)
    for value in levels.LEVELS:
        assert f'name="level" value="{value}"' in form
    assert "Уровень ботов" in form and "новичок" in form and "мастер" in form
    checked = re.search(r'<input[^>]*name="level"[^>]*checked[^>]*>', form).group(0)
    assert 'value="heuristic"' in checked
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bots&#x27; level" in english or "Bots' level" in english
    assert "club player" in english


def test_choosing_a_level_seats_bots_of_it_and_their_names_say_so(client, make_user):
    client.force_login(make_user("me"))
    response = post_form(client, BOTS, {"players": "3", "fish": "one", "turn_seconds": "30",
                                        "level": "master"})
    match = Match.objects.get()
    assert response.status_code == 302
    robots = list(Seat.objects.filter(match=match, user=None))
    assert len(robots) == 2 and {s.bot_level for s in robots} == {"master"}
    assert match.bot_levels == {s.number: "master" for s in robots}
    with translation.override("ru"):
        assert all(s.name.endswith(" (мастер)") and s.name.startswith("Бот ") for s in robots)
    with translation.override("en"):
        assert all(s.name.endswith(" (master)") for s in robots)


def test_a_post_without_a_level_gets_club_players_and_a_bad_one_is_refused(client, make_user):
    client.force_login(make_user("me"))
    post_form(client, BOTS, {"players": "2", "fish": "all", "turn_seconds": "30"})
    assert Seat.objects.get(user=None).bot_level == "heuristic"
    Match.objects.all().delete()
    response = post_form(client, BOTS, {"players": "2", "fish": "all", "turn_seconds": "30",
                                        "level": "grandmaster"})
    assert response.status_code == 200 and not Match.objects.exists()
    assert "level" in response.context["bots_form"].errors


def test_a_bot_seated_before_levels_is_named_as_before():
    # The name is in the viewer's language: Russian here, whatever an earlier test of this
    # worker left active.
    with translation.override("ru"):
        assert Seat(number=1, bot_name="Бот Гоша").name == "Бот Гоша"


@pytest.mark.parametrize("level", levels.LEVELS)
def test_the_clock_plays_each_bot_at_its_level(make_user, monkeypatch, settings, level):
    settings.BOT_MASTER_SECONDS = 0.02
    asked = []
    choose = bots.choose
    monkeypatch.setattr(bots, "choose", lambda state, seat, level=None:
                        asked.append(level) or choose(state, seat, level))
    for number in range(20):  # a table where a bot leads
        match = requests.play_with_bots(make_user(f"me{number}"), 2, level=level)
        state = service.rules.GameState.from_json(match.state)
        if match.seat_users[state.turn] is None:
            break
    Match.objects.filter(pk=match.pk).update(deadline=match.deadline.replace(year=2000))
    assert service.run_due(match.pk)
    assert asked == [level]


def test_the_room_names_a_bot_with_its_level_in_each_language(make_user):
    match = requests.play_with_bots(make_user("me"), 2, level="beginner")
    snapshot = cache.load(match.pk)
    assert "data-bot-level>новичок</small>" in cache.table(snapshot, "ru")
    assert "data-bot-level>beginner</small>" in cache.table(snapshot, "en")


def test_one_more_game_keeps_the_bots_level(make_user):
    olya = make_user("olya")
    table = requests.play_with_bots(olya, 3, level="beginner")
    times_out(table.pk)  # one a person left offers nothing (issue 42)
    rematch.accept(table.pk, olya, "mine")
    new = Rematch.objects.get(game=table).table
    assert set(new.bot_levels.values()) == {"beginner"} and len(new.bot_levels) == 2
