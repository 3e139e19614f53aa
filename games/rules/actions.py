"""Actions a seat can take on its turn (RULES.md 5), and their JSON form.

The JSON form of an action is exactly a move of a game record (RECORD.md):
``{"seat": 0, "play": "1-4", "end": "left"}``, ``{"seat": 3, "draw": true}``,
``{"seat": 3, "knock": true}``, and in sea goat two doubles at once,
``{"seat": 1, "play": ["2-2", "5-5"]}`` (RULES.md 13).  Actions are interned:
``play(0, t, "left")`` always returns the same object, so legality checks are identity
look-ups.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import MalformedAction
from .tiles import TILES, Tile, tile

__all__ = ["Action", "PLAY", "DRAW", "KNOCK", "DOUBLES", "LEFT", "RIGHT", "play", "draw",
           "knock", "two_doubles", "action_from_json", "MAX_SEATS"]

PLAY, DRAW, KNOCK = "play", "draw", "knock"
DOUBLES = "doubles"  # two doubles at once, one on each end (sea goat, RULES.md 13)
LEFT, RIGHT = "left", "right"
ENDS = (None, LEFT, RIGHT)
MAX_SEATS = 4


class Action(NamedTuple):
    kind: str                # PLAY, DRAW, KNOCK or DOUBLES
    seat: int
    tile: Tile | None = None
    end: str | None = None   # LEFT or RIGHT for a play on a chain; None for the lead
    # DOUBLES: the other double (``tile`` is the one of the two that comes first in the
    # set's order; the ends they go on follow from the chain, each fits one of them).
    second: Tile | None = None

    def to_json(self) -> dict:
        if self.kind == PLAY:
            move = {"seat": self.seat, "play": self.tile.name}
            if self.end is not None:
                move["end"] = self.end
            return move
        if self.kind == DOUBLES:
            return {"seat": self.seat, "play": [self.tile.name, self.second.name]}
        return {"seat": self.seat, self.kind: True}

    def __str__(self) -> str:
        if self.kind == PLAY:
            return f"seat {self.seat} plays {self.tile}" + (f" on the {self.end}" if self.end else "")
        if self.kind == DOUBLES:
            return f"seat {self.seat} plays {self.tile} and {self.second} at once"
        return f"seat {self.seat} {'draws' if self.kind == DRAW else 'knocks'}"


_PLAYS = {(s, t.index, e): Action(PLAY, s, t, e)
          for s in range(MAX_SEATS) for t in TILES for e in ENDS}
_DRAWS = tuple(Action(DRAW, s) for s in range(MAX_SEATS))
_KNOCKS = tuple(Action(KNOCK, s) for s in range(MAX_SEATS))
_DOUBLE_TILES = tuple(t for t in TILES if t.is_double)
_TWO_DOUBLES = {(s, a.index, b.index): Action(DOUBLES, s, a, None, b)
                for s in range(MAX_SEATS) for a in _DOUBLE_TILES for b in _DOUBLE_TILES
                if a.index < b.index}


def _check_seat(seat: object) -> int:
    if type(seat) is not int or not 0 <= seat < MAX_SEATS:
        raise MalformedAction("the seat must be a whole number from 0 to 3")
    return seat


def play(seat: int, t: Tile | str, end: str | None = None) -> Action:
    if end not in ENDS:
        raise MalformedAction('the end must be "left" or "right"')
    return _PLAYS[_check_seat(seat), tile(t).index, end]


def draw(seat: int) -> Action:
    return _DRAWS[_check_seat(seat)]


def knock(seat: int) -> Action:
    return _KNOCKS[_check_seat(seat)]


def two_doubles(seat: int, first: Tile | str, second: Tile | str) -> Action:
    """Two different doubles played at once, in either order (RULES.md 13)."""
    a, b = tile(first), tile(second)
    if not (a.is_double and b.is_double) or a is b:
        raise MalformedAction("two doubles at once are two different doubles")
    if a.index > b.index:
        a, b = b, a
    return _TWO_DOUBLES[_check_seat(seat), a.index, b.index]


def action_from_json(data: object) -> Action:
    """Parse a record move or a client message into an Action; MalformedAction otherwise."""
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object")
    kinds = [k for k in (PLAY, DRAW, KNOCK) if k in data]
    if len(kinds) != 1:
        raise MalformedAction('an action needs exactly one of "play", "draw" or "knock"')
    allowed = {"seat", kinds[0]} | ({"end"} if kinds[0] == PLAY else set())
    extra = set(data) - allowed
    if extra:
        raise MalformedAction(f"unexpected field {sorted(map(str, extra))[0]!r} in a {kinds[0]} action")
    if "seat" not in data:
        raise MalformedAction("an action must name its seat")
    seat = _check_seat(data["seat"])
    kind = kinds[0]
    if kind == PLAY and isinstance(data[PLAY], list):
        if len(data[PLAY]) != 2 or "end" in data:
            raise MalformedAction('two doubles at once are ["a-a", "b-b"], without an end')
        return two_doubles(seat, *data[PLAY])
    if kind == PLAY:
        return play(seat, data[PLAY], data.get("end"))
    if data[kind] is not True:
        raise MalformedAction(f'"{kind}" must be true')
    return draw(seat) if kind == DRAW else knock(seat)
