"""Sea goat's records and replay (RECORD.md, "Sea goat"): the variant, the fish that is
ignored, the two-doubles move, every refusal it lists, and replay's line."""

import copy
import json

import pytest

from games.rules import (RandomPlayer, SEA_GOAT, Variant, apply, loads_record, new_game,
                         read_record, replay, replay_text, start_round, summarize, view_for)
from games.rules import fair
from games.rules.record import Record, RecordRound
from games.rules.simulate import play_game
from games.rules.state import PLAY

from . import test_seagoat_example as example
from .seagoat_positions import moves, record

ROUND_KEYS = ["result", "seat", "points", "winner", "won", "hundred", "written_off", "scores",
              "writing"]
GAME_KEYS = ["variant", "rounds", "status", "winners", "how", "interrupted_by", "rating_points"]
# Round 4 of the worked example with Masha's and Alex's hands swapped: Masha holds 6-6.
SWAPPED_HANDS = (example.ROUNDS[3][0][1], example.ROUNDS[3][0][0], example.ROUNDS[3][0][2])


def example_with(rounds=None, **changes) -> dict:
    data = dict(example.RECORD, **changes)
    if rounds is not None:
        data["rounds"] = rounds
    return copy.deepcopy(data)  # the tests change it: never the example's own


def error_of(data) -> str:
    line = replay_text(json.dumps(data))
    assert set(line) == {"error"}, line
    return line["error"]


# -- the variant and the fish -----------------------------------------------------------

@pytest.mark.parametrize("fish", ["all", "one", "none at all", 7, None])
def test_fish_is_ignored_in_a_sea_goat_record(fish):
    data = example_with(fish=fish)
    assert replay_text(json.dumps(data)) == example.EXPECTED
    del data["fish"]
    assert replay_text(json.dumps(data)) == example.EXPECTED


@pytest.mark.parametrize("variant", ["donkey", "telephone", "Sea-Goat", "", 5, None, ["kozel"]])
def test_any_other_variant_is_refused(variant):
    assert '"variant"' in error_of(example_with(variant=variant))


def test_a_kozel_record_naming_its_variant_replays_as_without_it():
    record_, _ = play_game(3, "one", seed=5)
    data = record_.to_json()
    assert "variant" not in data  # Kozel's records are written as before
    named = dict(data, variant="kozel")
    assert replay_text(json.dumps(named)) == replay_text(json.dumps(data))
    assert "variant" not in replay_text(json.dumps(data))


def test_a_sea_goat_record_is_written_with_its_variant_and_no_fish_and_reads_back():
    written, state = play_game(3, seed=11, game=SEA_GOAT)
    data = written.to_json()
    assert data["variant"] == SEA_GOAT and "fish" not in data
    again = read_record(json.loads(written.dumps()))
    assert again.variant == SEA_GOAT and again.fish is None
    assert again.to_json() == data
    assert replay(again).state.to_json() == state.to_json()


# -- refusals --------------------------------------------------------------------------

def test_a_later_rounds_lead_of_6_6_by_a_seat_not_writing_is_refused():
    # Round 1 as in the worked example (Masha out, nothing written); Masha then leads 6-6.
    rounds = record(["a", "b", "c"], [example.ROUNDS[0], (SWAPPED_HANDS, example.ROUNDS[3][1],
                                                          "0:6-6")])["rounds"]
    message = error_of(example_with(rounds))
    assert message.startswith("round 2, move 1:") and "RULES.md 13" in message
    assert "writing" in message


def test_a_later_rounds_lead_of_6_6_by_the_seat_writing_is_a_lead_for_a_hundred():
    # Rounds 1-3 as in the worked example: Alex writes 65 and leads round 4, for a hundred.
    data = example_with(example.RECORD["rounds"][:3] + [
        dict(example.RECORD["rounds"][3], moves=moves("1:6-6"))])
    line = replay_text(json.dumps(data))
    assert line["rounds"][-1] == {"result": "unfinished", "turn": 2}
    state = replay(read_record(data)).state
    assert state.hundred == 1 and state.writing == 1


@pytest.mark.parametrize("rounds, where", [
    # two doubles as the round's lead (Masha holds 1-1 and 2-2)
    ([example.ROUNDS[0][:2] + ("0:1-1+2-2",)], "round 1, move 1:"),
    # round 2: 3-6, then 0-6 and 0-3 make both ends 0; Masha's 0-0 and 4-4 cannot go one
    # on each end
    ([example.ROUNDS[0], example.ROUNDS[1][:2] + ("0:3-6 1:0-6/r 2:0-3/l 0:0-0+4-4",)],
     "round 2, move 4:"),
])
def test_two_doubles_where_rules_md_13_does_not_allow_them_are_refused(rounds, where):
    message = error_of(example_with(record(["a", "b", "c"], rounds)["rounds"]))
    assert message.startswith(where) and "RULES.md 13" in message, message


