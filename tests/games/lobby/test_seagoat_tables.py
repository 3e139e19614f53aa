"""Sea goat (RULES.md 13) on the site's tables: the request and bots' forms choose the game
(the fish rule only for Kozel, pairs for both), its games are never rated (the forms, the
service and the database say so), its lobby rows, game page and replay name it, a whole
game with bots is played to its end through the services (scored and written as the rules
say, its log replaying to its state), and one more game keeps the game."""

import json
import re

import pytest
from django.db import IntegrityError, transaction

from games import rules
from games.lobby import service as requests
from games.lobby.forms import BotsForm, RequestForm, variant_of
from games.models import Match, MatchStatus, Rematch, RoundScore
from games.play import service as services
from games.records.log import record_of, state_after
from ratings.models import RatingRecord

from ..conftest import human_move, state_of
from .test_lobby import BOTS, CREATE, form_data, page_of, request_rows
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db


def test_the_forms_offer_the_game_and_choose_a_variant_of_it():
    bots = BotsForm({"game": "sea-goat", "players": "4", "pairs": "on", "turn_seconds": "30"})
    assert bots.is_valid(), bots.errors  # no fish rule asked of sea goat
    assert variant_of(bots.cleaned_data) == rules.Variant(4, None, True, rules.SEA_GOAT)
    request = RequestForm({"game": "sea-goat", "players": "3", "fish": "one",
                           "turn_seconds": "30"})
    assert request.is_valid() and variant_of(request.cleaned_data).fish is None
    # Kozel keeps its fish rule; a post that names no game is Kozel, as before.
    kozel = BotsForm({"players": "2", "fish": "one", "turn_seconds": "30"})
    assert kozel.is_valid() and variant_of(kozel.cleaned_data) == rules.Variant(2, "one")
    assert not BotsForm({"game": "kozel", "players": "2", "turn_seconds": "30"}).is_valid()
    assert not BotsForm({"game": "donkey", "players": "2", "fish": "all",
                         "turn_seconds": "30"}).is_valid()
    # Pairs for both games, at a table of four only: a tick at a smaller table (left
    # from a game of four, the form hides it) is ignored, not refused.
    three = BotsForm({"game": "sea-goat", "players": "3", "pairs": "on", "turn_seconds": "30"})
    assert three.is_valid() and three.cleaned_data["pairs"] is False


def test_the_lobby_page_offers_both_games_in_both_forms(logged_in_client):
    page = page_of(logged_in_client)
    for testid in ("create-request", "play-bots"):
        form = re.search(rf'<form[^>]*data-testid="{testid}".*?</form>', page, re.DOTALL).group(0)
        assert re.search(r'<input type="radio" name="game" value="kozel"[^>]*checked', form)
        assert 'name="game" value="sea-goat"' in form and "Морской козёл" in form
        assert 'class="choice fish-choice"' in form


def test_a_sea_goat_request_is_never_rated_and_its_row_says_so(client, make_user):
    masha = make_user("masha")
    client.force_login(masha)
    response = post_form(client, CREATE, form_data(players="3", game="sea-goat", rated="on"),
                           follow=True)
    match = Match.objects.get()
    assert match.game == rules.SEA_GOAT and not match.rated
    assert match.variant == rules.Variant(3, None, False, rules.SEA_GOAT)
    row = request_rows(response.content.decode())[match.pk]
    assert "Морской козёл" in row and "без рейтинга" in row and "рыба" not in row
    match.delete()
    made = requests.create_request(masha, players=2, game=rules.SEA_GOAT, rated=True)
    assert not made.rated
    with pytest.raises(services.PlayError):
        requests.create_request(masha, players=2, game="donkey")


