"""Sea goat (RULES.md 13) positions, moves and records for the tests, written as a player
reads them.

``moves("0:1-1 1:0-1/l 2:draw 1:1-1+5-5 2:knock")`` are record moves: seat, colon, then a
tile (``/l`` or ``/r`` names its end), two doubles at once joined by ``+``, ``draw`` or
``knock``.  ``sea_position`` is ``positions.position`` for sea goat, its scores given per
scoring unit (per pair in a pair game).

Tile pips, for checking the sums: 0-0 0, 0-1 1, 0-2 2, 0-3 3, 0-4 4, 0-5 5, 0-6 6,
1-1 2, 1-2 3, 1-3 4, 1-4 5, 1-5 6, 1-6 7, 2-2 4, 2-3 5, 2-4 6, 2-5 7, 2-6 8,
3-3 6, 3-4 7, 3-5 8, 3-6 9, 4-4 8, 4-5 9, 4-6 10, 5-5 10, 5-6 11, 6-6 12.
"""

from games.rules import SEA_GOAT, action_from_json

from .positions import position

ENDS = {"l": "left", "r": "right"}


def move(text: str) -> dict:
    seat, what = text.split(":")
    seat = int(seat)
    if what in ("draw", "knock"):
        return {"seat": seat, what: True}
    if "+" in what:
        return {"seat": seat, "play": what.split("+")}
    tile, _, end = what.partition("/")
    return {"seat": seat, "play": tile, **({"end": ENDS[end]} if end else {})}


def moves(text: str) -> list[dict]:
    return [move(m) for m in text.split()]


def actions(text: str):
    return [action_from_json(m) for m in moves(text)]


def sea_position(*hands: str, unit_scores=None, pairs: bool = False, moves_text: str = "",
                 **kwargs):
    """A sea goat state in the middle of a round (``positions.position``)."""
    n = len(hands)
    scores = None
    if unit_scores is not None:
        scores = [unit_scores[seat % 2] for seat in range(n)] if pairs else list(unit_scores)
    return position(*hands, fish=None, game=SEA_GOAT, pairs=pairs, scores=scores,
                    moves=moves(moves_text) if moves_text else (), **kwargs)


def record(players, rounds, pairs: bool = False, **extra) -> dict:
    """A sea goat record (RECORD.md): ``rounds`` as (hands, bazaar, moves text)."""
    data = {"format": "kozel-record/1", "variant": SEA_GOAT, "players": list(players),
            "rounds": [{"hands": [h.split() for h in hands], "bazaar": bazaar.split(),
                        "moves": moves(text)} for hands, bazaar, text in rounds]}
    if pairs:
        data["pairs"] = True
    data.update(extra)
    return data
