"""The master: its evaluation covers every legal action and repeats itself with a seed,
its worlds keep to what the seat knows, and it beats the heuristic on a small fixed set
of deals (a quick check: the strength figures are bench/bots.py's)."""

import random

import games.rules as rules
from games.bots import knowledge_for, levels, master
from games.bots.master import _deal_hidden, rating_points


def game(variant, seat_levels, deal_seed, playouts):
    deals = random.Random(deal_seed)
    choices = random.Random(f"{deal_seed}:choices")
    state = rules.new_game(variant)
    while not state.over:
        state, _ = rules.start_round(state, rules.random_deal(variant.seats, deals))
        while state.phase == rules.PLAYING:
            seat = state.turn
            action = levels.choose(knowledge_for(state, seat), seat_levels[seat],
                                   seed=choices.getrandbits(32), playouts=playouts)
            state, _ = rules.apply(state, action)
    return state


def points(state, seat):
    return 0 if seat in state.goats else rating_points(state.scores[seat])


def test_the_master_beats_the_heuristic_on_fixed_deals():
    """Eight deals, each played four times, the master in every seat in turn against three
    heuristics: it takes more rating points per game than they do, and is the goat less."""
    variant = rules.Variant(4, "one")
    mine = theirs = my_goats = their_goats = 0
    for deal in range(8):
        for seat in range(4):
            seat_levels = [levels.MASTER if s == seat else levels.HEURISTIC for s in range(4)]
            state = game(variant, seat_levels, f"fixed:{deal}", playouts=12)
            mine += points(state, seat)
            theirs += sum(points(state, s) for s in range(4) if s != seat) / 3
            my_goats += seat in state.goats
            their_goats += sum(s in state.goats for s in range(4) if s != seat) / 3
    assert mine > theirs and my_goats < their_goats, (mine, theirs, my_goats, their_goats)


def position(seed):
    rng = random.Random(seed)
    state, _ = rules.start_round(rules.new_game(3, "one"), rng=rng)
    while True:
        state, _ = rules.apply(state, rng.choice(rules.legal_actions(state)))
        if state.phase != rules.PLAYING:
            return position(seed + 1000)
        if len(rules.legal_actions(state)) > 1 and state.moves and len(state.moves) > 6:
            return state


def test_the_evaluation_covers_every_legal_action_and_repeats_with_its_seed():
    state = position(3)
    known = knowledge_for(state, state.turn)
    values = master.evaluate(known, playouts=10, seed=5)
    assert set(values) == set(rules.legal_actions(state))
    assert all(0 <= v <= 10 for v in values.values())
    assert values == master.evaluate(known, playouts=10, seed=5)
    assert master.last_stats["worlds"] == 10 and master.last_stats["playouts"] == 10 * len(values)
    assert master.choose(known, playouts=10, seed=5) == max(values, key=values.get)


def test_a_time_bound_search_stops_in_time():
    known = knowledge_for(position(4), position(4).turn)
    master.evaluate(known, seconds=0.05, seed=1)
    assert master.last_stats["seconds"] < 0.5 and master.last_stats["worlds"] >= 1


def test_the_worlds_keep_to_what_the_seat_knows():
    """Each other hand gets its size, and none a value its seat showed it lacks."""
    for seed in range(40):
        state = position(seed)
        known = knowledge_for(state, state.turn)
        rng = random.Random(seed)
        for _ in range(5):
            hands = _deal_hidden(known, rng)
            taken = 0
            for seat, hand in hands.items():
                assert hand.bit_count() == known.hand_counts[seat]
                assert hand & ~known.allowed(seat) == 0 or seat == known.seat
                assert not taken & hand and hand & ~known.unseen == 0
                taken |= hand
            # the real hands are one such deal: the knowledge is consistent with them
            for seat in hands:
                assert state.hands[seat] & ~known.allowed(seat) == 0


def test_fish_aware_playouts_evaluate_every_action_too(monkeypatch):
    monkeypatch.setattr(master, "FISH_AWARE", True)
    for seed in range(5):
        state = position(seed)
        known = knowledge_for(state, state.turn)
        assert set(master.evaluate(known, playouts=6, seed=1)) == set(known.legal)
