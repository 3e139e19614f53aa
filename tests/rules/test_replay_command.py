"""``python manage.py replay FILE...`` exactly as RECORD.md says."""

import json
import pathlib
import subprocess
import sys

from games.rules.simulate import play_game

ROOT = pathlib.Path(__file__).resolve().parents[2]


def replay(*args, stdin=b""):
    return subprocess.run([sys.executable, "manage.py", "replay", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=120)


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


def test_a_dash_reads_the_record_from_standard_input():
    record, state = play_game(3, "all", seed=9)
    done = replay("-", stdin=record.dumps().encode())
    assert done.returncode == 0
    assert json.loads(done.stdout)["goats"] == list(state.goats)