def test_two_doubles_in_a_kozel_record_are_refused():
    written, _ = play_game(2, "all", seed=3)
    data = written.to_json()
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0]["moves"] = [data["rounds"][0]["moves"][0],
                                  {"seat": 1 - data["rounds"][0]["moves"][0]["seat"],
                                   "play": ["0-0", "6-6"]}]
    message = error_of(data)
    assert message.startswith("round 1, move 2:")


@pytest.mark.parametrize("move", [["1-1", "1-1"], ["1-1", "1-2"], ["1-1"]])
def test_a_malformed_two_doubles_move_in_a_record_is_refused(move):
    data = example_with()
    data["rounds"][0]["moves"][0] = {"seat": 0, "play": move}
    assert error_of(data).startswith("round 1, move 1:")


def test_a_round_after_the_game_was_won_is_refused():
    data = example_with(example.RECORD["rounds"] + [example.RECORD["rounds"][0]])
    assert error_of(data).startswith("round 6: a round follows the end of the game (RULES.md 13)")
    data = example_with(interrupt={"seat": 1, "reason": "timeout"})
    assert error_of(data).startswith("the interrupt follows the end of the game (RULES.md 13)")


# -- replay's line -----------------------------------------------------------------------

def test_replay_of_a_game_still_being_played():
    data = example_with(example.RECORD["rounds"][:2])
    data["rounds"][1]["moves"] = data["rounds"][1]["moves"][:3]
    line = replay_text(json.dumps(data))
    assert list(line) == GAME_KEYS
    assert line["rounds"][0] == example.EXPECTED["rounds"][0]
    assert line["rounds"][1] == {"result": "unfinished", "turn": 0}  # 0-0 3-6, 0-6, 0-3: Masha
    assert (line["status"], line["winners"], line["how"], line["interrupted_by"],
            line["rating_points"]) == ("playing", [], None, None, None)


@pytest.mark.parametrize("rounds", [1, 3])
def test_replay_of_an_interrupted_game_has_no_winner_and_is_never_aborted(rounds):
    data = example_with(example.RECORD["rounds"][:rounds],
                        interrupt={"seat": 2, "reason": "left"})
    data["rounds"][-1]["moves"] = data["rounds"][-1]["moves"][:2]
    line = replay_text(json.dumps(data), rate=lambda *a, **k: [1, 2, 3])
    assert (line["status"], line["winners"], line["how"], line["interrupted_by"],
            line["rating_points"]) == ("interrupted", [], None, 2, None)


def test_replay_of_a_pair_game_scores_per_pair_and_names_two_winners():
    written, state = play_game(4, seed=21, pairs=True, game=SEA_GOAT)
    line = replay_text(written.dumps())
    assert list(line) == GAME_KEYS and line["status"] == "finished"
    for round_line in line["rounds"]:
        assert list(round_line) == ROUND_KEYS
        assert len(round_line["points"]) == 4 and len(round_line["scores"]) == 2
        assert round_line["winner"] in (0, 1, None)
        assert round_line["writing"] in (0, 1, None)
    winners = line["winners"]
    assert len(winners) == 2 and winners[1] == winners[0] + 2
    assert line["how"] in ("hundred", "two-doubles", "last-double", "125")
    assert list(state.winners) == winners


# -- verifiable deals -----------------------------------------------------------------------

SERVER_SEED = bytes(range(32))
CLIENT_SEEDS = ["masha", "alex", "olya"]


def fair_sea_goat_record() -> dict:
    """A whole sea goat game dealt by kozel-fair/1 (RECORD.md), played by random players."""
    state = new_game(Variant(3, None, name=SEA_GOAT))
    written = Record(["Masha", "Alex", "Olya"], None, variant=SEA_GOAT,
                     fair={"scheme": fair.SCHEME, "commitment": fair.commitment(SERVER_SEED),
                           "server_seed": SERVER_SEED.hex(), "client_seeds": CLIENT_SEEDS})
    players = [RandomPlayer(seat) for seat in range(3)]
    while not state.over:
        deal, _ = fair.fair_deal(SERVER_SEED, state.round + 1, CLIENT_SEEDS)
        state, _ = start_round(state, deal)
        written.rounds.append(RecordRound(deal))
        while state.phase == PLAY:
            action = players[state.turn].choose(view_for(state, state.turn))
            state, _ = apply(state, action)
            written.rounds[-1].moves.append(action)
    return written.to_json()


def test_verifiable_deals_apply_to_sea_goat_unchanged():
    data = fair_sea_goat_record()
    line = replay_text(json.dumps(data))
    assert line["status"] == "finished" and line["variant"] == SEA_GOAT
    tampered = copy.deepcopy(data)
    tampered["rounds"][-1]["hands"][0], tampered["rounds"][-1]["hands"][1] = \
        tampered["rounds"][-1]["hands"][1], tampered["rounds"][-1]["hands"][0]
    assert "does not follow from the seeds" in error_of(tampered)


def test_summarize_gives_no_rating_points_to_sea_goat_whatever_the_rate():
    played = replay(loads_record(json.dumps(example.RECORD)))
    assert summarize(played, rate=lambda *a, **k: [9, 9, 9])["rating_points"] is None
