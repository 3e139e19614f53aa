"""Build deals and mid-round positions for rule tests, written the way a player reads them.

``deal("1-1 2-5 ...", "...")`` makes an explicit deal (the bazaar gets the tiles nobody
holds); ``position(...)`` makes a state in the middle of a round from hands and a chain
written left to right as oriented halves ("2-4 4-1 1-2": the left end shows 2).
"""

from games.rules import Deal, GameState, tile
from games.rules.tiles import TILES


# RULES.md 6's example: 1-2, 2-6, 0-2, 2-3 inside the chain, 2-4 at the left end showing 2;
# the last non-double of 2, 2-5, played on the right end (it shows 5) makes a fish of 2.
FISH_CHAIN = "2-4 4-1 1-2 2-6 6-0 0-2 2-3 3-5"


def tiles(text: str):
    return tuple(tile(name) for name in text.split())


def deal(*hands: str, bazaar: str | None = None) -> Deal:
    held = [tiles(h) for h in hands]
    if bazaar is None:
        used = {t for h in held for t in h}
        rest = tuple(t for t in TILES if t not in used)
    else:
        rest = tiles(bazaar)
    return Deal(tuple(held), rest)


def deal_with(hand: str, seat: int, seats: int) -> Deal:
    """A deal of ``seats`` hands with ``hand`` at ``seat``.

    The tiles ``hand`` leaves go to the other seats one at a time, in the set's order
    (0-0, 0-1, ... 6-6), 7 each; the rest is the bazaar.  With the hands below none of
    those other hands needs a redeal (they reach 4 doubles, or 5 tiles of one value, at
    most); the tests check the refusal names ``seat``, so one that did would show.
    """
    mine = tiles(hand)
    rest = [t for t in TILES if t not in mine]
    others = seats - 1
    dealt = [rest[i:others * 7:others] for i in range(others)]
    dealt.insert(seat, list(mine))
    return Deal(tuple(tuple(h) for h in dealt), tuple(rest[others * 7:]))


def position(*hands: str, chain: str = "", bazaar: str | None = None, draws: str = "",
             turn: int = 0,
             fish: str = "all", scores=None, remembered=None, opened=None, bank: int = 0,
             leader: int = -1, last_player: int = -1, knocks: int = 0, round: int = 1,
             pairs: bool = False, game: str = "kozel", moves=()) -> GameState:
    n = len(hands)
    links = [tuple(int(x) for x in link.split("-")) for link in chain.split()]
    if bazaar is None:  # the tiles nobody holds, ``draws`` first
        used = {t for h in hands for t in tiles(h)} | {tile(f"{a}-{b}") for a, b in links}
        first = list(tiles(draws))
        bazaar_tiles = [t.name for t in first + [t for t in TILES if t not in used | set(first)]]
    else:
        bazaar_tiles = bazaar.split()
    return GameState.from_json({
        "variant": game, "moves": list(moves),
        "seats": n, "fish": fish, "pairs": pairs, "phase": "play", "round": round,
        "hands": [h.split() for h in hands], "bazaar": bazaar_tiles,
        "chain": [list(p) for p in links], "turn": turn, "lead": None, "knocks": knocks,
        "last_player": last_player, "leader": leader,
        "scores": list(scores or [0] * n), "remembered": list(remembered or [0] * n),
        "opened": list(opened or [False] * n), "bank": bank, "last_round": None,
        "goats": [], "interrupted_by": None, "interrupt_reason": None,
    })


def all_but(*names: str) -> str:
    """Every tile except those named (space-separated groups allowed), as one hand."""
    used = {tile(n) for group in names for n in group.split()}
    return " ".join(t.name for t in TILES if t not in used)


# Hands at the redeal rule's thresholds (RULES.md 3.3: 5 or more doubles, or 6 or more tiles
# sharing one value, a double counting once for its value), and whether a deal may hold them.
FIVE_DOUBLES = "0-0 1-1 2-2 3-3 4-4 0-1 2-3"
SIX_OF_A_VALUE = "6-6 0-6 1-6 2-6 3-6 4-6 0-1"  # 6-6 and five more tiles show a 6
REDEAL_THRESHOLDS = [
    ("0-0 1-1 2-2 3-3 0-1 2-3 4-5", True),   # exactly 4 doubles
    (FIVE_DOUBLES, False),                    # exactly 5 doubles
    ("0-6 1-6 2-6 3-6 4-6 0-1 2-3", True),    # exactly 5 tiles of value 6
    ("6-6 0-6 1-6 2-6 3-6 0-1 2-3", True),    # 5 of value 6: the double counts once, not twice
    ("0-6 1-6 2-6 3-6 4-6 5-6 0-1", False),   # exactly 6 tiles of value 6
    (SIX_OF_A_VALUE, False),                  # 6 of value 6, the double among them
]
