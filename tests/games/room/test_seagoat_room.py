"""The game room of sea goat (RULES.md 13) at its own moments, on explicit positions whose
numbers are worked out by hand (pips: tests/rules/seagoat_positions.py): who is writing
and their score, two doubles at once offered (each double, and one button for both), a
lead for a hundred announced to the table, the special hands and what was written in the
round's summary, the winner at the end; and two doubles at once played through the
service and written to the log as one play.  Whole random sea goat games go through
every check of the room's fragments with Kozel's (tests/games/room/scenes.py)."""

import pytest
from django.utils import translation
from markupsafe import escape

from games import rules
from games.models import Match, MatchStatus, Move
from games.play import service as services
from games.room import html as room_html
from games.room.present import seat_context, table_context
from tests.rules.seagoat_positions import sea_position

from .scenes import match_at, seats_of

MASHA, ALEX, OLYA = 0, 1, 2


def frame(state, seat=None, language="ru", status=MatchStatus.PLAYING, result=None):
    people = seats_of(state.seats)
    match = match_at(state, 9, state.seats, status=status, rated=False, result=result,
                     pairs=state.pairs)
    with translation.override(language):
        table = table_context(match, state, people)
        own = room_html.seat(seat_context(table, seat)) if seat is not None else ""
        return table, own + room_html.table(table)


def names(state):
    """Each seat's name as the page shows it (escaped: one of them is hostile markup)."""
    return {s.number: str(escape(s.name)) for s in seats_of(state.seats)}


def test_the_room_shows_who_is_writing_and_their_score():
    # Alex (seat 1) writes 34; the others are at 0.
    state = sea_position("2-5 0-1", "3-4 1-1", "0-6 4-4", chain="1-2", unit_scores=(0, 34, 0),
                         leader=1)
    table, html = frame(state)
    name = names(state)[ALEX]
    assert table["writing"]["score"] == 34 and table["writing"]["seats"] == (1,)
    assert f"Пишет: {name} — 34" in html
    assert [p["writing"] for p in table["players"]] == [False, True, False]
    assert html.count('class="writing-badge"') == 1
    nobody = sea_position("2-5 0-1", "3-4 1-1", "0-6 4-4", chain="1-2", leader=1)
    assert "Никто не пишет" in frame(nobody)[1]


def test_a_pair_writes_as_one():
    # Seats 1 and 3 (pair 2) write 40: the pair's box says so, once.
    state = sea_position("2-5 0-1", "3-4 1-1", "0-6 4-4", "1-3 2-3", chain="1-2",
                         unit_scores=(0, 40), pairs=True, leader=1)
    table, html = frame(state)
    assert table["writing"]["seats"] == (1, 3) and table["writing"]["score"] == 40
    assert [p["writing"] for p in table["players"]] == [False, True, False, True]
    assert "Пишет: " in html and " — 40" in html


def test_two_doubles_at_once_are_offered_as_each_double_and_one_button():
    # The ends show 1 and 2; Masha holds 1-1 and 2-2: each alone on its end, or both.
    state = sea_position("1-1 2-2 3-4", "0-5 0-6", "4-5 4-6", chain="1-2", leader=0)
    table, html = frame(state, seat=MASHA)
    context = seat_context(table, MASHA)
    assert context["doubles"] == ("1-1", "2-2")
    assert 'data-tile="1-1" data-playable data-choose-end data-ends="left" data-with="2-2"' in html
    assert 'data-tile="2-2" data-playable data-choose-end data-ends="right" data-with="1-1"' in html
    assert 'data-doubles="1-1 2-2"' in html
    assert '"play": ["1-1", "2-2"]' in html
    assert "Сыграть 1-1 и 2-2 сразу" in html
    # Each double's own end is still there to play it alone.
    assert 'data-end="left" data-for="1-1"' in html and 'data-end="right" data-for="2-2"' in html
    # Not offered to a seat that holds one double only, nor in Kozel.
    other = sea_position("1-1 3-4", "0-5 0-6", "4-5 4-6", chain="1-2", leader=0)
    assert "data-doubles" not in frame(other, seat=MASHA)[1]


