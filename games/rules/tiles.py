"""The 28 tiles of a double-six set (RULES.md 1).

Tiles are interned singletons, so they compare by identity and hash cheaply.  A set of
tiles (a hand, the tiles on the table) is an int bitmask with bit ``tile.index`` set for
every tile it holds: set operations on hands are then single integer operations, which
keeps simulations fast, as python-chess does with its bitboards.
"""

from __future__ import annotations

from .errors import MalformedAction

__all__ = [
    "Tile", "TILES", "tile", "tiles_of", "mask_of", "VALUE_MASK", "NON_DOUBLE_MASK",
    "DOUBLE_MASK", "FIRST_LEAD_DOUBLES", "NON_DOUBLE_LEAD_ORDER", "ALL_MASK",
]


class Tile:
    """One tile ``low-high`` with ``0 <= low <= high <= 6``; get one with ``tile("1-4")``."""

    __slots__ = ("low", "high", "index", "bit", "pips", "name")

    def __init__(self, low: int, high: int, index: int) -> None:
        self.low = low
        self.high = high
        self.index = index
        self.bit = 1 << index
        self.pips = low + high
        self.name = f"{low}-{high}"

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, value: int) -> bool:
        """True when either half shows ``value``."""
        return self.low == value or self.high == value

    def other(self, value: int) -> int:
        """The half opposite to a half showing ``value`` (the new open end after a play)."""
        return self.high if self.low == value else self.low

    def __repr__(self) -> str:
        return f"tile({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):  # pickling and copying keep the singleton
        return (tile, (self.name,))


TILES: tuple[Tile, ...] = tuple(
    Tile(low, high, index)
    for index, (low, high) in enumerate((a, b) for a in range(7) for b in range(a, 7))
)
ALL_MASK = (1 << len(TILES)) - 1

_BY_NAME: dict[str, Tile] = {}
for _t in TILES:
    _BY_NAME[_t.name] = _t
    _BY_NAME[f"{_t.high}-{_t.low}"] = _t  # "4-1" is the same tile as "1-4" (RECORD.md)

VALUE_MASK: tuple[int, ...] = tuple(
    sum(t.bit for t in TILES if t.has(v)) for v in range(7)
)
NON_DOUBLE_MASK: tuple[int, ...] = tuple(
    sum(t.bit for t in TILES if t.has(v) and not t.is_double) for v in range(7)
)
DOUBLE_MASK = sum(t.bit for t in TILES if t.is_double)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)


def tile(name: object) -> Tile:
    """The tile named ``"a-b"`` (either order); a readable error for anything else."""
    if isinstance(name, Tile):
        return name
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        shown = repr(name) if len(repr(name)) <= 20 else repr(name)[:20] + "…"
        raise MalformedAction(f"{shown} is not a tile: write it as \"a-b\" with 0 <= a, b <= 6")
    return found


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a bitmask, in index order."""
    out = []
    while mask:
        low_bit = mask & -mask
        out.append(TILES[low_bit.bit_length() - 1])
        mask ^= low_bit
    return out


def names_of(mask: int) -> list[str]:
    """The names of a bitmask's tiles, in index order (four table look-ups, no loop)."""
    return (_NAMES_BY_CHUNK[0][mask & 127] + _NAMES_BY_CHUNK[1][mask >> 7 & 127]
            + _NAMES_BY_CHUNK[2][mask >> 14 & 127] + _NAMES_BY_CHUNK[3][mask >> 21])


_NAMES_BY_CHUNK = tuple(
    tuple([TILES[chunk * 7 + i].name for i in range(7) if bits >> i & 1] for bits in range(128))
    for chunk in range(4))


def mask_of(tiles) -> int:
    mask = 0
    for t in tiles:
        mask |= t.bit
    return mask


# RULES.md 4: the doubles the first round's lead goes by, in order.
FIRST_LEAD_DOUBLES: tuple[Tile, ...] = tuple(tile(n) for n in
                                             ("1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0"))
# RULES.md 4, Decision: then the non-doubles, by pip sum descending, ties by the higher half.
NON_DOUBLE_LEAD_ORDER: tuple[Tile, ...] = tuple(sorted(
    (t for t in TILES if not t.is_double), key=lambda t: (-t.pips, -t.high)))
