"""The state of a game (Kozel, or another game of the variants), and its JSON form.

A GameState is immutable by convention: ``apply`` and ``start_round`` return a new one.
Hands are tile bitmasks (see tiles.py); the bazaar is a tuple of tile indexes in draw
order.  The JSON form holds everything, hidden tiles included: it is the server's
snapshot and never leaves the server (clients get ``view_for``).
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import action_from_json
from .errors import InvalidState, MalformedAction
from .tiles import ALL_MASK, TILES, mask_of, tile, tiles_of
from .variant import FISH_ALL, FISH_ONE, KOZEL, Variant  # noqa: F401 (FISH_*: the package's names)

# Phases of a game.
DEAL = "deal"                # waiting for a round to be dealt (the game's start, between rounds)
PLAY = "play"                # a round is being played
FINISHED = "finished"        # someone reached 101 (RULES.md 8); sea goat: someone won (13)
INTERRUPTED = "interrupted"  # a timeout or a player leaving (RULES.md 9)
PHASES = (DEAL, PLAY, FINISHED, INTERRUPTED)

# The rules of every game but Kozel (whose rules are engine.py's own), by the game's name:
# each game's module registers an object that answers the engine's questions when the
# package loads (seagoat.py).  A state keeps its game's on its board, so that the engine
# asks one field on every action, not the variant's name.
GAME_RULES: dict[str, object] = {}


class Board(NamedTuple):
    """What changes only between rounds: the score sheet and how the game stands.

    Kept apart from the round's fields so that copying a state on every action copies
    one reference for all of these (every action copies the state).
    """

    variant: Variant                  # what kind of game (games/rules/variant.py)
    seats: int                        # the variant's, read on every action
    round: int = 0                    # rounds dealt so far
    leader: int = -1                  # who leads the next round (out or fisherman)
    # Per seat.  In a pair game the pair is the scoring unit (RULES.md 11): both partners
    # always hold their pair's one score, remembered points and flag, so every reader of
    # a seat's score (views, ratings, the site) reads its pair's.
    scores: tuple = ()
    remembered: tuple = ()
    opened: tuple = ()
    bank: int = 0
    last_round: dict | None = None    # summary of the last ended round (JSON-ready)
    goats: tuple = ()
    interrupted_by: int | None = None
    interrupt_reason: str | None = None
    # A game with winners (sea goat, RULES.md 13): the winning seats once it is finished,
    # and how they won ("hundred", "two-doubles", "last-double" or "125").
    winners: tuple = ()
    how: str | None = None
    own_rules: object = None          # GAME_RULES of its game; None: Kozel's (engine.py)


class GameState:
    __slots__ = ("board", "phase", "hands", "bazaar", "chain", "left", "right", "table",
                 "turn", "lead", "knocks", "last_player", "log", "_legal")

    def __init__(self, variant: Variant) -> None:
        if type(variant) is not Variant:
            raise InvalidState("a game state needs its variant")
        seats = variant.seats
        own_rules = GAME_RULES.get(variant.name)
        if own_rules is None and variant.name != KOZEL:
            raise InvalidState(f"the rules of {variant.name} are not loaded")
        self.board = Board(variant, seats, scores=(0,) * seats, remembered=(0,) * seats,
                           opened=(False,) * seats, own_rules=own_rules)
        self.phase = DEAL
        self.hands = (0,) * seats    # bitmask per seat
        self.bazaar = ()             # tile indexes, next draw first
        self.chain = ()              # ((left half, right half), ...) from the left end
        self.left = -1               # open ends; -1 while the table is empty
        self.right = -1
        self.table = 0               # bitmask of the tiles on the table
        self.turn = 0
        self.lead = -1               # tile index the lead must be, or -1 for any tile
        self.knocks = 0              # knocks in a row since the last play
        self.last_player = -1
        # The round's actions so far, the latest first, as a linked list
        # ``(action, earlier log)`` or None: adding one costs the same however long the
        # round (``apply`` is the hot path); ``moves`` reads them in order.
        self.log = None
        self._legal = None

    def copy(self) -> "GameState":
        # Spelled out field by field: this runs on every action, and a loop over the
        # fields would cost more than the copy itself.
        new = _new_state(GameState)
        new.board = self.board
        new.phase = self.phase
        new.hands = self.hands
        new.bazaar = self.bazaar
        new.chain = self.chain
        new.left = self.left
        new.right = self.right
        new.table = self.table
        new.turn = self.turn
        new.lead = self.lead
        new.knocks = self.knocks
        new.last_player = self.last_player
        new.log = self.log
        new._legal = None
        return new

    # The board's fields, read through the state.
    variant = property(lambda self: self.board.variant)
    seats = property(lambda self: self.board.seats)
    fish = property(lambda self: self.board.variant.fish)
    pairs = property(lambda self: self.board.variant.pairs)
    round = property(lambda self: self.board.round)
    leader = property(lambda self: self.board.leader)
    scores = property(lambda self: self.board.scores)
    remembered = property(lambda self: self.board.remembered)
    opened = property(lambda self: self.board.opened)
    bank = property(lambda self: self.board.bank)
    last_round = property(lambda self: self.board.last_round)
    goats = property(lambda self: self.board.goats)
    interrupted_by = property(lambda self: self.board.interrupted_by)
    interrupt_reason = property(lambda self: self.board.interrupt_reason)
    winners = property(lambda self: self.board.winners)
    how = property(lambda self: self.board.how)

    @property
    def writing(self) -> int | None:
        """The scoring unit that is writing (RULES.md 13: a seat, or in pairs a pair
        index), or None: nobody is, or the game has no writing."""
        rules = self.board.own_rules
        return rules.writing(self) if rules is not None else None

    @property
    def hundred(self) -> int | None:
        """The seat that led the round being played for a hundred (RULES.md 13), or None."""
        rules = self.board.own_rules
        return rules.hundred(self) if rules is not None else None

    @property
    def over(self) -> bool:
        return self.phase in (FINISHED, INTERRUPTED)

    @property
    def aborted(self) -> bool:
        """Interrupted before the first round ended (RULES.md 9, the decision against
        rating farming): no round was ever scored, so it counts for nobody.  A state
        built with a score sheet (a position of a later round) has been scored.  A game
        that is never rated (sea goat) is interrupted, not aborted."""
        return (self.phase == INTERRUPTED and self.variant.can_be_rated
                and self.last_round is None and not any(self.scores)
                and not any(self.remembered))

    @property
    def moves(self) -> tuple:
        """The round's actions so far, in order (Action objects: public, a draw does not
        name its tile): what the room tells of the round.  Empty again every round."""
        moves, node = [], self.log
        while node is not None:
            moves.append(node[0])
            node = node[1]
        return tuple(reversed(moves))

    def pair_scores(self) -> tuple[int, int] | None:
        """A pair game's two open scores, [seats 0 and 2, seats 1 and 3]; None alone."""
        return (self.scores[0], self.scores[1]) if self.pairs else None

    def hand(self, seat: int):
        """The tiles in a seat's hand, as Tile objects."""
        return tiles_of(self.hands[seat])

    # -- JSON -----------------------------------------------------------------------

    def to_json(self) -> dict:
        data = {
            **self.variant.to_json(), "phase": self.phase,
            "round": self.round,
            "hands": [[t.name for t in tiles_of(h)] for h in self.hands],
            "bazaar": [TILES[i].name for i in self.bazaar],
            "chain": [list(pair) for pair in self.chain],
            "turn": self.turn,
            "lead": TILES[self.lead].name if self.lead >= 0 else None,
            "knocks": self.knocks, "last_player": self.last_player, "leader": self.leader,
            "scores": list(self.scores), "remembered": list(self.remembered),
            "opened": list(self.opened), "bank": self.bank, "last_round": self.last_round,
            "goats": list(self.goats), "interrupted_by": self.interrupted_by,
            "interrupt_reason": self.interrupt_reason,
            "moves": [action.to_json() for action in self.moves],
        }
        if self.board.own_rules is not None:  # what only that game has (writing, winners)
            data.update(self.board.own_rules.state_json(self))
        return data

    @classmethod
    def from_json(cls, data: object) -> "GameState":
        """Rebuild a state from ``to_json``; InvalidState if it is not a possible state."""
        try:
            return _state_from_json(cls, data)
        except InvalidState:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                MalformedAction) as error:
            raise InvalidState(f"not a game state: {error}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"<GameState {self.seats} seats, round {self.round}, {self.phase}, turn {self.turn}>"


_new_state = object.__new__


def _int(value, low, high, what):
    if type(value) is not int or not low <= value <= high:
        raise InvalidState(f"{what} must be a whole number from {low} to {high}")
    return value


def _state_from_json(cls, data) -> GameState:
    if not isinstance(data, dict):
        raise InvalidState("a game state must be a JSON object")
    state = cls(Variant.from_json(data))
    n = state.seats
    if data["phase"] not in PHASES:
        raise InvalidState("unknown phase")
    state.phase = data["phase"]
    if len(data["hands"]) != n:
        raise InvalidState("one hand per seat")
    state.hands = tuple(mask_of(tile(name) for name in h) for h in data["hands"])
    state.bazaar = tuple(tile(name).index for name in data["bazaar"])
    chain = tuple((_int(a, 0, 6, "a half"), _int(b, 0, 6, "a half")) for a, b in data["chain"])
    if any(a[1] != b[0] for a, b in zip(chain, chain[1:])):
        raise InvalidState("the chain's tiles do not match where they touch")
    state.chain = chain
    state.left, state.right = (chain[0][0], chain[-1][1]) if chain else (-1, -1)
    state.table = mask_of(tile(f"{a}-{b}") for a, b in chain)
    held = [state.table] + list(state.hands) + [mask_of(TILES[i] for i in state.bazaar)]
    total = 0
    for mask in held:
        if total & mask:
            raise InvalidState("a tile is in two places")
        total |= mask
    if state.phase == PLAY and total != ALL_MASK:
        raise InvalidState("the 28 tiles are not all accounted for")
    state.turn = _int(data["turn"], 0, n - 1, "turn")
    state.lead = tile(data["lead"]).index if data["lead"] is not None else -1
    state.knocks = _int(data["knocks"], 0, n, "knocks")
    state.last_player = _int(data["last_player"], -1, n - 1, "last player")
    # A state saved before the round's moves were kept has none: its round tells nothing.
    for move in data.get("moves", ()):
        action = action_from_json(move)
        if action.seat >= n:
            raise InvalidState("a move of a seat that is not at this table")
        state.log = (action, state.log)
    scores = tuple(_int(s, 0, 10**6, "a score") for s in data["scores"])
    remembered = tuple(_int(s, 0, 10**6, "remembered points") for s in data["remembered"])
    opened = tuple(bool(o) for o in data["opened"])
    if not len(scores) == len(remembered) == len(opened) == n:
        raise InvalidState("one score per seat")
    if state.pairs and any(column[0] != column[2] or column[1] != column[3]
                           for column in (scores, remembered, opened)):
        raise InvalidState("partners share one score (RULES.md 11)")
    interrupted_by = data["interrupted_by"]
    if interrupted_by is not None:
        _int(interrupted_by, 0, n - 1, "the interrupting seat")
    if data["interrupt_reason"] not in (None, "timeout", "left"):
        raise InvalidState("unknown reason for an interrupt")
    last_round = data["last_round"]
    if last_round is not None and not isinstance(last_round, dict):
        raise InvalidState("the last round's summary must be an object")
    state.board = state.board._replace(
        round=_int(data["round"], 0, 10**6, "round"),
        leader=_int(data["leader"], -1, n - 1, "leader"),
        scores=scores, remembered=remembered, opened=opened,
        bank=_int(data["bank"], 0, 10**6, "the bank"), last_round=last_round,
        goats=tuple(_int(g, 0, n - 1, "a goat") for g in data["goats"]),
        interrupted_by=interrupted_by, interrupt_reason=data["interrupt_reason"])
    if state.board.own_rules is not None:
        state.board = state.board.own_rules.read_state(state, data)
    return state
