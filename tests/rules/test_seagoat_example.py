"""RULES.md 13's worked example (three players), played on deals written so that the
hands left hold exactly the example's numbers, and checked against the numbers worked
out by hand from the rules (not from the code's output).

Masha is seat 0, Alex seat 1, Olya seat 2.  What each round leaves in the hands, with its
pips summed by hand (seagoat_positions.py lists every tile's pips):

1. Masha goes out (she holds 1-1 and leads it, RULES.md 4).  Alex 4-5 = 9; Olya 1-5 3-3 =
   6 + 6 = 12.  W = 9 + 12 = 21 < 25: nothing written.
2. Masha leads; Alex plays 1-1 and 5-5 at once on the way and goes out.  Masha 1-4 3-4
   4-4 = 5 + 7 + 8 = 20; Olya 1-5 2-6 = 6 + 8 = 14.  W = 34 >= 25, nobody writing: Alex
   starts writing with 34.
3. Alex leads and goes out.  Masha 2-4 = 6; Olya only 0-0: 25.  W = 31; Alex is writing:
   34 + 31 = 65.
4. Alex (writing) leads 6-6 for a hundred; Olya goes out.  Masha 1-2 = 3; Alex 2-3 3-3 =
   5 + 6 = 11.  Alex's 65 is written off first; then W = 3 + 11 = 14 < 25: nothing is
   written; every score is 0.
5. Olya leads; Masha plays 6-6 as her last tile: she wins the game.  Alex 2-4 = 6, Olya
   3-3 = 6: W = 12 < 25, nothing written.
"""

import json
import pathlib
import subprocess
import sys

from games.rules import (DOUBLES, FINISHED, SEA_GOAT, Variant, apply, legal_actions, new_game,
                         read_record, replay, start_round)

from .seagoat_positions import actions, record

ROOT = pathlib.Path(__file__).resolve().parents[2]
MASHA, ALEX, OLYA = 0, 1, 2

ROUNDS = [
    (("0-3 0-6 1-1 1-4 2-2 2-3 4-6", "0-1 0-2 0-5 1-2 2-4 3-5 4-5",
      "0-0 1-5 1-6 2-6 3-3 3-6 5-6"),
     "0-4 4-4 5-5 2-5 1-3 6-6 3-4",
     "0:1-1 1:0-1/l 2:0-0/l 0:0-6/l 1:1-2/r 2:1-6/l 0:1-4/l 1:2-4/l 2:2-6/l 0:2-3/r "
     "1:3-5/r 2:3-6/l 0:0-3/l 1:0-5/r 2:draw 2:0-4/r 0:4-6/r 1:0-2/l 2:5-6/r 0:2-2/l"),
    (("0-0 1-2 1-4 3-4 3-6 4-4 4-6", "0-4 0-5 0-6 1-1 1-3 2-4 5-5",
      "0-3 1-5 1-6 2-2 2-5 2-6 4-5"),
     "0-2 0-1 3-3 2-3 5-6 3-5 6-6",
     "0:3-6 1:0-6/r 2:0-3/l 0:0-0/l 1:0-4/l 2:4-5/l 0:draw 0:0-2/r 1:0-5/l 2:2-5/r "
     "0:draw 0:0-1/l 1:1-1+5-5 2:1-6/l 0:4-6/l 1:2-4/l 2:2-2/l 0:1-2/l 1:1-3/l"),
    (("0-1 0-3 1-3 1-5 2-4 3-4 5-5", "0-2 0-4 1-1 2-3 4-4 5-6 6-6",
      "0-0 0-6 1-4 2-6 3-5 3-6 4-5"),
     "2-5 4-6 2-2 1-6 1-2 0-5 3-3",
     "1:4-4 2:4-5/l 0:5-5/l 1:0-4/r 2:3-5/l 0:0-3/r 1:2-3/r 2:2-6/r 0:1-3/l 1:6-6/r "
     "2:1-4/l 0:3-4/l 1:5-6/r 2:3-6/l 0:1-5/r 1:1-1/r 2:0-6/l 0:0-1/r 1:0-2/r"),
    (("0-1 0-2 0-3 1-2 1-5 3-4 5-5", "0-0 1-3 1-4 2-3 2-6 3-3 6-6",
      "0-5 2-4 3-5 3-6 4-4 4-5 4-6"),
     "5-6 2-5 0-6 0-4 1-6 2-2 1-1",
     "1:6-6 2:4-6/l 0:3-4/l 1:2-6/r 2:3-6/l 0:0-2/r 1:0-0/r 2:0-5/r 0:1-5/r 1:1-4/r "
     "2:4-5/r 0:5-5/r 1:draw 1:5-6/l 2:3-5/l 0:0-3/l 1:draw 1:2-5/r 2:2-4/r 0:0-1/l "
     "1:1-3/l 2:4-4/r"),
    (("0-1 0-3 0-4 0-5 1-2 3-6 6-6", "0-6 1-1 1-3 1-5 2-4 2-5 2-6",
      "0-0 0-2 1-4 1-6 3-3 3-5 5-6"),
     "5-5 4-6 4-5 3-4 2-2 2-3 4-4",
     "2:3-5 0:0-3/l 1:2-5/r 2:0-2/l 0:1-2/l 1:1-1/l 2:1-6/l 0:3-6/l 1:1-3/l 2:1-4/l "
     "0:0-4/l 1:2-6/r 2:0-0/l 0:0-5/l 1:1-5/l 2:5-6/r 0:0-1/l 1:0-6/l 2:draw 2:5-5/r "
     "0:6-6/l"),
]
RECORD = record(["Masha", "Alex", "Olya"], ROUNDS, turn_seconds=30)

