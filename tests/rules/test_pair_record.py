"""RECORD.md, pairs: a hand-written pair record (tests/ratings/records/pairs_fish.json)
read, replayed and printed as ``manage.py replay`` prints a pair game.

The record's one round, worked by hand: seat 1 (Alex) places the fish of 0 with 0-6 on
the tenth play.  Left in hand: Masha 0-0 2-2 1-3 4-5 = 17, Alex 3-3 1-4 2-5 6-6 = 30,
Olya 1-5 2-3 3-5 4-4 4-6 = 37, Serg 1-6 2-4 2-6 3-6 5-5 = 40.  Pair A (seats 0 and 2)
54, pair B (seats 1 and 3) 70.
"""

import copy
import json
from pathlib import Path

import pytest

from games.rules import loads_record, replay
from games.rules.record import replay_text
from ratings.formulas import game_points

from .test_replay_command import replay as replay_command

RECORD = Path(__file__).parents[1] / "ratings" / "records" / "pairs_fish.json"


def data():
    return json.loads(RECORD.read_text())


def test_fish_for_one_pair_b_takes_t_and_both_its_players_are_goats():
    # T = 124 to pair B (70 > 54): 124 opens it at 124 >= 101, so Alex and Serg are the
    # goats; pair A stands at 0, so Masha and Olya get (100 - 0) / 10 = 10 each.
    assert replay_text(json.dumps(data()), rate=game_points) == {
        "rounds": [{"result": "fish", "seat": 1, "points": [17, 30, 37, 40],
                    "pair_points": [54, 70], "credited": [0, 124], "scores": [0, 124],
                    "remembered": [0, 0], "opened": [False, True], "bank": 0}],
        "status": "finished", "goats": [1, 3], "interrupted_by": None,
        "rating_points": [10, 0, 10, 0]}


def test_fish_for_all_then_a_timeout_gives_nothing_to_the_pair_that_timed_out():
    # Fish for all: pair A credited 54 (opens), pair B 70.  Serg (seat 3) then times out:
    # Alex and Serg get nothing, Masha and Olya max(1, (70 - 54) / 10 = 1.6 -> 2) = 2.
    record = dict(data(), fish="all", interrupt={"seat": 3, "reason": "timeout"})
    summary = replay_text(json.dumps(record), rate=game_points)
    assert summary["rounds"] == [{
        "result": "fish", "seat": 1, "points": [17, 30, 37, 40], "pair_points": [54, 70],
        "credited": [54, 70], "scores": [54, 70], "remembered": [0, 0],
        "opened": [True, True], "bank": 0}]
    assert summary["status"] == "interrupted" and summary["interrupted_by"] == 3
    assert summary["rating_points"] == [2, 0, 2, 0]
    # Masha (pair A, 54) leaves instead: pair B gets max(1, (54 - 70) / 10) = 1.
    record["interrupt"] = {"seat": 0, "reason": "left"}
    assert replay_text(json.dumps(record), rate=game_points)["rating_points"] == [0, 1, 0, 1]


def test_a_pair_game_interrupted_in_its_first_round_is_aborted():
    record = data()
    record["rounds"][0]["moves"] = record["rounds"][0]["moves"][:3]
    record["interrupt"] = {"seat": 2, "reason": "left"}
    summary = replay_text(json.dumps(record), rate=game_points)
    assert summary["status"] == "aborted" and summary["rating_points"] == [0, 0, 0, 0]
    assert summary["rounds"] == [{"result": "unfinished", "turn": 3}]


def test_a_pair_record_is_written_with_pairs_true_and_reads_back_the_same():
    record = loads_record(RECORD.read_text())
    assert record.pairs is True
    written = record.to_json()
    assert written["pairs"] is True
    assert replay(loads_record(json.dumps(written))).state == replay(record).state
    alone = copy.deepcopy(written)
    del alone["pairs"]  # the same deals and moves, played as four players alone
    assert replay(loads_record(json.dumps(alone))).state.pairs is False


@pytest.mark.slow
def test_the_replay_command_prints_the_pair_line(tmp_path):
    done = replay_command(str(RECORD))
    assert done.returncode == 0, done.stderr
    [text] = done.stdout.splitlines()  # one line per record (RECORD.md)
    line = json.loads(text)
    # RECORD.md, pairs: ``points`` per seat, ``pair_points`` added, ``credited``,
    # ``scores``, ``remembered`` and ``opened`` per pair [seats 0 and 2, seats 1 and 3];
    # ``goats`` and ``rating_points`` per seat.  Nothing more, nothing less.
    assert line == {
        "rounds": [{"result": "fish", "seat": 1, "points": [17, 30, 37, 40],
                    "pair_points": [54, 70], "credited": [0, 124], "scores": [0, 124],
                    "remembered": [0, 0], "opened": [False, True], "bank": 0}],
        "status": "finished", "goats": [1, 3], "interrupted_by": None,
        "rating_points": [10, 0, 10, 0]}
    # A game alone, from the same deals and moves, has no pair_points and is per seat.
    alone = tmp_path / "alone.json"
    alone.write_text(json.dumps({k: v for k, v in data().items() if k != "pairs"}))
    done = replay_command(str(alone))
    [round_] = json.loads(done.stdout)["rounds"]
    assert "pair_points" not in round_ and len(round_["credited"]) == 4
