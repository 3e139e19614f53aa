"""Actions a seat can take on its turn (RULES.md 5), and their JSON form.

The JSON form of an action is exactly a move of a game record (RECORD.md):
``{"seat": 0, "play": "1-4", "end": "left"}``, ``{"seat": 3, "draw": true}``,
``{"seat": 3, "knock": true}``.  Actions are interned: ``play(0, t, "left")`` always
returns the same object, so legality checks are identity look-ups.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import MalformedAction
from .tiles import TILES, Tile, tile

__all__ = ["Action", "PLAY", "DRAW", "KNOCK", "LEFT", "RIGHT", "play", "draw", "knock",
           "action_from_json", "MAX_SEATS"]

PLAY, DRAW, KNOCK = "play", "draw", "knock"
LEFT, RIGHT = "left", "right"
ENDS = (None, LEFT, RIGHT)
MAX_SEATS = 4


class Action(NamedTuple):
    kind: str                # PLAY, DRAW or KNOCK
    seat: int
    tile: Tile | None = None
    end: str | None = None   # LEFT or RIGHT for a play on a chain; None for the lead

    def to_json(self) -> dict:
        if self.kind == PLAY:
            move = {"seat": self.seat, "play": self.tile.name}
            if self.end is not None:
                move["end"] = self.end
            return move
        return {"seat": self.seat, self.kind: True}

    def __str__(self) -> str:
        if self.kind == PLAY:
            return f"seat {self.seat} plays {self.tile}" + (f" on the {self.end}" if self.end else "")
        return f"seat {self.seat} {'draws' if self.kind == DRAW else 'knocks'}"


_PLAYS = {(s, t.index, e): Action(PLAY, s, t, e)
          for s in range(MAX_SEATS) for t in TILES for e in ENDS}
_DRAWS = tuple(Action(DRAW, s) for s in range(MAX_SEATS))
_KNOCKS = tuple(Action(KNOCK, s) for s in range(MAX_SEATS))


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
    if kind == PLAY:
        return play(seat, data[PLAY], data.get("end"))
    if data[kind] is not True:
        raise MalformedAction(f'"{kind}" must be true')
    return draw(seat) if kind == DRAW else knock(seat)
