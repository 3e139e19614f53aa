"""RECORD.md: writing, reading and replaying game records; every invalid record is refused
with a message naming the round, the move and the rule, never with a traceback."""

import copy
import json

import pytest

from games.rules import loads_record, read_record, replay, replay_text
from ratings.formulas import game_points
from games.rules.simulate import play_game
from games.rules.tiles import TILES

from .positions import FIVE_DOUBLES, REDEAL_THRESHOLDS, SIX_OF_A_VALUE, deal, deal_with

ROUND_KEYS = {"result", "seat", "points", "credited", "scores", "remembered", "opened", "bank"}


def record_of(seats=4, fish="one", seed=1):
    record, state = play_game(seats, fish, seed)
    return record.to_json(), state


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("fish", ["all", "one"])
def test_a_written_record_replays_to_the_same_results(seats, fish):
    rounds = []
    record, state = play_game(seats, fish, seed=seats * 7,
                              on_step=lambda s, ev: rounds.extend(
                                  e for e in ev if e["type"] == "round_ended"))
    text = json.dumps(record.to_json())
    summary = replay_text(text, rate=game_points)
    assert summary["status"] == "finished"
    assert summary["goats"] == list(state.goats)
    assert [r["scores"] for r in summary["rounds"]] == [r["scores"] for r in rounds]
    assert all(set(r) == ROUND_KEYS for r in summary["rounds"])
    assert summary["rounds"][-1]["scores"] == list(state.scores)
    assert summary["interrupted_by"] is None
    assert len(summary["rating_points"]) == seats


def test_the_summary_has_the_shape_of_record_md():
    data, _ = record_of(4, "one", 3)
    data["rounds"] = data["rounds"][:2]
    data["rounds"][1]["moves"] = data["rounds"][1]["moves"][:3]
    data["interrupt"] = {"seat": 1, "reason": "timeout"}
    summary = replay_text(json.dumps(data), rate=game_points)
    assert set(summary) == {"rounds", "status", "goats", "interrupted_by", "rating_points"}
    assert set(summary["rounds"][0]) == ROUND_KEYS
    assert summary["rounds"][1] == {"result": "unfinished", "turn": summary["rounds"][1]["turn"]}
    assert summary["status"] == "interrupted" and summary["interrupted_by"] == 1
    assert summary["goats"] == [] and summary["rating_points"][1] == 0


def test_a_game_still_being_played_has_no_rating_points():
    data, _ = record_of(3, "all", 4)
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0]["moves"] = data["rounds"][0]["moves"][:2]
    summary = replay_text(json.dumps(data), rate=game_points)
    assert summary["status"] == "playing" and summary["rating_points"] is None
    assert summary["rounds"] == [{"result": "unfinished", "turn": summary["rounds"][0]["turn"]}]


def test_a_tile_may_be_written_high_half_first():
    data, _ = record_of(2, "all", 5)
    data["rounds"][0]["hands"][0] = ["-".join(reversed(t.split("-")))
                                     for t in data["rounds"][0]["hands"][0]]
    assert "error" not in replay_text(json.dumps(data), rate=game_points)


def _first(data, predicate):
    for r, rnd in enumerate(data["rounds"]):
        for m, move in enumerate(rnd["moves"]):
            if predicate(r, m, move):
                return r, m
    raise AssertionError("no such move in the record")


