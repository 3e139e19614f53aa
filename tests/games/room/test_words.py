"""What the room says (games/room/words.py): the round told move by move, and why a
round's summary credited what it did, on RULES.md's worked examples, the numbers worked
out by hand; in Russian (the default) and English."""

import re

import pytest
from django.utils import translation

from accounts.models import User
from games import rules
from games.models import Seat
from games.room import html
from games.room.present import table_context
from games.room.words import explanations, round_log
from tests.rules.positions import all_but, deal, position
from tests.rules.test_pairs import pair_state
from tests.rules.test_scoring import FISH_CHAIN

from .scenes import match_at

NAMES = ["Маша", "Алексей", "Оля", "Серж"]


def seats(count: int, bots=()) -> list:
    return [Seat(number=n, user=None, bot_name=f"Бот {NAMES[n]}") if n in bots
            else Seat(number=n, user=User(pk=n + 1, username=NAMES[n])) for n in range(count)]


def table_of(state, bots=()):
    people = seats(state.seats, bots)
    return table_context(match_at(state, 9, state.seats, pairs=state.pairs), state, people)


def told(state, language="ru", bots=()):
    table = table_of(state, bots)
    with translation.override(language):
        return [line["text"] for line in round_log(table["moves"], table["names"],
                                                     chain=table["view"]["chain"])]


def explained(state, language="ru"):
    table = table_of(state)
    with translation.override(language):
        return explanations(table["summary"], table["names"])


# -- the round's log ---------------------------------------------------------------------

def first_round_with_draws_and_a_knock():
    """Seat 0 leads 1-1; seat 1 draws twice (0-1 fits), plays it on the left; seat 0 plays
    1-2 on the right; seat 1 plays 2-2 on the right ... then a bot knocks."""
    state = rules.new_game(2, "all")
    state, _ = rules.start_round(state, deal(
        "1-1 1-2 3-3 4-4 5-5 3-4 3-5", "0-2 0-3 0-4 2-2 0-6 2-3 2-4",
        bazaar="4-6 0-1 6-6 0-0 1-3 1-4 1-5 1-6 2-5 2-6 3-6 4-5 0-5 5-6"))
    for action in (rules.play(0, "1-1"), rules.draw(1), rules.draw(1),
                   rules.play(1, "0-1", "left"), rules.play(0, "1-2", "right"),
                   rules.play(1, "2-2", "right")):
        state, _ = rules.apply(state, action)
    return state


def test_the_round_is_told_move_by_move_a_seats_draws_in_a_row_as_one_line():
    state = first_round_with_draws_and_a_knock()
    assert told(state) == ["Маша: заход 1-1", "Алексей: берёт с базара ×2",
                           "Алексей: 0-1 к 1", "Маша: 1-2 к 1", "Алексей: 2-2 к 2"]
    assert told(state, "en") == ["Маша: leads with 1-1", "Алексей: draws from the bazaar ×2",
                                 "Алексей: 0-1 on the 1", "Маша: 1-2 on the 1",
                                 "Алексей: 2-2 on the 2"]


def test_a_knock_and_a_bots_name_and_only_the_latest_lines():
    state = position("5-6", all_but("5-6", "1-1"), chain="1-1", bazaar="")
    state, _ = rules.apply(state, rules.knock(0))
    assert told(state, bots=(0,)) == ["Бот Маша: стук"]
    state = first_round_with_draws_and_a_knock()
    table = table_of(state)
    with translation.override("ru"):
        assert [line["text"] for line in round_log(table["moves"], table["names"], shown=2,
                                                     chain=table["view"]["chain"])] \
            == ["Маша: 1-2 к 1", "Алексей: 2-2 к 2"]


def test_the_last_tile_played_is_marked_and_the_lead_is_found_in_the_chain():
    state = first_round_with_draws_and_a_knock()  # chain: 0-1 1-1 1-2 2-2
    table = table_of(state)
    assert [t["name"] for t in table["chain"]] == ["0-1", "1-1", "1-2", "2-2"]
    assert [t.get("last", False) for t in table["chain"]] == [False, False, False, True]
    assert table["lead_index"] == 1  # one tile went on the left of the lead
    with translation.override("ru"):
        markup = html.table(table)
    assert 'data-tile="2-2" data-a="2" data-b="2"' in markup and 'double last"' in markup
    assert 'data-lead="1"' in markup and 'data-last="play"' in markup


def test_only_the_seat_to_move_is_lit():
    state = rules.new_game(2, "all")
    state, _ = rules.start_round(state, deal(
        "1-1 1-2 3-3 4-4 5-5 3-4 3-5", "0-2 0-3 0-4 2-2 0-6 2-3 2-4",
        bazaar="4-6 0-1 6-6 0-0 1-3 1-4 1-5 1-6 2-5 2-6 3-6 4-5 0-5 5-6"))
    turns = []
    for action in (None, rules.play(0, "1-1"), rules.draw(1), rules.draw(1),
                   rules.play(1, "0-1", "left")):
        if action is not None:
            state, _ = rules.apply(state, action)
        with translation.override("ru"):
            markup = html.table(table_of(state))
        seats = re.findall(r'<div class="seat([^"]*)" data-seat="(\d)"( data-to-move)?', markup)
        lit = [int(seat) for classes, seat, hook in seats if " to-move" in classes and hook]
        assert len(seats) == 2 and lit == [state.turn]
        turns.append(state.turn)
    assert turns == [0, 1, 1, 1, 0]


