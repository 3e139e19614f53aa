"""What the rules tell a room beyond the state: the round's moves so far (public, in
order) and why a round credited what it did (``explain_round``), on RULES.md's worked
examples with the numbers worked out by hand."""

import json

from games.rules import (GameState, apply, draw, explain_round, knock, new_game, play,
                         spectator_view, start_round, view_for)

from .positions import all_but, deal, position
from .test_pairs import ended, pair_state
from .test_scoring import FISH_CHAIN


def why_of(state):
    return explain_round(state.last_round, state.fish)


# -- the round's moves ------------------------------------------------------------------

def test_the_rounds_moves_are_kept_in_order_and_never_name_a_drawn_tile():
    # Seat 0 leads 1-1 (the first round), seat 1 has nothing that fits and draws 0-1 and
    # plays it on the left; seat 0 plays 1-2 on the right.
    state = new_game(2, "all")
    state, _ = start_round(state, deal("1-1 1-2 3-3 4-4 5-5 3-4 3-5", "0-2 0-3 0-4 0-5 0-6 2-3 2-4",
                                       bazaar="0-1 6-6 2-2 0-0 1-3 1-4 1-5 1-6 2-5 2-6 3-6 4-5 4-6 5-6"))
    state, _ = apply(state, play(0, "1-1"))
    state, _ = apply(state, draw(1))
    state, _ = apply(state, play(1, "0-1", "left"))
    state, _ = apply(state, play(0, "1-2", "right"))
    moves = [{"seat": 0, "play": "1-1"}, {"seat": 1, "draw": True},
             {"seat": 1, "play": "0-1", "end": "left"}, {"seat": 0, "play": "1-2", "end": "right"}]
    assert [a.to_json() for a in state.moves] == moves
    assert spectator_view(state)["moves"] == moves == view_for(state, 1)["moves"]
    # Kept through the state's JSON (the match row) and back.
    again = GameState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.moves == state.moves and again == state


def test_a_knock_is_kept_and_a_new_round_starts_with_no_moves():
    state = position("5-6", all_but("5-6", "1-1"), chain="1-1", bazaar="")
    state, _ = apply(state, knock(0))
    assert [a.to_json() for a in state.moves] == [{"seat": 0, "knock": True}]
    state = position("1-2", "0-3", chain="1-1")
    state, _ = apply(state, play(0, "1-2", "right"))  # out: the round ends
    assert len(state.moves) == 1
    state, _ = start_round(state, deal("0-0 0-1 1-2 2-3 3-4 4-5 5-6", "1-1 0-2 1-3 2-4 3-5 4-6 0-6"))
    assert state.moves == () and spectator_view(state)["moves"] == []


def test_a_state_saved_before_moves_were_kept_loads_with_none():
    data = position("1-2", "0-3", chain="1-1").to_json()
    del data["moves"]
    assert GameState.from_json(data).moves == ()


# -- why a round credited what it did ---------------------------------------------------

def test_the_worked_example_of_a_round_with_one_player_out_explained():
    # RULES.md 7.3: Masha +19 goes out -> 0; Alex 0 + 3 -> +3; Olya +7 + 13 -> 20 opened;
    # Serg +4 + 5 -> +9.
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1", remembered=[19, 0, 7, 4])
    state, _ = apply(state, play(0, "1-2", "right"))
    why = why_of(state)
    masha, alex, olya, serg = why["why"]
    assert masha == {"rule": "out", "credited": 0, "bank": 0, "tally": "none", "added": 0, "lost": 19}
    assert alex == {"rule": "own", "credited": 3, "bank": 0, "tally": "remembered", "added": 0, "lost": 0}
    assert olya == {"rule": "own", "credited": 13, "bank": 0, "tally": "opened", "added": 7, "lost": 0}
    assert serg == {"rule": "own", "credited": 5, "bank": 0, "tally": "remembered", "added": 0, "lost": 0}
    assert why["bank_rule"] == "none" and why["total"] == 21


def test_the_worked_example_of_fish_for_one_explained():
    # RULES.md 7.4: Masha 2, Alex 3, Olya 13 (+7), Serg 5: T = 23; Olya opens with 30;
    # Masha (+4) and Serg (+6) lose their remembered points; Alex keeps his open 15.
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="one",
                     scores=[0, 15, 0, 0], opened=[False, True, False, False],
                     remembered=[4, 0, 7, 6])
    state, _ = apply(state, play(0, "2-5", "right"))
    why = why_of(state)
    assert [(w["rule"], w["credited"], w["tally"], w["added"], w["lost"]) for w in why["why"]] == [
        ("other", 0, "none", 0, 4), ("other", 0, "none", 0, 0), ("total", 23, "opened", 7, 0),
        ("other", 0, "none", 0, 6)]
    assert why["total"] == 23 and why["bank_rule"] == "none"