def test_two_doubles_at_once_are_one_line_of_the_log_and_lie_at_both_ends():
    state = sea_position("1-1 2-2 3-4", "0-5 0-6", "4-5 4-6", chain="1-2", leader=0)
    state, _events = rules.apply(state, rules.two_doubles(MASHA, "2-2", "1-1"))
    table, html = frame(state)
    assert [t["name"] for t in table["chain"]] == ["1-1", "1-2", "2-2"]
    assert table["chain"][0].get("last") and table["chain"][-1].get("last")
    assert table["lead_index"] == 1  # one tile left of the round's first
    assert f"{names(state)[MASHA]}: 1-1 и 2-2 сразу" in html


def test_a_lead_for_a_hundred_is_announced_to_the_table():
    # Round 2: Alex, writing 65, led 6-6 for a hundred; Olya is to move.
    state = sea_position("2-5 0-1", "3-4 1-1", "0-6 4-4", chain="6-6", unit_scores=(0, 65, 0),
                         leader=1, round=2, turn=2, moves_text="1:6-6")
    assert state.hundred == ALEX
    table, html = frame(state)
    name = names(state)[ALEX]
    assert str(escape(table["hundred_name"])) == name
    assert f"Игра на сто: заход 6-6 — {name}" in html and "data-hundred" in html
    assert f"{name}: заход 6-6 — на сто!" in html
    with translation.override("en"):
        assert f"For a hundred: {name} leads 6-6" in frame(state, language="en")[1]
    # A first round opened with 6-6 by section 4 is no lead for a hundred.
    first = sea_position("2-5 0-1", "3-4 1-1", "0-6 4-4", chain="6-6", turn=2,
                         moves_text="1:6-6")
    assert "data-hundred" not in frame(first)[1]


def test_the_round_summary_shows_the_special_hands_and_what_was_written():
    # Masha goes out; Alex holds only 0-0 (25), Olya only 6-6 (50): W = 75, nobody was
    # writing, so Masha starts writing with 75.
    state = sea_position("2-5", "0-0", "6-6", chain="1-2", leader=0)
    state, _events = rules.apply(state, rules.play(MASHA, "2-5", "right"))
    table, html = frame(state)
    masha = names(state)[MASHA]
    assert "особая рука: 25" in html and "особая рука: 50" in html
    assert f"Раунд выигрывает: {masha}. У остальных на руках 75." in html
    assert f"Начинает писать: {masha} — 75." in html
    assert "data-writing-summary" in html


@pytest.mark.parametrize("scores, alex, olya, said", [
    # Masha writes 30 and wins with W = 3-4 (7) + 0-6 (6) = 13: 43.
    ((30, 0, 0), "3-4", "0-6", "Записано +13: теперь 43."),
    # Alex writes 40; Masha wins with W = 5-6 3-4 (18) + 4-6 (10) = 28 >= 25: written off.
    ((0, 40, 0), "5-6 3-4", "4-6", "28 — не меньше 25: списан счёт — {alex}."),
    # Alex writes 40; Masha wins with W = 3-4 (7) + 0-6 (6) = 13 < 25: nothing.
    ((0, 40, 0), "3-4", "0-6", "Меньше 25: ничего не записано."),
])
def test_the_round_summary_says_each_branch_of_writing(scores, alex, olya, said):
    state = sea_position("2-5", alex, olya, chain="1-2", unit_scores=scores, leader=0)
    state, _events = rules.apply(state, rules.play(MASHA, "2-5", "right"))
    _table, html = frame(state)
    assert said.format(alex=names(state)[ALEX]) in html