def test_the_bazaar_is_a_pile_with_its_count_and_a_four_players_table_has_none():
    state = first_round_with_draws_and_a_knock()  # 14 in the bazaar, two drawn
    assert len(state.bazaar) == 12
    with translation.override("ru"):
        markup = html.table(table_of(state))
    pile = re.search(r'<div class="bazaar-pile" data-bazaar="(\d+)".*?</div>', markup, re.S)
    assert pile and pile.group(1) == "12"
    assert '<span class="pile-count">базар: 12</span>' in pile.group(0)
    assert pile.group(0).count("<svg") == 3  # drawn as a pile of tiles, face down
    assert 'data-tile' not in pile.group(0)  # no tile of it is named
    emptied = position("5-6", all_but("5-6", "1-1"), chain="1-1", bazaar="")
    with translation.override("ru"):
        markup = html.table(table_of(emptied))
    assert 'class="pile empty"' in markup and "базар: 0" in markup
    four = position("1-2", "0-3", "0-4", "0-5", chain="1-1")
    with translation.override("ru"):
        assert "bazaar-pile" not in html.table(table_of(four))


# -- why a round credited what it did ------------------------------------------------------

def test_the_worked_example_of_a_round_with_one_player_out():
    # RULES.md 7.3: Masha +19 goes out -> 0; Alex 0 + 3 -> +3; Olya +7 + 13 -> 20 opened;
    # Serg +4 + 5 -> +9.
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1", remembered=[19, 0, 7, 4])
    state, _ = rules.apply(state, rules.play(0, "1-2", "right"))
    why = explained(state)
    assert why["units"] == [
        "0: кости кончились — ничего не начислено; запомненные очки сгорели (+19)",
        "+3: очки на руке; в запомненные: 12 и меньше счёт не открывают",
        "+13: очки на руке; счёт открыт вместе с запомненными +7",
        "+5: очки на руке; в запомненные: 12 и меньше счёт не открывают"]
    assert why["bank"] is None
    assert explained(state, "en")["units"][2] == (
        "+13: the points left in hand; score opened with the remembered +7")


def test_the_worked_example_of_fish_for_one():
    # RULES.md 7.4: Masha 2 (+4), Alex 3 (open 15), Olya 13 (+7), Serg 5 (+6): T = 23;
    # Olya opens with 30; Masha and Serg lose their remembered points.
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="one",
                     scores=[0, 15, 0, 0], opened=[False, True, False, False],
                     remembered=[4, 0, 7, 6])
    state, _ = rules.apply(state, rules.play(0, "2-5", "right"))
    assert explained(state)["units"] == [
        "0: рыба на одного — всё получает: Оля; запомненные очки сгорели (+4)",
        "0: рыба на одного — всё получает: Оля",
        "+23: рыба на одного — сумма всех очков; счёт открыт вместе с запомненными +7",
        "0: рыба на одного — всё получает: Оля; запомненные очки сгорели (+6)"]


def test_the_worked_example_of_a_fish_for_one_draw_and_the_bank_won_next():
    # RULES.md 7.4: Alex 14, Olya 14, Masha 4, Serg 3: a draw, the bank becomes +35.
    state = position("2-5 1-3", "6-6 1-1", "5-5 0-4", "0-3", chain=FISH_CHAIN, fish="one")
    state, _ = rules.apply(state, rules.play(0, "2-5", "right"))
    why = explained(state)
    assert set(why["units"]) == {"0: рыба на одного, ничья — очки (35) уходят в банк"}
    assert why["bank"] == "Банк +35 переходит дальше."
    # 7.5: the next round ends with Masha out; Serg has the most points (5): his 5 and the
    # bank, one credit of 40, open him.
    state = position("1-2", "0-3", "0-4", "0-5", chain="1-1", fish="one", bank=35)
    state, _ = rules.apply(state, rules.play(0, "1-2", "right"))
    why = explained(state)
    assert why["units"][3] == "+5: очки на руке; и банк +35; счёт открыт"
    assert why["bank"] == "Банк +35 достаётся: Серж."
    # 7.5's decision: Alex and Olya share the most (4): the bank carries on untouched.
    state = position("1-2", "0-4", "1-3", "0-3", chain="1-1", fish="one", bank=35)
    state, _ = rules.apply(state, rules.play(0, "1-2", "right"))
    assert explained(state)["bank"] == (
        "Банк +35 переходит дальше: больше всех очков сразу у нескольких.")