def test_the_worked_example_of_a_fish_for_one_draw_explained():
    # RULES.md 7.4: Alex 14, Olya 14, Masha 4, Serg 3: a draw, nobody credited, the
    # remembered points stay, and the bank becomes +35.
    state = position("2-5 1-3", "6-6 1-1", "5-5 0-4", "0-3", chain=FISH_CHAIN, fish="one",
                     remembered=[4, 2, 0, 9])
    state, _ = apply(state, play(0, "2-5", "right"))
    why = why_of(state)
    assert {w["rule"] for w in why["why"]} == {"draw"}
    assert all(w["credited"] == w["lost"] == 0 for w in why["why"])
    assert (why["bank_rule"], why["bank_in"], why["bank"], why["total"]) == ("grew", 0, 35, 35)


def test_the_bank_won_kept_and_won_in_a_fish_explained():
    # Out, one top scorer (Serg, 5): the bank of 35 on top of his 5, one credit of 40: opens.
    state = position("1-2", "0-3", "0-4", "0-5", chain="1-1", fish="one", bank=35)
    state, _ = apply(state, play(0, "1-2", "right"))
    why = why_of(state)
    assert why["why"][3] == {"rule": "own", "credited": 40, "bank": 35, "tally": "opened",
                             "added": 0, "lost": 0}
    assert why["bank_rule"] == "won" and why["bank"] == 0
    # Out, Alex and Olya share the top (4): the bank carries on untouched.
    state = position("1-2", "0-4", "1-3", "0-3", chain="1-1", fish="one", bank=35)
    state, _ = apply(state, play(0, "1-2", "right"))
    why = why_of(state)
    assert why["bank_rule"] == "kept" and why["bank"] == 35
    assert [w["bank"] for w in why["why"]] == [0, 0, 0, 0]
    # A fish for one with a single top: T = 23 and the bank 35, one credit of 58.
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="one", bank=35)
    state, _ = apply(state, play(0, "2-5", "right"))
    why = why_of(state)
    assert why["why"][2]["rule"] == "total" and why["why"][2]["credited"] == 58
    assert why["why"][2]["bank"] == 35 and why["bank_rule"] == "won"


def test_an_open_player_is_credited_on_the_score():
    # Fish for all: Masha (open at 20) adds her 2 to the score.
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="all",
                     scores=[20, 0, 0, 0], opened=[True, False, False, False])
    state, _ = apply(state, play(0, "2-5", "right"))
    assert why_of(state)["why"][0]["tally"] == "score"


def test_the_pairs_worked_examples_explained():
    # RULES.md 11 (out): pair A at +7 remembered goes out: nothing, +7 lost; pair B (open 20)
    # is credited its 14.
    state = pair_state("1-2", "0-6", "3-6", "2-6", chain="1-1",
                       scores=(0, 20), remembered=(7, 0), opened=(False, True))
    state, _ = apply(state, play(0, "1-2", "right"))
    a, b = why_of(state)["why"]
    assert (a["rule"], a["credited"], a["lost"]) == ("out", 0, 7)
    assert (b["rule"], b["credited"], b["tally"]) == ("own", 14, "score")
    # RULES.md 11 (fish for one): pair A 14 against 10: T = 24, A opens with its +5; B
    # loses its +3.
    state = pair_state("2-5 0-5", "1-5", "4-5", "0-4", chain=FISH_CHAIN, fish="one",
                       remembered=(5, 3))
    state, events = apply(state, play(0, "2-5", "right"))
    a, b = why_of(state)["why"]
    assert (a["rule"], a["credited"], a["tally"], a["added"]) == ("total", 24, "opened", 5)
    assert (b["rule"], b["credited"], b["lost"]) == ("other", 0, 3)
    assert why_of(state)["total"] == 24 == sum(ended(events)["points"])


def test_the_explanation_credits_what_the_round_credited():
    # Over random whole games of every size and rule, the round scored again for its
    # explanation credits exactly what the game did.
    import random

    from games.rules import legal_actions
    for seats, fish, pairs in ((2, "one", False), (3, "all", False), (4, "one", False),
                               (4, "one", True), (4, "all", True)):
        rng = random.Random(seats * 10 + pairs)
        state = new_game(seats, fish, pairs=pairs)
        while not state.over:
            state, _ = start_round(state, rng=rng)
            while state.phase == "play":
                state, _ = apply(state, rng.choice(legal_actions(state)))
            summary = state.last_round
            why = why_of(state)
            credited = summary["pair_credited"] if pairs else summary["credited"]
            assert [w["credited"] for w in why["why"]] == credited
            assert why["bank"] == summary["bank"]
