"""The state of a game of Kozel, and its JSON form.

A GameState is immutable by convention: ``apply`` and ``start_round`` return a new one.
Hands are tile bitmasks (see tiles.py); the bazaar is a tuple of tile indexes in draw
order.  The JSON form holds everything, hidden tiles included: it is the server's
snapshot and never leaves the server (clients get ``view_for``).
"""

from __future__ import annotations

from .errors import InvalidState, MalformedAction
from .tiles import ALL_MASK, TILES, mask_of, tile, tiles_of

# Phases of a game.
DEAL = "deal"                # waiting for a round to be dealt (the game's start, between rounds)
PLAY = "play"                # a round is being played
FINISHED = "finished"        # someone reached 101 (RULES.md 8)
INTERRUPTED = "interrupted"  # a timeout or a player leaving (RULES.md 9)
PHASES = (DEAL, PLAY, FINISHED, INTERRUPTED)

FISH_ALL, FISH_ONE = "all", "one"
GAME_OVER_SCORE = 101


class GameState:
    __slots__ = (
        "seats", "fish", "phase", "round", "hands", "bazaar", "chain", "left", "right",
        "table", "turn", "lead", "knocks", "last_player", "leader", "scores", "remembered",
        "opened", "bank", "last_round", "goats", "interrupted_by", "interrupt_reason",
        "_legal",
    )

    def __init__(self, seats: int, fish: str) -> None:
        if type(seats) is not int or not 2 <= seats <= 4:
            raise InvalidState("a game has 2, 3 or 4 players")
        if fish not in (FISH_ALL, FISH_ONE):
            raise InvalidState('the fish rule is "all" or "one"')
        self.seats = seats
        self.fish = fish
        self.phase = DEAL
        self.round = 0               # rounds dealt so far
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
        self.leader = -1             # who leads the next round (out or fisherman)
        self.scores = (0,) * seats
        self.remembered = (0,) * seats
        self.opened = (False,) * seats
        self.bank = 0
        self.last_round = None       # summary of the last ended round (JSON-ready dict)
        self.goats = ()
        self.interrupted_by = None
        self.interrupt_reason = None
        self._legal = None

    def copy(self) -> "GameState":
        # Spelled out field by field: this runs on every action and a loop is 3x slower.
        new = _new_state(GameState)
        new.seats = self.seats
        new.fish = self.fish
        new.phase = self.phase
        new.round = self.round
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
        new.leader = self.leader
        new.scores = self.scores
        new.remembered = self.remembered
        new.opened = self.opened
        new.bank = self.bank
        new.last_round = self.last_round
        new.goats = self.goats
        new.interrupted_by = self.interrupted_by
        new.interrupt_reason = self.interrupt_reason
        new._legal = None
        return new

    @property
    def over(self) -> bool:
        return self.phase in (FINISHED, INTERRUPTED)

    def hand(self, seat: int):
        """The tiles in a seat's hand, as Tile objects."""
        return tiles_of(self.hands[seat])

    # -- JSON -----------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "seats": self.seats, "fish": self.fish, "phase": self.phase, "round": self.round,
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
        }

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
    state = cls(data["seats"], data["fish"])
    n = state.seats
    if data["phase"] not in PHASES:
        raise InvalidState("unknown phase")
    state.phase = data["phase"]
    state.round = _int(data["round"], 0, 10**6, "round")
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
    state.leader = _int(data["leader"], -1, n - 1, "leader")
    state.scores = tuple(_int(s, 0, 10**6, "a score") for s in data["scores"])
    state.remembered = tuple(_int(s, 0, 10**6, "remembered points") for s in data["remembered"])
    state.opened = tuple(bool(o) for o in data["opened"])
    if not len(state.scores) == len(state.remembered) == len(state.opened) == n:
        raise InvalidState("one score per seat")
    state.bank = _int(data["bank"], 0, 10**6, "the bank")
    state.last_round = data["last_round"]
    state.goats = tuple(_int(g, 0, n - 1, "a goat") for g in data["goats"])
    if data["interrupted_by"] is not None:
        state.interrupted_by = _int(data["interrupted_by"], 0, n - 1, "the interrupting seat")
    state.interrupt_reason = data["interrupt_reason"]
    return state
