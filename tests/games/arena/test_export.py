"""kozel-arena/1 (RECORD.md) and ``manage.py arena``: the standings from an export, and
every refusal RECORD.md names."""

import copy
import json

import pytest
from django.core.management import call_command

from games.arena.export import document
from tests.games.arena.records import finished_record, interrupted_record, unfinished_record

PLAYERS = [("Masha", 1), ("Alex", 2), ("Olya", 3)]


def hand_worked_export() -> dict:
    # Real games between random players; their final open scores, read once from the
    # records (games.rules.simulate with these seeds), are in the comments.
    games = [
        (1, finished_record(["Masha", "Alex"], seed=3)),   # Masha 19, Alex 111 (goat)
        (2, finished_record(["Masha", "Olya"], seed=2)),   # Masha 62, Olya 110 (goat)
        (3, finished_record(["Alex", "Masha"], seed=0)),   # Alex 125 (goat), Masha 27
        (4, interrupted_record(["Olya", "Alex"], seed=1, rounds=0, seat=1)),  # aborted
        (5, finished_record(["Olya", "Masha"], seed=5)),   # Olya 58, Masha 107 (goat)
    ]
    return document("Вечерняя арена", 2, "all", 20, True, PLAYERS, games)


def run(tmp_path, *documents, raw: bytes | None = None):
    paths = []
    for number, data in enumerate(documents):
        path = tmp_path / f"arena{number}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        paths.append(str(path))
    if raw is not None:
        path = tmp_path / "raw.json"
        path.write_bytes(raw)
        paths.append(str(path))
    import io
    out = io.StringIO()
    code = 0
    try:
        call_command("arena", *paths, stdout=out)
    except SystemExit as exit:
        code = exit.code
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_standings_of_a_valid_export_worked_by_hand(tmp_path):
    # Masha: (1) 100-19 -> 8.1 -> 8, best, streak 1; (2) 100-62 -> 3.8 -> 4, streak 2;
    # (3) on fire: 100-27 -> 7.3 -> 7, x2 = 14, streak 3; (5) on fire, the goat: 0,
    # streak 0.  26 points, 3 best, 4 games.
    # Olya: (2) goat 0; (4) aborted: 0, her streak stays (0); (5) 100-58 -> 4.2 -> 4, best.
    # Alex: goats twice, and (4) he timed out of an aborted game: 0, 3 games.
    code, lines = run(tmp_path, hand_worked_export())
    assert code == 0
    assert lines == [{"standings": [
        {"name": "Masha", "rank": 1, "points": 26, "best": 3, "games": 4, "streak": 0},
        {"name": "Olya", "rank": 2, "points": 4, "best": 1, "games": 3, "streak": 1},
        {"name": "Alex", "rank": 3, "points": 0, "best": 0, "games": 3, "streak": 0},
    ]}]


def test_an_arena_without_games_lists_everyone_by_joining(tmp_path):
    code, lines = run(tmp_path, document("A", 3, "one", 20, False, PLAYERS, []))
    assert code == 0
    assert [s["name"] for s in lines[0]["standings"]] == ["Masha", "Alex", "Olya"]


def test_pairs_export(tmp_path):
    names = ["Masha", "Alex", "Olya", "Serg"]
    players = [(n, j) for j, n in enumerate(names, 1)]
    # Seed 0, pairs, fish for one: seats 0 and 2 end at 135 (goats), 1 and 3 at 21:
    # Alex and Serg get 100-21 -> 7.9 -> 8 each, and are best.
    data = document("P", "pairs", "one", 20, True, players,
                    [(1, finished_record(names, seed=0, fish="one", pairs=True))])
    code, lines = run(tmp_path, data)
    assert code == 0
    assert [(s["name"], s["points"], s["best"]) for s in lines[0]["standings"]] == [
        ("Alex", 8, 1), ("Serg", 8, 1), ("Masha", 0, 0), ("Olya", 0, 0)]


def broken(change) -> dict:
    data = copy.deepcopy(hand_worked_export())
    change(data)
    return data


def break_a_move(data):
    moves = data["games"][0]["record"]["rounds"][0]["moves"]
    moves[0], moves[1] = moves[1], moves[0]  # out of turn


REFUSALS = {
    "invalid record": (break_a_move, "game 1: invalid record: round 1, move 1"),
    "not ended": (lambda d: d["games"][1].update(record=unfinished_record(["Masha", "Olya"], 2)),
                  "game 2 has not ended"),
    "not a player": (lambda d: d["games"][0]["record"]["players"].__setitem__(1, "Serg"),
                     "game 1: 'Serg' is not among the arena's players"),
    "named twice": (lambda d: d["games"][0]["record"]["players"].__setitem__(1, "Masha"),
                    "game 1: the record names a player twice"),
    "table size": (lambda d: d.update(table=3),
                   "game 1: its players do not fit the arena's table (3)"),
    "pairs": (lambda d: d.update(table="pairs"),
              "game 1: its players do not fit the arena's table (pairs)"),
    "fish": (lambda d: d.update(fish="one"), "game 1: its fish rule is not the arena's (one)"),
    "started twice": (lambda d: d["games"][2].update(started=1), "two games share started 1"),
    "joined twice": (lambda d: d["players"][2].update(joined=1), "two players share joined 1"),
    "format": (lambda d: d.update(format="kozel-arena/2"), "an arena export must be"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_each_refusal_of_record_md(tmp_path, case):
    change, error = REFUSALS[case]
    code, lines = run(tmp_path, broken(change))
    assert code == 1
    assert lines[0]["error"].startswith(error), lines


def test_a_broken_file_among_valid_ones_prints_its_error_in_its_place(tmp_path):
    code, lines = run(tmp_path, hand_worked_export(), raw=b"{not json")
    assert code == 1
    assert "standings" in lines[0] and lines[1]["error"].startswith("not JSON")


def test_a_record_of_another_game_is_refused(tmp_path):
    def sea_goat(data):
        data["games"][0]["record"]["variant"] = "sea-goat"
    code, lines = run(tmp_path, broken(sea_goat))
    assert code == 1 and lines[0]["error"].startswith("game 1:")
