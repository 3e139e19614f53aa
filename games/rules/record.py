"""Game records (RECORD.md, ``kozel-record/1``): write, read, replay and summarize.

A record holds the deals and every action of a game.  ``read_record`` checks its shape,
``replay`` plays it through the rules (any broken rule is an InvalidRecord naming the
round, the move and the rule) and ``summarize`` gives the line ``manage.py replay`` prints.
A record names its game (``"variant"``: Kozel when absent, or sea goat, RULES.md 13).
Fields the format does not name are ignored at every level, so that records written by
other tools (or later versions) still replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import fair
from .actions import Action, action_from_json
from .deal import Deal, deal_from_json
from .engine import LEFT_GAME, TIMEOUT, apply, interrupt, new_game, start_round
from .errors import IllegalAction, InvalidDeal, InvalidRecord, MalformedAction
from .state import FINISHED, INTERRUPTED, PLAY, GameState
from .variant import GAMES, KOZEL, Variant

FORMAT = "kozel-record/1"
MAX_NAME_LENGTH = 150
MAX_TURN_SECONDS = 86_400
# The fields of a move (RECORD.md); any other is left out before the move is read, while
# the client's messages, read by the same action_from_json, may carry no other.
MOVE_FIELDS = ("seat", "play", "draw", "knock", "end")


@dataclass
class RecordRound:
    deal: Deal
    moves: list[Action] = field(default_factory=list)


@dataclass
class Record:
    players: list[str]
    fish: str | None  # Kozel's fish rule; None for a game without one (sea goat)
    turn_seconds: int | None = None  # informational, and optional in a record
    rounds: list[RecordRound] = field(default_factory=list)
    interrupt: tuple[int, str] | None = None  # (seat, "timeout" or "left")
    fair: dict | None = None  # the kozel-fair/1 block, checked against every deal
    pairs: bool = False  # two pairs, seats 0&2 and 1&3 (RULES.md 11)
    variant: str = KOZEL  # the game (variant.py's GAMES)

    @property
    def game_variant(self) -> Variant:
        return Variant(len(self.players), self.fish, self.pairs, self.variant)

    def to_json(self) -> dict:
        if self.variant == KOZEL:
            data = {"format": FORMAT, "players": list(self.players), "fish": self.fish}
        else:  # a game without a fish rule (sea goat)
            data = {"format": FORMAT, "variant": self.variant, "players": list(self.players)}
        if self.pairs:
            data["pairs"] = True
        if self.turn_seconds is not None:
            data["turn_seconds"] = self.turn_seconds
        data["rounds"] = [dict(r.deal.to_json(), moves=[m.to_json() for m in r.moves])
                          for r in self.rounds]
        if self.fair is not None:
            data["fair"] = dict(self.fair)
        if self.interrupt is not None:
            data["interrupt"] = {"seat": self.interrupt[0], "reason": self.interrupt[1]}
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)


# -- reading --------------------------------------------------------------------------

def loads_record(text: str | bytes) -> Record:
    """Parse the text of a record; InvalidRecord for anything that is not one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise InvalidRecord(f"not JSON: {str(error)[:80]}") from None
    return read_record(data)