# The hands each round leaves, and the numbers worked out by hand (module docstring).
LEFT = [
    [[], ["4-5"], ["1-5", "3-3"]],
    [["1-4", "3-4", "4-4"], [], ["1-5", "2-6"]],
    [["2-4"], [], ["0-0"]],
    [["1-2"], ["2-3", "3-3"], []],
    [[], ["2-4"], ["3-3"]],
]
EXPECTED = {"variant": "sea-goat", "rounds": [
    {"result": "out", "seat": MASHA, "points": [0, 9, 12], "winner": MASHA, "won": 21,
     "hundred": None, "written_off": False, "scores": [0, 0, 0], "writing": None},
    {"result": "out", "seat": ALEX, "points": [20, 0, 14], "winner": ALEX, "won": 34,
     "hundred": None, "written_off": False, "scores": [0, 34, 0], "writing": ALEX},
    {"result": "out", "seat": ALEX, "points": [6, 0, 25], "winner": ALEX, "won": 31,
     "hundred": None, "written_off": False, "scores": [0, 65, 0], "writing": ALEX},
    {"result": "out", "seat": OLYA, "points": [3, 11, 0], "winner": OLYA, "won": 14,
     "hundred": ALEX, "written_off": True, "scores": [0, 0, 0], "writing": None},
    {"result": "out", "seat": MASHA, "points": [0, 6, 6], "winner": MASHA, "won": 12,
     "hundred": None, "written_off": False, "scores": [0, 0, 0], "writing": None},
], "status": "finished", "winners": [MASHA], "how": "last-double", "interrupted_by": None,
    "rating_points": None}


def test_the_worked_example_leaves_the_hands_it_names_and_scores_them_by_hand():
    played = replay(read_record(RECORD))
    assert [r["hands"] for r in played.rounds] == LEFT
    for summary, expected in zip(played.rounds, EXPECTED["rounds"]):
        for key, value in expected.items():
            assert summary[key] == value, (summary["round"], key)
    state = played.state
    assert state.phase == FINISHED and state.winners == (MASHA,) and state.how == "last-double"
    assert state.scores == (0, 0, 0) and state.writing is None and state.goats == ()


def test_the_worked_example_through_manage_py_replay_prints_the_line_worked_by_hand(tmp_path):
    path = tmp_path / "sea_goat.json"
    path.write_text(json.dumps(RECORD))
    done = subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert json.loads(done.stdout.decode()) == EXPECTED


def test_the_worked_example_move_by_move_offers_every_move_it_makes():
    """Played through the engine: every move of the record is a legal action, round 2's
    two doubles at once among them, and round 4 is led by Alex, writing, for a hundred."""
    state = new_game(Variant(3, None, name=SEA_GOAT))
    two_doubles_played = []
    for number, (hands, bazaar, text) in enumerate(ROUNDS, 1):
        deal = read_record(record(["a", "b", "c"], [(hands, bazaar, "")])).rounds[0].deal
        state, _ = start_round(state, deal)
        for action in actions(text):
            assert action in legal_actions(state)
            if action.kind == DOUBLES:
                two_doubles_played.append((number, action.seat))
            state, _ = apply(state, action)
            if number == 4 and len(state.moves) == 1:
                assert state.hundred == ALEX and state.writing == ALEX
    assert two_doubles_played == [(2, ALEX)]
    assert state.phase == FINISHED and state.winners == (MASHA,)
