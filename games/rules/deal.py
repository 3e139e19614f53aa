"""Dealing a round (RULES.md 3): 7 tiles each, the redeal rule, the bazaar."""

from __future__ import annotations

import random
from typing import NamedTuple, Sequence

from .errors import InvalidDeal, MalformedAction
from .tiles import ALL_MASK, TILES, Tile, tile, tiles_of

HAND_SIZE = 7


class Deal(NamedTuple):
    """Dealt hands by seat (7 tiles each) and the bazaar in draw order (first drawn first)."""

    hands: tuple[tuple[Tile, ...], ...]
    bazaar: tuple[Tile, ...]

    def to_json(self) -> dict:
        return {"hands": [[t.name for t in h] for h in self.hands],
                "bazaar": [t.name for t in self.bazaar]}


def needs_redeal(hand: Sequence[Tile]) -> bool:
    """5 or more doubles, or 6 or more tiles sharing one value (a double counts once)."""
    mask = 0
    for t in hand:
        mask |= t.bit
    return _mask_needs_redeal(mask)


def _mask_needs_redeal(mask: int) -> bool:
    # Every value's tile count and the doubles' count, one nibble each (values 0-6, then
    # the doubles), summed over four 7-tile chunks: no count exceeds 7, so the nibbles
    # never carry.  Adding 2 to each value's (3 to the doubles') sets a nibble's top bit
    # exactly when that count reaches 6 (5 doubles).
    counts = (_COUNTS_BY_CHUNK[0][mask & 127] + _COUNTS_BY_CHUNK[1][mask >> 7 & 127]
              + _COUNTS_BY_CHUNK[2][mask >> 14 & 127] + _COUNTS_BY_CHUNK[3][mask >> 21])
    return bool((counts + _REDEAL_BIAS) & _NIBBLE_TOPS)


def _tile_counts(t: Tile) -> int:
    if t.is_double:
        return 1 << 4 * t.low | 1 << 28
    return 1 << 4 * t.low | 1 << 4 * t.high


_COUNTS_BY_CHUNK = tuple(
    tuple(sum(_tile_counts(TILES[chunk * 7 + i]) for i in range(7) if bits >> i & 1)
          for bits in range(128))
    for chunk in range(4))
_REDEAL_BIAS = 0x32222222
_NIBBLE_TOPS = 0x88888888


def random_deal(seats: int, rng: random.Random) -> Deal:
    """Shuffle with ``rng`` and deal; redeal until no hand qualifies for a redeal.

    A real game passes ``secrets.SystemRandom()``; tests and simulations a seeded Random.
    """
    hands, bazaar = random_deal_masks(seats, rng)
    return Deal(tuple(tuple(tiles_of(h)) for h in hands), tuple(TILES[i] for i in bazaar))


def random_deal_masks(seats: int, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``random_deal`` as hand bitmasks and bazaar tile indexes, for the engine's own use.

    The hands' order within a hand carries no information, so a mask loses nothing.
    """
    dealt = seats * HAND_SIZE
    random, dealt_tile = rng.random, _DEALT_TILE
    while True:
        # _shuffled_indexes, inlined: this runs on every simulated round.
        keys = [random() for _ in _INDEXES]
        order = sorted(_INDEXES, key=keys.__getitem__)
        hands = []
        for start in range(0, dealt, HAND_SIZE):
            a, b, c, d, e, f, g = order[start:start + HAND_SIZE]
            # The hand's bits and its counts (_mask_needs_redeal's) in one sum.
            dealt_hand = (dealt_tile[a] + dealt_tile[b] + dealt_tile[c] + dealt_tile[d]
                          + dealt_tile[e] + dealt_tile[f] + dealt_tile[g])
            if (dealt_hand + _DEALT_BIAS) & _DEALT_TOPS:
                break
            hands.append(dealt_hand & ALL_MASK)
        else:
            return tuple(hands), tuple(order[dealt:])


def _shuffled_indexes(rng: random.Random) -> list[int]:
    """The 28 tile indexes in a uniformly random order.

    Sorting by independent random keys is a uniform shuffle (a tie among 28 53-bit keys
    is negligible) and costs one C call per tile, where ``rng.shuffle`` makes 27 Python
    calls.
    """
    keys = [rng.random() for _ in _INDEXES]
    return sorted(_INDEXES, key=keys.__getitem__)


_INDEXES = range(len(TILES))
# Per tile, its bit and above the 28 tiles' bits its counts (_tile_counts): a hand's
# tiles summed give its bitmask (the bits differ, so nothing carries) and its counts.
_DEALT_TILE = tuple(_tile_counts(t) << len(TILES) | t.bit for t in TILES)
_DEALT_BIAS = _REDEAL_BIAS << len(TILES)
_DEALT_TOPS = _NIBBLE_TOPS << len(TILES)


def deal_from_json(data: object, seats: int) -> Deal:
    """Parse and check an explicit deal ``{"hands": [[...]...], "bazaar": [...]}``."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list) \
            or not isinstance(data.get("bazaar"), list):
        raise InvalidDeal('a deal needs "hands" (a list per seat) and "bazaar" (a list)')
    hands = data["hands"]
    if not all(isinstance(h, list) for h in hands):
        raise InvalidDeal("every hand must be a list of tiles")
    try:
        parsed = Deal(tuple(tuple(tile(n) for n in h) for h in hands),
                      tuple(tile(n) for n in data["bazaar"]))
    except MalformedAction as error:
        raise InvalidDeal(str(error)) from None
    check_deal(parsed, seats)
    return parsed


def check_deal(deal: Deal, seats: int) -> None:
    """Raise InvalidDeal unless ``deal`` is a lawful deal for ``seats`` players."""
    if len(deal.hands) != seats:
        raise InvalidDeal(f"the deal has {len(deal.hands)} hands for {seats} players")
    seen = 0
    count = 0
    for seat, hand in enumerate(deal.hands):
        if len(hand) != HAND_SIZE:
            raise InvalidDeal(f"the hand of seat {seat} has {len(hand)} tiles, not 7 (RULES.md 3)")
    for t in [t for hand in deal.hands for t in hand] + list(deal.bazaar):
        seen |= t.bit
        count += 1
    if seen != ALL_MASK or count != len(TILES):
        raise InvalidDeal("the hands and the bazaar must hold the 28 tiles once each (RULES.md 3)")
    for seat, hand in enumerate(deal.hands):
        if needs_redeal(hand):
            raise InvalidDeal(f"the hand of seat {seat} should have been redealt: 5 doubles "
                              f"or 6 tiles of one value (RULES.md 3)")
