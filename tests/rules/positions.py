"""Build deals and mid-round positions for rule tests, written the way a player reads them.

``deal("1-1 2-5 ...", "...")`` makes an explicit deal (the bazaar gets the tiles nobody
holds); ``position(...)`` makes a state in the middle of a round from hands and a chain
written left to right as oriented halves ("2-4 4-1 1-2": the left end shows 2).
"""

from games.rules import Deal, GameState, tile
from games.rules.tiles import TILES


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


def position(*hands: str, chain: str = "", bazaar: str | None = None, draws: str = "",
             turn: int = 0,
             fish: str = "all", scores=None, remembered=None, opened=None, bank: int = 0,
             leader: int = -1, last_player: int = -1, knocks: int = 0, round: int = 1) -> GameState:
    n = len(hands)
    pairs = [tuple(int(x) for x in link.split("-")) for link in chain.split()]
    if bazaar is None:  # the tiles nobody holds, ``draws`` first
        used = {t for h in hands for t in tiles(h)} | {tile(f"{a}-{b}") for a, b in pairs}
        first = list(tiles(draws))
        bazaar_tiles = [t.name for t in first + [t for t in TILES if t not in used | set(first)]]
    else:
        bazaar_tiles = bazaar.split()
    return GameState.from_json({
        "seats": n, "fish": fish, "phase": "play", "round": round,
        "hands": [h.split() for h in hands], "bazaar": bazaar_tiles,
        "chain": [list(p) for p in pairs], "turn": turn, "lead": None, "knocks": knocks,
        "last_player": last_player, "leader": leader,
        "scores": list(scores or [0] * n), "remembered": list(remembered or [0] * n),
        "opened": list(opened or [False] * n), "bank": bank, "last_round": None,
        "goats": [], "interrupted_by": None, "interrupt_reason": None,
    })


def all_but(*names: str) -> str:
    """Every tile except those named (space-separated groups allowed), as one hand."""
    used = {tile(n) for group in names for n in group.split()}
    return " ".join(t.name for t in TILES if t not in used)
