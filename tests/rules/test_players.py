"""Players for simulations and bots choose from their own seat's view only."""

import json

from games.rules import HeuristicPlayer, RandomPlayer, apply, legal_actions, play, view_for
from games.rules.simulate import play_game

from .positions import FISH_CHAIN, position


def test_a_seeded_random_player_repeats_itself():
    one, _ = play_game(3, "one", seed=5)
    two, _ = play_game(3, "one", seed=5)
    assert one.to_json() == two.to_json()


def test_players_answer_with_a_legal_action_from_a_json_view():
    state = position("3-6 5-5 0-1 6-6", "2-2 4-4", chain="3-5")
    view = json.loads(json.dumps(view_for(state, 0)))  # exactly what a client would get
    for player in (RandomPlayer(1), HeuristicPlayer(1)):
        assert player.choose(view) in legal_actions(state)


def test_the_heuristic_sheds_the_heavier_tile():
    # On ends 3 and 5, seat 0 may play 0-3 on the left or 0-5 on the right; either way the
    # other of the two still fits an end and the rest shows the values 0, 4 and 3 or 5.  So
    # only the pips differ: 0-5 sheds 5, 0-3 only 3.  Every tie-breaking seed agrees.
    state = position("0-3 0-5 4-4", "2-2 6-6", chain="3-5")
    assert set(legal_actions(state)) == {play(0, "0-3", "left"), play(0, "0-5", "right")}
    for seed in range(20):
        assert HeuristicPlayer(seed).choose(view_for(state, 0)) == play(0, "0-5", "right")


def test_the_heuristic_does_not_place_a_fish_it_would_lose():
    # Seat 0 could place the fish with 2-5, keeping 6-6 5-6 3-4 (30 pips) against three
    # lone small tiles: in fish for one it would take everyone's points.  It plays on instead.
    state = position("2-5 6-6 5-6 3-4", "0-3", "0-1", "0-5", chain=FISH_CHAIN, fish="one")
    choice = HeuristicPlayer(0).choose(view_for(state, 0))
    assert choice.tile.name != "2-5"


def test_the_heuristic_places_a_fish_it_wins():
    state = position("2-5 0-0", "6-6 5-6", "4-4 5-5", "3-6 4-6", chain=FISH_CHAIN, fish="one",
                     draws="")
    choice = HeuristicPlayer(0).choose(view_for(state, 0))
    assert choice.tile.name == "2-5"
    _, events = apply(state, choice)
    assert events[-1]["result"] == "fish"


def test_heuristic_players_beat_random_players():
    # Over many games, heuristic seats are the goat less often than random ones.
    goats = {"heuristic": 0, "random": 0}
    for seed in range(120):
        players = [HeuristicPlayer(seed), RandomPlayer(seed), HeuristicPlayer(seed + 1),
                   RandomPlayer(seed + 1)]
        _, final = play_game(4, "all", seed, players=players)
        for goat in final.goats:
            goats["heuristic" if goat % 2 == 0 else "random"] += 1
    assert goats["heuristic"] < goats["random"]