def test_the_pairs_worked_examples():
    # RULES.md 11 (out): pair 1 (Masha & Olya) at +7 goes out: nothing, +7 lost; pair 2
    # (Alex & Serg), open at 20, is credited its 14.
    state = pair_state("1-2", "0-6", "3-6", "2-6", chain="1-1",
                       scores=(0, 20), remembered=(7, 0), opened=(False, True))
    state, _ = rules.apply(state, rules.play(0, "1-2", "right"))
    assert explained(state)["units"] == [
        "0: у игрока Маша кончились кости — ничего не начислено; запомненные очки сгорели (+7)",
        "+14: очки на руках пары"]
    # RULES.md 11 (fish for one): 14 against 10: T = 24 to pair 1, which opens with its +5.
    state = pair_state("2-5 0-5", "1-5", "4-5", "0-4", chain=FISH_CHAIN, fish="one",
                       remembered=(5, 3))
    state, _ = rules.apply(state, rules.play(0, "2-5", "right"))
    assert explained(state)["units"] == [
        "+24: рыба на одного — сумма всех очков; счёт открыт вместе с запомненными +5",
        "0: рыба на одного — всё получает: Маша & Оля; запомненные очки сгорели (+3)"]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_summary_saved_before_the_rules_kept_its_beginning_says_no_why(language):
    state = position("1-2", "0-3", chain="1-1")
    state, _ = rules.apply(state, rules.play(0, "1-2", "right"))
    data = state.to_json()
    del data["last_round"]["before"]
    old = rules.GameState.from_json(data)
    assert explained(old, language) is None
    with translation.override(language):
        markup = html.table(table_of(old))
    assert 'class="summary"' in markup and 'class="why"' not in markup


# -- issue 42, defect 6: an end named so that a player finds it on the screen ------------

def test_a_play_names_the_end_by_the_value_it_showed_never_left_or_right():
    # The snake's rows turn (static/js/table.js), so the chain's right end may be drawn on
    # the left of the screen: the log names an end by the value it showed, as the board's
    # open-end markers show it.
    state = first_round_with_draws_and_a_knock()
    for language, words in (("ru", ("слева", "справа")), ("en", ("left", "right"))):
        lines = told(state, language)
        assert not [line for line in lines if any(word in line for word in words)], lines
    table = table_of(state)
    with translation.override("ru"):
        markup = html.table(table)
    assert 'aria-label="открытый конец: 0"' in markup and 'aria-label="открытый конец: 2"' in markup


@pytest.mark.parametrize("seed", range(12))
def test_each_play_is_named_by_a_half_of_its_own_tile_that_touched_the_chain(seed):
    """In random rounds, every play's value is a half of the tile played, is what the
    chain's end showed just before (the state before the move), and needs no hidden tile."""
    import random

    from games.room.words import placed_on

    rng = random.Random(seed)
    state = rules.new_game(2 + seed % 3, "all")
    state, _ = rules.start_round(state, rng=rng)
    while state.phase == rules.PLAYING:
        before = (state.left, state.right)
        action = rng.choice(rules.legal_actions(state))
        state, _ = rules.apply(state, action)
        if state.phase != rules.PLAYING:
            break
        view = rules.spectator_view(state)
        last = placed_on(view["moves"], view["chain"])[-1]
        move = view["moves"][-1]
        if "play" in move and move.get("end") in ("left", "right"):
            assert last == before[0 if move["end"] == "left" else 1]
            assert str(last) in move["play"].split("-")
        else:
            assert last is None


# -- issue 42, point 4: the whole round's moves ----------------------------------------------

def a_long_round(seats: int = 2, seed: int = 3, moves: int = 14):
    """A round of random legal moves, with at least ``moves`` moves made and still played."""
    import random

    rng = random.Random(seed)
    for _try in range(200):
        state = rules.new_game(seats, "all")
        state, _ = rules.start_round(state, rng=rng)
        while state.phase == rules.PLAYING:
            if len(state.moves) >= moves and any("draw" in a.to_json() for a in state.moves):
                return state
            state, _ = rules.apply(state, rng.choice(rules.legal_actions(state)))
    raise AssertionError("no long round")


def test_the_whole_rounds_moves_are_in_a_dialog_beside_the_short_log():
    state = a_long_round()
    table = table_of(state)
    with translation.override("ru"):
        markup = html.table(table)
        every = [line["text"] for line in round_log(
            table["moves"], table["names"], shown=len(table["moves"]),
            chain=table["view"]["chain"])]
    short = re.search(r'<ol class="round-log".*?</ol>', markup, re.S).group(0)
    whole = re.search(r'<dialog id="round-moves".*?</dialog>', markup, re.S).group(0)
    lines = lambda part: [re.sub(r"<[^>]+>", "", li).strip()  # noqa: E731
                          for li in re.findall(r"<li.*?</li>", part, re.S)]
    assert len(lines(short)) == 8 and len(lines(whole)) == len(every) > 8
    assert lines(whole) == every and lines(short) == every[-8:]
    assert lines(whole)[0].endswith(": заход " + table["moves"][0]["play"])
    # A draw is told without its tile; every tile named lies on the table.
    assert any("берёт с базара" in line for line in lines(whole))
    named = set(re.findall(r"\b\d-\d\b", whole))
    assert named <= {t["name"] for t in table["chain"]}
    assert 'data-round-moves-open' in markup and "Раунд 1: все ходы" in whole