def read_record(data: object) -> Record:
    """Check a decoded record's shape (not yet its rules: see ``replay``)."""
    if not isinstance(data, dict):
        raise InvalidRecord("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise InvalidRecord(f'"format" must be "{FORMAT}"')
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(
            isinstance(p, str) and 0 < len(p) <= MAX_NAME_LENGTH for p in players):
        raise InvalidRecord('"players" must list 2 to 4 names')
    variant = data.get("variant", KOZEL)
    if not isinstance(variant, str) or variant not in GAMES:
        raise InvalidRecord(f'"variant" must be one of {", ".join(map(repr, GAMES))} '
                            f'(absent: {KOZEL!r})')
    fish = None
    if GAMES[variant].fish_rule:  # else "fish" is ignored
        fish = data.get("fish")
        if fish not in ("all", "one"):
            raise InvalidRecord('"fish" must be "all" or "one"')
    seconds = data.get("turn_seconds")
    if "turn_seconds" in data and (type(seconds) is not int
                                   or not 1 <= seconds <= MAX_TURN_SECONDS):
        raise InvalidRecord(f'"turn_seconds", when given, must be a whole number of seconds '
                            f'from 1 to {MAX_TURN_SECONDS}')
    pairs = _read_pairs(data.get("pairs", False), len(players))
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise InvalidRecord('"rounds" must be a list')
    record = Record(list(players), fish, seconds, pairs=pairs, variant=variant)
    for number, raw in enumerate(rounds, 1):
        record.rounds.append(_read_round(raw, number, len(players)))
    raw_interrupt = data.get("interrupt")
    if raw_interrupt is not None:
        if not isinstance(raw_interrupt, dict) \
                or type(raw_interrupt.get("seat")) is not int \
                or not 0 <= raw_interrupt["seat"] < len(players) \
                or raw_interrupt.get("reason") not in (TIMEOUT, LEFT_GAME):
            raise InvalidRecord('"interrupt" must be {"seat": a seat, "reason": "timeout" or "left"}')
        record.interrupt = (raw_interrupt["seat"], raw_interrupt["reason"])
    if "fair" in data:
        record.fair = _read_fair(data["fair"], len(players))
        _check_fair_deals(record)
    return record


_HEX = frozenset("0123456789abcdef")


def _read_fair(raw: object, seats: int) -> dict:
    """The kozel-fair/1 block (RECORD.md), its seed checked against its commitment."""
    shape = ('"fair" must be {"scheme": "kozel-fair/1", "commitment": 64 hex, '
             '"server_seed": 64 hex, "client_seeds": one per seat}')
    if not isinstance(raw, dict) or raw.get("scheme") != fair.SCHEME:
        raise InvalidRecord(shape)
    hexes = [raw.get("commitment"), raw.get("server_seed")]
    if not all(isinstance(h, str) and len(h) == 64 and set(h) <= _HEX for h in hexes):
        raise InvalidRecord(shape)
    seeds = raw.get("client_seeds")
    if not isinstance(seeds, list) or len(seeds) != seats \
            or not all(fair.valid_client_seed(s) for s in seeds):
        raise InvalidRecord(shape + " (up to 64 printable ASCII characters each)")
    if fair.commitment(bytes.fromhex(raw["server_seed"])) != raw["commitment"]:
        raise InvalidRecord('"fair": the server seed does not match its commitment (RECORD.md, kozel-fair/1)')
    return {"scheme": fair.SCHEME, "commitment": raw["commitment"],
            "server_seed": raw["server_seed"], "client_seeds": list(seeds)}


def _check_fair_deals(record: Record) -> None:
    seed = bytes.fromhex(record.fair["server_seed"])
    for number, rnd in enumerate(record.rounds, 1):
        expected, _ = fair.fair_deal(seed, number, record.fair["client_seeds"])
        if not fair.same_deal(rnd.deal, expected):
            raise InvalidRecord(f"round {number}: the deal does not follow from the seeds "
                                f"(RECORD.md, kozel-fair/1)")


def _read_pairs(pairs: object, seats: int) -> bool:
    if type(pairs) is not bool:
        raise InvalidRecord('"pairs" must be true or false')
    if pairs and seats != 4:
        raise InvalidRecord('a pair game ("pairs": true) needs 4 players (RULES.md 11)')
    return pairs


def _read_move(move: object) -> Action:
    if isinstance(move, dict):
        move = {key: value for key, value in move.items() if key in MOVE_FIELDS}
    return action_from_json(move)


def _read_round(raw: object, number: int, seats: int) -> RecordRound:
    if not isinstance(raw, dict) or not isinstance(raw.get("moves"), list):
        raise InvalidRecord(f'round {number}: a round needs "hands", "bazaar" and "moves"')
    try:
        deal = deal_from_json(raw, seats)
    except InvalidDeal as error:
        raise InvalidRecord(f"round {number}: {error}") from None
    moves = []
    for index, move in enumerate(raw["moves"], 1):
        try:
            moves.append(_read_move(move))
        except MalformedAction as error:
            raise InvalidRecord(f"round {number}, move {index}: {error} (RECORD.md)") from None
    return RecordRound(deal, moves)


# -- replaying ------------------------------------------------------------------------

@dataclass
class Replay:
    state: GameState                                  # the state after the last action
    rounds: list[dict] = field(default_factory=list)  # summaries of the ended rounds


def replay(record: Record) -> Replay:
    """Play a record through the rules; InvalidRecord at the first broken rule."""
    state = new_game(record.game_variant)
    result = Replay(state)
    for number, rnd in enumerate(record.rounds, 1):
        if state.phase == FINISHED:
            raise InvalidRecord(f"round {number}: a round follows the end of the game "
                                f"(RULES.md {_END_RULE[state.variant.has_writing]})")
        if state.phase == PLAY:
            raise InvalidRecord(f"round {number - 1}: the round did not end by its last move, "
                                f"yet another round follows (RECORD.md)")
        state, _ = start_round(state, rnd.deal)
        for index, action in enumerate(rnd.moves, 1):
            where = f"round {number}, move {index}"
            if state.phase != PLAY:
                raise InvalidRecord(f"{where}: the move follows the end of its round (RULES.md 6)")
            try:
                state, events = apply(state, action)
            except IllegalAction as error:
                raise InvalidRecord(f"{where}: {error} (RULES.md {error.rule})") from None
            for event in events:
                if event["type"] == "round_ended":
                    result.rounds.append(event)
    if record.interrupt is not None:
        if state.phase == FINISHED:
            raise InvalidRecord(f"the interrupt follows the end of the game "
                                f"(RULES.md {_END_RULE[state.variant.has_writing]})")
        state, _ = interrupt(state, *record.interrupt)
    result.state = state
    return result


# Where RULES.md ends a game: Kozel's goats, or sea goat's winners.
_END_RULE = {False: "8", True: "13"}

_ROUND_FIELDS = ("result", "seat", "points", "credited", "scores", "remembered", "opened", "bank")
# A pair game's round (RECORD.md, pairs): points per seat, the pair_points added, and the
# rest per pair, [seats 0 and 2, seats 1 and 3], read from the summary's pair fields.
_PAIR_ROUND_FIELDS = (("result", "result"), ("seat", "seat"), ("points", "points"),
                      ("pair_points", "pair_points"), ("credited", "pair_credited"),
                      ("scores", "pair_scores"), ("remembered", "pair_remembered"),
                      ("opened", "pair_opened"), ("bank", "bank"))


# A sea goat round (RECORD.md, sea goat): ``scores`` per seat, or per pair in pairs.
_WRITING_ROUND_FIELDS = ("result", "seat", "points", "winner", "won", "hundred", "written_off",
                         "scores", "writing")


def _round_line(summary: dict) -> dict:
    if "writing" in summary:
        line = {k: summary[k] for k in _WRITING_ROUND_FIELDS}
        if summary.get("pairs"):
            line["scores"] = summary["pair_scores"]
        return line
    if summary.get("pairs"):
        return {key: summary[source] for key, source in _PAIR_ROUND_FIELDS}
    return {k: summary[k] for k in _ROUND_FIELDS}


def summarize(played: Replay, rate=None) -> dict:
    """The JSON line ``manage.py replay`` prints for a valid record (RECORD.md).

    The rating points are not the rules' to say (RULES.md 8 and 9 give them, the ratings
    compute them): ``rate(status, scores, goats, interrupted_by)`` gives them (with
    ``pairs=True`` for a pair game, its scores per seat being the pairs'), and without it
    they are None.
    """
    state = played.state
    rounds = [_round_line(r) for r in played.rounds]
    if len(played.rounds) < state.round:  # the last round dealt has not ended
        rounds.append({"result": "unfinished", "turn": state.turn})
    status = {FINISHED: "finished", INTERRUPTED: "interrupted"}.get(state.phase, "playing")
    if state.variant.has_writing:  # never rated: no goats, no abort, no rating points
        return {"variant": state.variant.name, "rounds": rounds, "status": status,
                "winners": list(state.winners), "how": state.how,
                "interrupted_by": state.interrupted_by, "rating_points": None}
    if state.aborted:
        status = "aborted"
    goats = list(state.goats) if state.phase == FINISHED else []
    return {
        "rounds": rounds, "status": status, "goats": goats,
        "interrupted_by": state.interrupted_by,
        "rating_points": _rate(rate, status, state, goats) if rate is not None else None,
    }


def _rate(rate, status: str, state: GameState, goats: list[int]):
    if state.pairs:
        return rate(status, list(state.scores), goats, state.interrupted_by, pairs=True)
    return rate(status, list(state.scores), goats, state.interrupted_by)


def replay_text(text: str | bytes, rate=None) -> dict:
    """Read, replay and summarize one record (``rate`` as for ``summarize``);
    ``{"error": ...}`` for an invalid one."""
    try:
        return summarize(replay(loads_record(text)), rate)
    except InvalidRecord as error:
        return {"error": str(error)}
