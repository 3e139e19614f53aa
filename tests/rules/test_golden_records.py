"""Golden records (tests/rules/golden): games designed by hand from RULES.md, replayed
through the real ``manage.py replay``, whose whole output line must equal the numbers
worked out by hand beside each round."""

import json
import pathlib
import subprocess
import sys

import pytest

from .golden import fish_one_bank, fish_one_bank_in_fish, two_goats

ROOT = pathlib.Path(__file__).resolve().parents[2]

GOLDEN = {
    # lone 0-0, fish-for-one draw, bank carried over a shared top, bank won out, timeout
    "fish_one_bank": fish_one_bank,
    # 2-2 lead, fish-for-one draw, bank won in a fish, seven draws, a player leaves
    "fish_one_bank_in_fish": fish_one_bank_in_fish,
    # fish for all; two goats at once
    "two_goats": two_goats,
}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """``manage.py replay`` run once on every golden record, in the order of GOLDEN."""
    folder = tmp_path_factory.mktemp("golden")
    paths = []
    for name, module in GOLDEN.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(module.RECORD, ensure_ascii=False))
        paths.append(str(path))
    return subprocess.run([sys.executable, "manage.py", "replay", *paths],
                          cwd=ROOT, capture_output=True, timeout=120)


def test_all_golden_records_at_once_print_one_line_each_and_exit_0(replayed):
    assert replayed.returncode == 0, replayed.stdout.decode() + replayed.stderr.decode()
    assert len(replayed.stdout.decode().splitlines()) == len(GOLDEN)


@pytest.mark.parametrize("index, name", list(enumerate(GOLDEN)))
def test_a_golden_record_replays_to_the_numbers_worked_out_by_hand(replayed, index, name):
    line = replayed.stdout.decode().splitlines()[index]
    assert json.loads(line) == GOLDEN[name].EXPECTED