def test_the_round_summary_says_a_lead_for_a_hundred_failed():
    # Alex (writing 65) led 6-6 for a hundred; Masha goes out, Alex holding 3-4 (7) and Olya
    # 0-6 (6): Alex's 65 is written off first, then W = 13 < 25: nothing is written.
    state = sea_position("2-5", "3-4", "0-6", chain="6-6 6-1 1-2", unit_scores=(0, 65, 0),
                         leader=1, round=4, moves_text="1:6-6 2:1-6/r 0:1-2/r")
    assert state.hundred == ALEX
    state, _events = rules.apply(state, rules.play(MASHA, "2-5", "right"))
    _table, html = frame(state)
    alex = names(state)[ALEX]
    assert f"Заход на сто не удался: списан счёт — {alex}." in html
    assert "Меньше 25: ничего не записано." in html
    assert f"Раунд шёл на сто: заход 6-6 — {alex}." in html


def test_the_end_names_the_winner_and_says_sea_goat_is_unrated():
    # Masha goes out with 6-6 as her last tile: she wins the game at once.
    state = sea_position("6-6", "3-4", "0-5", chain="6-1", leader=0)
    state, _events = rules.apply(state, rules.play(MASHA, "6-6", "left"))
    assert state.phase == rules.FINISHED and state.how == "last-double"
    result = {"goats": [], "interrupted_by": None, "reason": None, "scores": list(state.scores),
              "rating_points": None, "winners": list(state.winners), "how": state.how}
    table, html = frame(state, status=MatchStatus.FINISHED, result=result)
    masha = names(state)[MASHA]
    assert str(escape(table["winners"])) == masha
    assert "data-winners" in html and masha in html
    assert "выход из раунда с 0-0 или 6-6 последней костью" in html
    assert "Партии в морского козла не идут в рейтинг." in html
    assert "Козёл" not in html.split('class="game-end"')[1]  # no goat in sea goat


@pytest.mark.django_db
def test_two_doubles_at_once_go_through_the_service_as_one_play(make_user, make_match):
    people = [make_user("masha"), make_user("alex"), make_user("olya")]
    state = sea_position("1-1 2-2 3-4", "0-5 0-6", "4-5 4-6", chain="1-2", leader=0)
    match = make_match(people, seats_count=3, game=rules.SEA_GOAT, rated=False,
                       status=MatchStatus.PLAYING, state=state.to_json(), version=5)
    version = services.act(match.pk, people[0], {"play": ["2-2", "1-1"]}, 5)
    assert version == 6
    move = Move.objects.get(match=match, number=6)
    assert move.kind == "play" and move.seat == 0 and move.payload == {
        "seat": 0, "play": ["1-1", "2-2"]}
    after = rules.GameState.from_json(Match.objects.get(pk=match.pk).state)
    assert after.chain == ((1, 1), (1, 2), (2, 2)) and after.turn == 1
    # Two doubles that do not fit the ends are refused, in words, changing nothing: Alex
    # holds 0-5 and 0-6 (no doubles); the ends are 1 and 2.
    with translation.override("ru"), pytest.raises(services.PlayError) as refused:
        services.act(match.pk, people[1], {"play": ["0-0", "5-5"]}, 6)
    assert refused.value.message == "У вас нет кости 0-0."
    assert Match.objects.get(pk=match.pk).version == 6


@pytest.mark.django_db
def test_a_lead_of_6_6_by_a_player_not_writing_is_refused_in_words(make_user, make_match):
    people = [make_user("masha"), make_user("alex")]
    # Round 2, Masha leads (she went out); Alex writes 30, so Masha may not lead 6-6.
    state = sea_position("6-6 0-1", "3-4 1-1", unit_scores=(0, 30), leader=0, round=2)
    match = make_match(people, seats_count=2, game=rules.SEA_GOAT, rated=False,
                       status=MatchStatus.PLAYING, state=state.to_json(), version=3)
    with translation.override("ru"), pytest.raises(services.PlayError) as refused:
        services.act(match.pk, people[0], {"play": "6-6"}, 3)
    assert refused.value.message == "Заходить с 6-6 (на сто) может только тот, кто пишет."
    assert services.act(match.pk, people[0], {"play": "0-1"}, 3) == 4
