"""``python manage.py replay FILE...`` exactly as RECORD.md says."""

import json
import pathlib
import subprocess
import sys

import pytest

from games.rules.simulate import play_game

ROOT = pathlib.Path(__file__).resolve().parents[2]


def replay(*args, stdin=b""):
    return subprocess.run([sys.executable, "manage.py", "replay", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=120)


@pytest.mark.slow
def test_one_json_line_per_record_in_order_and_exit_0_when_all_are_valid(tmp_path):
    paths = []
    for seats in (2, 3, 4):
        record, state = play_game(seats, "one", seed=seats)
        path = tmp_path / f"game{seats}.json"
        path.write_text(record.dumps())
        paths.append((path, state))
    done = replay(*[str(p) for p, _ in paths])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 3
    for line, (_, state) in zip(lines, paths):
        result = json.loads(line)
        assert result["status"] == "finished" and result["goats"] == list(state.goats)
        assert result["rounds"][-1]["scores"] == list(state.scores)


@pytest.mark.slow
def test_an_invalid_record_prints_an_error_line_and_the_command_exits_1(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(play_game(2, "all", seed=1)[0].dumps())
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\xffnot json at all")
    done = replay(str(bad), str(good), str(tmp_path / "missing.json"))
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(lines) == 3
    assert set(lines[0]) == {"error"} and "status" in lines[1] and set(lines[2]) == {"error"}
    assert b"Traceback" not in done.stderr


@pytest.mark.slow
def test_a_dash_reads_the_record_from_standard_input():
    record, state = play_game(3, "all", seed=9)
    done = replay("-", stdin=record.dumps().encode())
    assert done.returncode == 0
    assert json.loads(done.stdout)["goats"] == list(state.goats)


@pytest.mark.slow
def test_records_from_elsewhere_replay_as_the_sites_own(tmp_path):
    """RECORD.md: turn_seconds may be left out, any field it does not name is ignored at
    every level.  (A "fair" block is checked: tests/rules/test_fair.py.)"""
    record, state = play_game(4, "all", seed=4)
    data = record.to_json()
    own = tmp_path / "own.json"
    own.write_text(json.dumps(data))
    other = json.loads(json.dumps(data))
    del other["turn_seconds"]
    other.update(site="elsewhere.example")
    other["rounds"][0]["number"] = 1
    for move in other["rounds"][0]["moves"]:
        move["clock"] = 7.5
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(other))
    three = tmp_path / "three.json"  # a pair game of three players
    three.write_text(json.dumps(dict(data, players=data["players"][:3], pairs=True)))
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(dict(data, turn_seconds=86_401)))  # a day and a second
    done = replay(str(own), str(elsewhere), str(three), str(slow))
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert lines[0]["status"] == "finished" and lines[0]["goats"] == list(state.goats)
    assert lines[1] == lines[0]
    assert lines[2] == {"error": 'a pair game ("pairs": true) needs 4 players (RULES.md 11)'}
    assert lines[3] == {"error": '"turn_seconds", when given, must be a whole number of seconds '
                                 'from 1 to 86400'}