def mutate(name):
    """Invalid records made from a valid one, each breaking one thing."""
    seed = 11
    while True:  # a two-player game in which somebody knocks
        data, state = record_of(2, "one", seed)
        if any("knock" in mv for rnd in data["rounds"] for mv in rnd["moves"]):
            break
        seed += 1
    rounds = data["rounds"]
    if name == "hand of 6":
        rounds[0]["hands"][0] = rounds[0]["hands"][0][:6]
    elif name == "tile twice":
        rounds[0]["bazaar"][0] = rounds[0]["hands"][0][0]
    elif name == "redeal":
        five_doubles = ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "2-3"]
        rest = [t.name for t in TILES if t.name not in five_doubles]
        rounds[0].update(hands=[five_doubles, rest[:7]], bazaar=rest[7:])
    elif name == "out of turn":
        move = rounds[0]["moves"][1]
        move["seat"] = 1 - move["seat"]
    elif name == "tile not held":
        move = rounds[0]["moves"][0]
        move["play"] = rounds[0]["bazaar"][-1]
    elif name == "wrong lead":
        lead = rounds[0]["moves"][0]
        lead["play"] = next(t for t in rounds[0]["hands"][lead["seat"]] if t != lead["play"])
    elif name == "draw while playable":
        r, m = _first(data, lambda r, m, mv: m > 0 and "play" in mv)
        rounds[r]["moves"][m] = {"seat": rounds[r]["moves"][m]["seat"], "draw": True}
    elif name == "knock with a bazaar":
        r, m = _first(data, lambda r, m, mv: "draw" in mv)
        rounds[r]["moves"][m] = {"seat": rounds[r]["moves"][m]["seat"], "knock": True}
    elif name == "draw from an empty bazaar":
        r, m = _first(data, lambda r, m, mv: "knock" in mv)
        rounds[r]["moves"][m] = {"seat": rounds[r]["moves"][m]["seat"], "draw": True}
    elif name == "fits no end":
        # At a draw the seat holds no tile that fits: play one of its tiles anyway.
        r, m = _first(data, lambda r, m, mv: "draw" in mv)
        seat = rounds[r]["moves"][m]["seat"]
        played = {mv.get("play") for mv in rounds[r]["moves"][:m]}
        held = [t for t in rounds[r]["hands"][seat] if t not in played]
        rounds[r]["moves"][m] = {"seat": seat, "play": held[0], "end": "left"}
    elif name == "move after the round":
        rounds[0]["moves"].append(copy.deepcopy(rounds[0]["moves"][-1]))
    elif name == "round after the game":
        rounds.append(copy.deepcopy(rounds[0]))
    elif name == "interrupt after the game":
        data["interrupt"] = {"seat": 0, "reason": "left"}
    elif name == "unfinished round then another":
        rounds[0]["moves"] = rounds[0]["moves"][:3]
    return data


@pytest.mark.parametrize("name, words", [
    ("hand of 6", ["round 1", "not 7", "RULES.md 3"]),
    ("tile twice", ["round 1", "28 tiles", "RULES.md 3"]),
    ("redeal", ["round 1", "redealt", "RULES.md 3"]),
    ("out of turn", ["round 1, move 2", "not your turn", "RULES.md 5"]),
    ("tile not held", ["round 1, move 1", "do not hold", "RULES.md"]),
    ("wrong lead", ["round 1, move 1", "opens with", "RULES.md 4"]),
    ("draw while playable", ["move", "must play", "RULES.md 5.1"]),
    ("knock with a bazaar", ["move", "not empty", "RULES.md 5.3"]),
    ("draw from an empty bazaar", ["move", "bazaar is empty", "RULES.md 5.2"]),
    ("fits no end", ["move", "fits neither open end", "RULES.md 5"]),
    ("move after the round", ["round 1, move", "follows the end of its round"]),
    ("round after the game", ["follows the end of the game"]),
    ("interrupt after the game", ["interrupt follows the end of the game"]),
    ("unfinished round then another", ["round 1", "did not end"]),
])
def test_an_invalid_record_is_refused_naming_round_move_and_rule(name, words):
    result = replay_text(json.dumps(mutate(name)), rate=game_points)
    assert set(result) == {"error"}
    for word in words:
        assert word in result["error"]


def a_record(seats, *rounds):
    """A record of ``seats`` players whose rounds are ``(deal, moves)``."""
    return json.dumps({
        "format": "kozel-record/1", "players": [f"player {n}" for n in range(seats)],
        "fish": "all", "turn_seconds": 30,
        "rounds": [dict(dealt.to_json(), moves=moves) for dealt, moves in rounds]})


@pytest.mark.parametrize("hand", [FIVE_DOUBLES, SIX_OF_A_VALUE])
@pytest.mark.parametrize("seats, seat", [(n, s) for n in (2, 3, 4) for s in range(n)])
def test_a_record_is_refused_whichever_seat_holds_a_hand_to_redeal(hand, seats, seat):
    result = replay_text(a_record(seats, (deal_with(hand, seat, seats), [])))
    assert set(result) == {"error"}
    for words in ("round 1", f"seat {seat} should have been redealt", "RULES.md 3"):
        assert words in result["error"]