def test_the_database_refuses_a_rated_sea_goat_game():
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(seats_count=2, game=rules.SEA_GOAT, rated=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(seats_count=2, game="donkey", rated=False)


def test_a_pair_table_of_sea_goat_with_bots_starts_from_the_bots_form(client, make_user):
    client.force_login(make_user("masha"))
    post_form(client, BOTS, {"game": "sea-goat", "players": "4", "pairs": "on", "turn_seconds": "30"})
    match = Match.objects.get()
    assert match.status == MatchStatus.PLAYING and match.game == rules.SEA_GOAT
    assert match.pairs and not match.rated
    assert match.state["variant"] == rules.SEA_GOAT and match.state["fish"] is None
    # The form starts from the last choices: sea goat again.
    form = re.search(r'<form[^>]*data-testid="play-bots".*?</form>', page_of(client),
                     re.DOTALL).group(0)
    assert re.search(r'<input type="radio" name="game" value="sea-goat"[^>]*checked', form)


def play_to_its_end(match, person):
    """A table of ``person`` (seat 0) and bots, played through the services: the person
    moves as the heuristic player would, the clock does the rest."""
    player = rules.HeuristicPlayer(seed=1)
    for _step in range(20000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return match
        state = state_of(match)
        if state.phase == rules.PLAYING and state.turn == 0:
            services.act(match.pk, person, human_move(match, 0, player), match.version)
        else:
            services.run_due(match.pk, now=match.deadline)
    raise AssertionError("the game did not end")


def test_a_sea_goat_game_with_bots_is_played_to_its_end_and_kept_as_the_rules_say(
        client, make_user):
    masha = make_user("masha")
    match = play_to_its_end(requests.play_with_bots(masha, players=3, game=rules.SEA_GOAT),
                            masha)
    state = state_of(match)
    assert match.status == MatchStatus.FINISHED and state.phase == rules.FINISHED
    assert match.result["winners"] == list(state.winners) and state.winners
    assert match.result["how"] == state.how in rules.WAYS_TO_WIN
    assert match.result["goats"] == [] and match.result["rating_points"] is None
    assert not RatingRecord.objects.filter(match=match).exists()
    # The log replays to the state on the row, and its record replays by the rules.
    assert state_after(match) == state
    record = record_of(match)
    assert record.to_json()["variant"] == rules.SEA_GOAT and "fish" not in record.to_json()
    assert rules.replay(rules.loads_record(record.dumps())).state == state
    # One score row per seat and round: the scores after each round are the rules'; what
    # a round wrote is W for the winner's seat when it left them writing, else 0.
    rows = RoundScore.objects.filter(match=match)
    assert rows.count() == 3 * state.round
    last = {r.seat: r for r in rows.filter(round_number=state.round)}
    assert [last[n].score_after for n in range(3)] == list(state.scores)
    before = [0, 0, 0]
    for number in range(1, state.round + 1):
        by_seat = {r.seat: r for r in rows.filter(round_number=number)}
        for seat, r in by_seat.items():
            assert r.remembered_after == 0 and r.bank_after == 0
            # Written: the score grew by it; else it is 0.
            assert r.credited == 0 or r.score_after == before[seat] + r.credited \
                or r.score_after == r.credited  # after a hundred lost, written again
        before = [by_seat[n].score_after for n in range(3)]
    # The game's page names the winner and says the game is unrated; the replay shows it.
    client.force_login(masha)
    page = client.get(f"/games/{match.pk}/record/").content.decode()
    assert "Партии в морского козла не идут в рейтинг." in page and "data-winners" in page
    assert "Морской козёл" in page
    replay = client.get(f"/games/{match.pk}/replay/?step={match.version}").content.decode()
    assert "Победитель: " in replay and "data-writing-summary" in replay
    profile = client.get("/players/masha/")
    assert profile.status_code == 200 and f"/games/{match.pk}/" in profile.content.decode()
    download = client.get(f"/games/{match.pk}/record.json")
    assert json.loads(download.content)["variant"] == rules.SEA_GOAT
    # One more game is offered, of sea goat again.
    table = Rematch.objects.get(game=match).table
    assert table.game == rules.SEA_GOAT and table.variant == match.variant and not table.rated
