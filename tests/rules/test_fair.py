"""kozel-fair/1 (RECORD.md): fixed vectors, and a second implementation written plainly here.

The vectors were computed once by games/rules/fair.py and checked against ``plain_deal``
below, which follows RECORD.md's six steps line by line with nothing shared but the
standard library.  Either implementation changing its output fails a test.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import pathlib
import subprocess
import sys

import pytest

from games.rules import fair, replay_text

TILE_ORDER = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]  # 0-0, 0-1, ..., 6-6


def plain_needs_redeal(hand: list[str]) -> bool:
    halves = [tuple(int(v) for v in t.split("-")) for t in hand]
    if sum(1 for a, b in halves if a == b) >= 5:
        return True
    return any(sum(1 for a, b in halves if v in (a, b)) >= 6 for v in range(7))


def plain_deal(server_seed: bytes, rnd: int, client_seeds: list[str]):
    attempt = 0
    while True:
        context = "kozel-fair/1" + "".join("\n" + str(x) for x in [rnd, attempt, *client_seeds])
        stream, i = b"", 0
        pos = 0

        def take4():
            nonlocal stream, i, pos
            while len(stream) < pos + 4:
                stream += hmac.new(server_seed, (context + "\n" + str(i)).encode(), hashlib.sha256).digest()
                i += 1
            pos += 4
            return int.from_bytes(stream[pos - 4:pos], "big")

        def uniform(k):
            x = take4()
            while x >= 2**32 - (2**32 % k):
                x = take4()
            return x % k

        tiles = list(TILE_ORDER)
        for j in range(27, 0, -1):
            r = uniform(j + 1)
            tiles[j], tiles[r] = tiles[r], tiles[j]
        n = len(client_seeds)
        hands = [tiles[7 * s:7 * s + 7] for s in range(n)]
        if not any(plain_needs_redeal(h) for h in hands):
            return hands, tiles[7 * n:], attempt
        attempt += 1


SEED_A = hashlib.sha256(b"kozel-fair test 7").digest()  # round 1 needs a redeal
SEED_B = bytes(range(32))
SEEDS_A = ["a", "b", "c", "d"]
SEEDS_B = ["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "1"]

# (seed, client seeds, round, attempt, hands, bazaar), written out from a run.
VECTORS = [
    (SEED_A, SEEDS_A, 1, 1, ["1-4 0-1 3-5 1-6 5-6 0-3 4-6", "6-6 5-5 3-3 4-4 0-5 1-2 2-6",
                             "0-4 1-3 2-5 1-1 2-4 0-2 3-6", "3-4 2-3 2-2 4-5 0-0 0-6 1-5"], ""),
    (SEED_A, SEEDS_A, 2, 0, ["1-5 0-3 6-6 2-5 0-6 4-5 0-4", "2-4 3-6 0-1 1-2 4-6 1-6 1-1",
                             "1-4 4-4 5-6 3-3 2-3 2-2 0-2", "5-5 0-5 2-6 3-5 3-4 1-3 0-0"], ""),
    (SEED_A, SEEDS_A, 3, 0, ["1-3 1-4 2-2 5-6 1-6 2-3 0-5", "0-1 0-4 3-6 4-4 3-5 4-5 2-4",
                             "3-3 0-0 5-5 6-6 4-6 0-3 1-5", "3-4 1-1 2-5 2-6 1-2 0-6 0-2"], ""),
    (SEED_B, SEEDS_B, 1, 0, ["4-6 3-6 2-4 5-5 1-6 3-3 1-3", "6-6 3-5 0-3 1-2 4-5 5-6 2-3"],
     "2-6 1-4 0-4 0-0 0-1 4-4 0-6 2-2 3-4 2-5 0-5 0-2 1-5 1-1"),
    (SEED_B, SEEDS_B, 2, 0, ["0-5 2-4 3-6 4-4 1-4 3-4 1-1", "0-4 3-3 5-6 2-3 6-6 0-3 5-5"],
     "1-3 4-6 1-6 2-5 2-6 0-0 4-5 0-1 0-2 0-6 3-5 2-2 1-2 1-5"),
    (SEED_B, SEEDS_B, 3, 0, ["3-3 1-1 4-6 1-4 3-5 1-2 5-6", "2-2 2-4 4-4 0-0 0-2 1-5 6-6"],
     "0-3 0-5 0-6 0-1 0-4 5-5 1-6 2-3 4-5 1-3 3-4 2-6 3-6 2-5"),
]


@pytest.mark.parametrize("seed, client_seeds, rnd, attempt, hands, bazaar", VECTORS)
def test_vectors(seed, client_seeds, rnd, attempt, hands, bazaar):
    deal, got_attempt = fair.fair_deal(seed, rnd, client_seeds)
    expected = ([h.split() for h in hands], bazaar.split())
    assert ([[t.name for t in h] for h in deal.hands], [t.name for t in deal.bazaar]) == expected
    assert got_attempt == attempt
    assert plain_deal(seed, rnd, client_seeds) == (*expected, attempt)


def test_the_redealt_attempt_really_needed_a_redeal():
    # Attempt 0 of SEED_A's round 1 gives seat 0 "1-1 1-2 0-0 4-4 3-3 5-5 0-1": the doubles
    # 1-1, 0-0, 4-4, 3-3, 5-5 are five, so RULES.md 3 redeals it.
    first = fair.attempt_deal(SEED_A, 1, 0, SEEDS_A)
    assert [t.name for t in first.hands[0]] == "1-1 1-2 0-0 4-4 3-3 5-5 0-1".split()


def test_commitment_is_sha256_hex():
    # sha256 of bytes 0..31, as `printf` of those bytes piped to sha256sum prints it.
    assert fair.commitment(SEED_B) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


@pytest.mark.parametrize("n", range(20))
def test_agrees_with_the_plain_implementation(n):
    seed = hashlib.sha256(b"agree %d" % n).digest()
    seeds = [str(s) for s in range(2 + n % 3)] if n % 2 else ["x" * 64, "~ !", "q"][: 2 + n % 2]
    for rnd in (1, 2, 3):
        deal, attempt = fair.fair_deal(seed, rnd, seeds)
        hands, bazaar, plain_attempt = plain_deal(seed, rnd, seeds)
        assert [[t.name for t in h] for h in deal.hands] == hands
        assert [t.name for t in deal.bazaar] == bazaar and attempt == plain_attempt


def test_the_client_seeds_change_the_deal():
    a, _ = fair.fair_deal(SEED_B, 1, ["1", "2"])
    b, _ = fair.fair_deal(SEED_B, 1, ["1", "3"])
    assert not fair.same_deal(a, b)


@pytest.mark.parametrize("seed, ok", [("0", True), ("x" * 64, True), ("", False), ("x" * 65, False),
                                       ("é", False), ("a\nb", False), (5, False)])
def test_client_seed_validity(seed, ok):
    assert fair.valid_client_seed(seed) is ok


# -- records: `manage.py replay` checks the "fair" block ----------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[2]


def fair_record(seed=SEED_B, seeds=SEEDS_B, **changes):
    deal, _ = fair.fair_deal(seed, 1, seeds)
    block = {"scheme": "kozel-fair/1", "commitment": fair.commitment(seed),
             "server_seed": seed.hex(), "client_seeds": list(seeds)}
    block.update(changes)
    return {"format": "kozel-record/1", "players": ["Masha", "Alex"], "fish": "one",
            "fair": block, "rounds": [dict(deal.to_json(), moves=[])]}


def replay_lines(tmp_path, *records):
    paths = []
    for n, record in enumerate(records):
        paths.append(tmp_path / f"r{n}.json")
        paths[-1].write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "manage.py", "replay", *map(str, paths)], cwd=ROOT,
                          capture_output=True, timeout=120)
    return done.returncode, [json.loads(line) for line in done.stdout.decode().splitlines()]


@pytest.mark.slow
def test_replay_accepts_a_fair_record_and_refuses_a_changed_one(tmp_path):
    good = fair_record()
    swapped = fair_record()
    # Round 1's hands, seat 0 "4-6 3-6 2-4 5-5 1-6 3-3 1-3" and seat 1 "6-6 3-5 ...":
    # exchanging the two hands keeps a lawful deal that the seeds did not make.
    swapped["rounds"][0]["hands"].reverse()
    other_seed = fair_record(server_seed=SEED_A.hex())  # commitment still SEED_B's
    other_client = fair_record(client_seeds=["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "2"])
    code, lines = replay_lines(tmp_path, good, swapped, other_seed, other_client)
    assert code == 1
    assert "error" not in lines[0] and lines[0]["rounds"][0]["result"] == "unfinished"
    assert lines[1] == {"error": "round 1: the deal does not follow from the seeds (RECORD.md, kozel-fair/1)"}
    assert "does not match its commitment" in lines[2]["error"]
    assert lines[3]["error"].startswith("round 1: the deal does not follow")


def test_a_fair_records_hands_may_be_in_any_order_but_its_bazaar_is_in_draw_order():
    record = fair_record()
    for hand in record["rounds"][0]["hands"]:
        hand.reverse()
    assert "error" not in replay_text(json.dumps(record))
    bazaar = record["rounds"][0]["bazaar"]
    bazaar[0], bazaar[1] = bazaar[1], bazaar[0]
    assert replay_text(json.dumps(record)) == {
        "error": "round 1: the deal does not follow from the seeds (RECORD.md, kozel-fair/1)"}


def test_every_round_of_a_fair_record_is_checked_and_named():
    record = fair_record()
    third, _ = fair.fair_deal(SEED_B, 3, SEEDS_B)  # round 3's deal given as round 2's
    record["rounds"].append(dict(third.to_json(), moves=[]))
    assert replay_text(json.dumps(record)) == {
        "error": "round 2: the deal does not follow from the seeds (RECORD.md, kozel-fair/1)"}


@pytest.mark.parametrize("client_seeds", [["1"], ["1", "2", "3"], ["1", "x" * 65], ["1", ""]])
def test_a_fair_block_holds_one_valid_client_seed_per_seat(client_seeds):
    error = replay_text(json.dumps(fair_record(client_seeds=client_seeds)))["error"]
    assert error.startswith('"fair" must be') and "one per seat" in error