def test_a_later_round_of_a_record_is_refused_for_a_hand_to_redeal():
    data, _ = record_of(4, "all", 2)
    data["rounds"][1:] = [dict(deal_with(FIVE_DOUBLES, 3, 4).to_json(), moves=[])]
    result = replay_text(json.dumps(data), rate=game_points)
    assert "round 2" in result["error"] and "seat 3 should have been redealt" in result["error"]


@pytest.mark.parametrize("hand, lawful", REDEAL_THRESHOLDS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_record_at_the_redeal_thresholds(hand, lawful, seats):
    last = seats - 1
    result = replay_text(a_record(seats, (deal_with(hand, last, seats), [])))
    if lawful:  # a dealt round with no move yet: an unfinished game
        assert result["status"] == "playing" and result["rounds"][0]["result"] == "unfinished"
    else:
        assert f"round 1: the hand of seat {last} should have been redealt" in result["error"]


# RECORD.md "Ends", on one deal: seat 0 leads 1-1; seat 1 plays 1-2 and 2-3, seat 0 1-3 and 2-4.
ENDS_DEAL = deal("1-1 1-3 0-0 4-4 5-6 0-5 2-4", "1-2 2-3 0-6 3-5 4-5 0-4 5-5")
ENDS_MOVES = [
    {"seat": 0, "play": "1-1"},  # the lead: ends 1 and 1
    {"seat": 1, "play": "1-2"},  # fits both ends, which show 1 and 1: on the right, ends 1 and 2
    {"seat": 0, "play": "1-3"},  # fits the left end only: there, ends 3 and 2
    {"seat": 1, "play": "2-3"},  # fits both ends, 3 and 2: its end must be named
    {"seat": 0, "play": "2-4"},  # (after 2-3 on the left, ends 2 and 2) on the right
]


def replayed_chain(moves):
    return replay(loads_record(a_record(2, (ENDS_DEAL, moves)))).state.chain


def test_a_record_leaving_out_an_end_that_must_be_named_is_refused():
    result = replay_text(a_record(2, (ENDS_DEAL, ENDS_MOVES[:4])), rate=game_points)
    assert result == {"error": "round 1, move 4: 2-3 fits both ends: say which end to play it on "
                               "(RULES.md 5.1)"}


def test_a_named_end_is_where_the_tile_goes():
    on_left = dict(ENDS_MOVES[3], end="left")
    assert replayed_chain(ENDS_MOVES[:3] + [on_left]) == ((2, 3), (3, 1), (1, 1), (1, 2))
    on_right = dict(ENDS_MOVES[3], end="right")
    assert replayed_chain(ENDS_MOVES[:3] + [on_right]) == ((3, 1), (1, 1), (1, 2), (2, 3))


def test_an_end_left_out_for_a_tile_that_fits_one_end_goes_there():
    assert replayed_chain(ENDS_MOVES[:3]) == ((3, 1), (1, 1), (1, 2))


def test_naming_an_end_the_tile_does_not_fit_is_an_error():
    # 1-3 fits the left end only (ends 1 and 2): naming the right end is refused.
    moves = ENDS_MOVES[:2] + [dict(ENDS_MOVES[2], end="right")]
    assert replay_text(a_record(2, (ENDS_DEAL, moves))) == {
        "error": "round 1, move 3: 1-3 does not fit the right end (RULES.md 5.1)"}


def test_the_first_tile_lies_with_its_lower_half_as_the_left_end():
    # No hand holds a double, so 5-6 leads (RULES.md 4); written "6-5", it still lies 5 | 6.
    no_doubles = deal("5-6 0-1 1-2 2-3 3-4 0-4 1-3", "4-6 0-2 1-4 2-4 3-5 0-5 1-5")
    state = replay(loads_record(a_record(2, (no_doubles, [{"seat": 0, "play": "6-5"}])))).state
    assert state.chain == ((5, 6),) and (state.left, state.right) == (5, 6)


def test_an_end_left_out_when_both_ends_show_the_same_value_goes_on_the_right():
    assert replayed_chain(ENDS_MOVES[:2]) == ((1, 1), (1, 2))  # ends 1 and 1, from a double
    moves = ENDS_MOVES[:3] + [dict(ENDS_MOVES[3], end="left"), ENDS_MOVES[4]]  # ends 2 and 2
    assert replayed_chain(moves) == ((2, 3), (3, 1), (1, 1), (1, 2), (2, 4))


GARBAGE = [
    b"", b"not json", b"\xff\xfe\x00", b"[]", b"null", b"42", b'"kozel"', b"{}",
    b"[" * 100_000 + b"]" * 100_000,
    json.dumps({"format": "kozel-record/2", "players": ["a", "b"], "fish": "all",
                "turn_seconds": 30, "rounds": []}).encode(),
]


def _variants():
    base, _ = record_of(2, "all", 8)
    out = []
    for key in ("players", "fish", "rounds", "format"):  # turn_seconds may be left out
        broken = copy.deepcopy(base)
        del broken[key]
        out.append(broken)
    for key, value in [("players", ["only one"]), ("players", ["a", "b", "c", "d", "e"]),
                       ("players", [1, 2]), ("fish", "some"), ("turn_seconds", True),
                       ("turn_seconds", 10**100), ("turn_seconds", "30"), ("rounds", {}),
                       ("turn_seconds", 0), ("turn_seconds", 86_401), ("turn_seconds", None),
                       ("turn_seconds", 30.0), ("pairs", True), ("pairs", "no"), ("pairs", None),
                       ("interrupt", {"seat": 10**100, "reason": "timeout"}),
                       ("interrupt", {"seat": 0, "reason": "bored"}), ("interrupt", [])]:
        broken = copy.deepcopy(base)
        broken[key] = value
        out.append(broken)
    for path_value in [("hands", "7 tiles"), ("hands", [["1-2"] * 7] * 2), ("bazaar", None),
                       ("moves", "all of them"), ("moves", [{"seat": 0, "play": "7-7"}]),
                       ("moves", [{"seat": 10**100, "knock": True}]),
                       ("moves", [{"seat": 0, "play": 1.5}]), ("moves", [{"play": "1-1"}]),
                       ("moves", [{"seat": 0, "draw": "yes"}]), ("moves", [[]]),
                       ("moves", [{"seat": 0, "pass": True}]),
                       ("moves", [{"seat": 0, "play": "1-1", "knock": True}]),
                       ("hands", [[1, 2, 3, 4, 5, 6, 7]] * 2)]:
        broken = copy.deepcopy(base)
        broken["rounds"][0][path_value[0]] = path_value[1]
        out.append(broken)
    broken = copy.deepcopy(base)
    broken["rounds"][0] = "a round"
    out.append(broken)
    return [json.dumps(v).encode() for v in out]


@pytest.mark.parametrize("text", GARBAGE + _variants())
def test_garbage_is_an_invalid_record_never_a_traceback(text):
    result = replay_text(text, rate=game_points)
    assert set(result) == {"error"} and result["error"]


# -- records from elsewhere (RECORD.md: optional and unknown fields) --------------------------

def test_a_record_without_turn_seconds_replays_as_with_it():
    data, _ = record_of(3, "one", 12)
    expected = replay_text(json.dumps(data), rate=game_points)
    assert expected["status"] == "finished"
    del data["turn_seconds"]
    assert replay_text(json.dumps(data), rate=game_points) == expected


def test_turn_seconds_is_kept_as_read_and_written_only_when_known():
    data, _ = record_of(2, "all", 5)
    assert read_record(data).turn_seconds == data["turn_seconds"] == 30  # play_game's 30
    assert read_record(dict(data, turn_seconds=86_400)).turn_seconds == 86_400  # a day: the most
    del data["turn_seconds"]
    record = read_record(data)
    assert record.turn_seconds is None
    assert "turn_seconds" not in record.to_json()
    assert record.to_json() == data  # nothing else is lost or made up on the way


@pytest.mark.parametrize("seconds", [0, -30, 86_401, 30.0, "30", None, True])
def test_a_turn_seconds_that_is_given_must_be_a_whole_number_from_1_to_86400(seconds):
    data, _ = record_of(2, "all", 5)
    data["turn_seconds"] = seconds
    assert replay_text(json.dumps(data), rate=game_points) == {
        "error": '"turn_seconds", when given, must be a whole number of seconds from 1 to 86400'}


def with_fields_from_elsewhere(data):
    """The record with fields RECORD.md does not name at every level: the record, a round,
    a move of each kind, and the interrupt."""
    data = copy.deepcopy(data)
    data.update(site="elsewhere.example", version=[2, 1], event={"name": "cup", "table": 7})
    for rnd in data["rounds"]:
        rnd.update(number=1, started="2024-05-01T12:00:00Z", bazaar_size=len(rnd["bazaar"]))
        for move in rnd["moves"]:
            move.update(clock=12.5, comment={"text": "a good move"}, auto=False)
    data["interrupt"]["at"] = "2024-05-01T12:30:00Z"
    return data


def test_fields_the_format_does_not_name_are_ignored_at_every_level():
    seed = 11
    while True:  # a two-player game in which somebody knocks, as mutate() finds
        data, _ = record_of(2, "one", seed)
        if any("knock" in mv for rnd in data["rounds"] for mv in rnd["moves"]):
            break
        seed += 1
    # Cut right after the first knock (its round unfinished, or just ended by a fish), so
    # that the game can still be interrupted.
    r, m = _first(data, lambda r, m, mv: "knock" in mv)
    data["rounds"] = data["rounds"][:r + 1]
    data["rounds"][r]["moves"] = data["rounds"][r]["moves"][:m + 1]
    data["interrupt"] = {"seat": 0, "reason": "left"}
    kinds = {next(k for k in ("play", "draw", "knock") if k in mv)
             for rnd in data["rounds"] for mv in rnd["moves"]}
    assert kinds == {"play", "draw", "knock"}  # every kind of move gets the extra fields
    expected = replay_text(json.dumps(data), rate=game_points)
    assert expected["status"] == "interrupted"
    assert replay_text(json.dumps(with_fields_from_elsewhere(data)),
                       rate=game_points) == expected


def test_a_move_that_is_not_a_play_a_draw_or_a_knock_is_still_refused():
    data, _ = record_of(2, "all", 5)
    seat = data["rounds"][0]["moves"][0]["seat"]
    data["rounds"][0]["moves"][0] = {"seat": seat, "pass": True, "clock": 3}
    assert replay_text(json.dumps(data), rate=game_points) == {"error": (
        'round 1, move 1: an action needs exactly one of "play", "draw" or "knock" (RECORD.md)')}


def test_an_end_is_a_field_of_plays_only():
    """"end" is a field the format names, for plays: on a draw it is a mistake, not a
    field from elsewhere to ignore."""
    data, _ = record_of(2, "one", 11)
    r, m = _first(data, lambda r, m, mv: "draw" in mv)
    data["rounds"][r]["moves"][m]["end"] = "left"
    assert replay_text(json.dumps(data), rate=game_points) == {"error": (
        f"round {r + 1}, move {m + 1}: unexpected field 'end' in a draw action (RECORD.md)")}


def test_pairs_false_is_a_game_alone_and_pairs_needs_four_players():
    data, _ = record_of(4, "all", 2)
    assert replay_text(json.dumps(dict(data, pairs=False)), rate=game_points) == \
        replay_text(json.dumps(data), rate=game_points)
    three, _ = record_of(3, "all", 2)
    assert replay_text(json.dumps(dict(three, pairs=True))) == {
        "error": 'a pair game ("pairs": true) needs 4 players (RULES.md 11)'}


def test_a_fair_block_is_checked():
    data, _ = record_of(4, "one", 2)
    # A well-formed block whose seed is not its commitment's ("1"*64 does not hash to
    # "0"*64), then a malformed one: both make the record invalid now (RECORD.md).
    fair = {"scheme": "kozel-fair/1", "commitment": "0" * 64, "server_seed": "1" * 64,
            "client_seeds": ["a", "b", "c", "3"]}
    assert "does not match its commitment" in replay_text(json.dumps(dict(data, fair=fair)))["error"]
    assert replay_text(json.dumps(dict(data, fair="not even an object")))["error"].startswith('"fair" must be')
