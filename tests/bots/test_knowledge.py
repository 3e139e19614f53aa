"""A bot's input is its seat's knowledge, built from its view alone: two games that
differ only in tiles the seat cannot see give the same knowledge, and every level the
same choice with the same seed (DESIGN.md, Bots: never peeks, by construction)."""

import pathlib
import random
import subprocess
import sys

import pytest

import games.rules as rules
from games.bots import knowledge_for, levels, master
from games.bots.knowledge import Knowledge

ROOT = pathlib.Path(__file__).resolve().parents[2]


def position(seats, seed, moves, fish="one", pairs=False):
    """A round of random play ``moves`` actions in (or fewer: until the seat to move
    has a choice and others' tiles are hidden)."""
    rng = random.Random(seed)
    state = rules.new_game(rules.Variant(seats, fish, pairs))
    state, _ = rules.start_round(state, rng=rng)
    for _ in range(moves):
        legal = rules.legal_actions(state)
        state, _ = rules.apply(state, rng.choice(legal))
        if state.phase != rules.PLAYING:
            return None
    return state


def with_hidden_tiles_swapped(state, seat, rng):
    """The same game but for two tiles the seat cannot see, swapped between two hidden
    places (two other hands, or a hand and the bazaar); None if there is no such pair."""
    data = state.to_json()
    places = [("hands", s) for s in range(state.seats) if s != seat and data["hands"][s]]
    if data["bazaar"]:
        places.append(("bazaar", None))
    if len(places) < 2:
        return None
    (a, i), (b, j) = rng.sample(places, 2)
    first = data[a][i] if i is not None else data[a]
    second = data[b][j] if j is not None else data[b]
    x, y = rng.randrange(len(first)), rng.randrange(len(second))
    first[x], second[y] = second[y], first[x]
    other = rules.GameState.from_json(data)
    assert other != state
    return other


CASES = [(seats, pairs, seed) for seats, pairs in ((4, False), (4, True), (3, False), (2, False))
         for seed in range(6)]


@pytest.mark.parametrize("seats,pairs,seed", CASES)
def test_what_the_seat_cannot_see_changes_neither_its_knowledge_nor_any_choice(seats, pairs,
                                                                              seed):
    rng = random.Random(seed)
    state = None
    while state is None:
        state = position(seats, rng.getrandbits(32), rng.randrange(0, 12), pairs=pairs)
    seat = state.turn
    other = with_hidden_tiles_swapped(state, seat, rng)
    if other is None:
        pytest.skip("nothing hidden to swap")
    known, known_too = knowledge_for(state, seat), knowledge_for(other, seat)
    assert known == known_too and hash(known) == hash(known_too)
    for level in levels.LEVELS:
        assert levels.choose(known, level, seed=7, playouts=8) \
            == levels.choose(known_too, level, seed=7, playouts=8)
    assert master.evaluate(known, playouts=8, seed=3) == master.evaluate(known_too, playouts=8,
                                                                           seed=3)


def test_the_knowledge_holds_no_place_for_another_seats_tiles():
    fields = set(Knowledge.__dataclass_fields__)
    assert not fields & {"hands", "state", "view", "bazaar_tiles", "deal"}
    assert Knowledge.__dataclass_params__.frozen
    state = position(4, 1, 3)
    known = knowledge_for(state, state.turn)
    assert known.hand == state.hands[state.turn]
    with pytest.raises(Exception):
        known.hand = 0


def test_a_knock_and_a_draw_tell_which_values_a_seat_lacks():
    # Two seats: seat 1 cannot follow 6-6 but for what it draws.
    deal = rules.Deal(hands=(
        [rules.tile(n) for n in ("1-1", "6-6", "0-1", "0-2", "0-3", "0-4", "0-5")],
        [rules.tile(n) for n in ("2-2", "1-2", "1-3", "1-4", "1-5", "2-3", "2-4")]),
        bazaar=[rules.tile(n) for n in ("0-6", "3-3", "4-4", "5-5", "0-0", "2-5", "2-6",
                                        "1-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6")])
    state, _ = rules.start_round(rules.new_game(2, "all"), deal)
    state, _ = rules.apply(state, rules.play(0, "1-1"))   # seat 0 leads 1-1
    state, _ = rules.apply(state, rules.play(1, "1-2", "left"))  # ends 2 and 1
    state, _ = rules.apply(state, rules.play(0, "0-1", "right"))  # ends 2 and 0
    state, _ = rules.apply(state, rules.play(1, "2-3", "left"))  # ends 3 and 0
    state, _ = rules.apply(state, rules.play(0, "0-3", "left"))  # ends 0 and 0
    assert [a.kind for a in rules.legal_actions(state)] == ["draw"]  # seat 1: no 0
    state, _ = rules.apply(state, rules.draw(1))  # draws 0-6: it fits
    known = knowledge_for(state, 0)
    assert known.lacks[1] == 1 << 0 and known.drew == (0, 1)
    assert known.allowed(1) & rules.tile("0-6").bit == 0  # what it may still hold
    assert not known.lacks[0]


def test_the_bots_package_imports_the_rules_and_the_standard_library_only():
    code = ("import sys\nimport games.bots, games.bots.levels, games.bots.master, "
            "games.bots.knowledge\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'channels', 'ratings', 'accounts', 'kozel_site', 'sqlite3') or "
            "(m.startswith('games.') and not m.startswith(('games.rules', 'games.bots'))))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
    for path in (ROOT / "games" / "bots").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        imported = [line.split()[1] for line in text.splitlines()
                    if line.startswith(("import ", "from "))]
        project = [name for name in imported if name.split(".")[0] in
                   ("games", "ratings", "accounts", "kozel_site")]
        assert all(name.startswith("games.rules") for name in project), (path.name, project)
