"""Players for simulations and bots: each chooses from one seat's view, and nothing else.

A player sees exactly what a person at that seat would (``view_for``), so a bot cannot
cheat, and it answers with one of the view's legal actions.
"""

from __future__ import annotations

import random
from collections import Counter

from .actions import Action, action_from_json
from .scoring import round_points
from .tiles import NON_DOUBLE_MASK, TILES, mask_of, tile


class RandomPlayer:
    """Picks uniformly among the legal actions; seeded, so a simulation can be repeated."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> Action:
        return action_from_json(self.rng.choice(view["legal"]))


class HeuristicPlayer:
    """A sound club player.  Points left in hand are bad (101 makes the goat), so it:

    - sheds heavy tiles early (their pips would count against it);
    - keeps tiles that match many values still open to it, so it will not have to draw;
    - prefers a double when it fits (doubles are the hardest tiles to get rid of);
    - never places a fish it would likely lose: in fish for one, the player with the most
      points takes the whole table; in fish for all, its own pips count.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # breaks ties, so bots do not all play alike

    def choose(self, view: dict) -> Action:
        legal = view["legal"]
        plays = [a for a in legal if "play" in a]
        if not plays:
            return action_from_json(legal[0])  # draw or knock: the only legal action
        hand = [tile(n) for n in view["hand"]]
        best = max(plays, key=lambda a: (self._value(view, hand, a), self.rng.random()))
        return action_from_json(best)

    def _value(self, view: dict, hand, move: dict) -> float:
        if isinstance(move["play"], list):  # two doubles at once (sea goat): they shed the
            return self._two_doubles_value(view, hand, move)  # most, and keep both ends
        played = tile(move["play"])
        rest = [t for t in hand if t is not played]
        if not rest:
            return 1000.0  # going out is always best
        ends = _ends_after(view, played, move.get("end"))
        value = played.pips * 2.0 + (3.0 if played.is_double else 0.0)
        # Tiles of the rest that will still fit the new ends, and how many values the rest covers.
        value += sum(1.5 for t in rest if t.low in ends or t.high in ends)
        counts = Counter(v for t in rest for v in {t.low, t.high})
        value += 0.5 * len(counts)
        if ends[0] == ends[1] and _makes_fish(view, played, ends[0]):
            value += 50.0 if _wins_fish(view, rest) else -100.0
        return value

    def _two_doubles_value(self, view: dict, hand, move: dict) -> float:
        played = [tile(name) for name in move["play"]]
        rest = [t for t in hand if t not in played]
        if not rest:
            return 1000.0
        ends = tuple(view["ends"])
        value = sum(t.pips * 2.0 + 3.0 for t in played)
        value += sum(1.5 for t in rest if t.low in ends or t.high in ends)
        return value + 0.5 * len({v for t in rest for v in (t.low, t.high)})


def _ends_after(view: dict, played, end: str | None) -> tuple[int, int]:
    if not view["ends"]:
        return played.low, played.high
    left, right = view["ends"]
    if end == "left":
        return played.other(left), right
    return left, played.other(right)


def _makes_fish(view: dict, played, value: int) -> bool:
    on_table = played.bit
    for a, b in view["chain"]:
        on_table |= tile(f"{a}-{b}").bit
    return on_table & NON_DOUBLE_MASK[value] == NON_DOUBLE_MASK[value]


def _wins_fish(view: dict, rest) -> bool:
    """Whether a fish now is likely good for me: my pips are low against the others'."""
    mine = round_points(mask_of(rest))
    seen = {tile(n) for n in view["hand"]} | {tile(f"{a}-{b}") for a, b in view["chain"]}
    unseen = [t for t in TILES if t not in seen]
    average = sum(t.pips for t in unseen) / len(unseen) if unseen else 0.0
    me = view["seat"]
    others = [average * count for seat, count in enumerate(view["hand_counts"]) if seat != me]
    if view["fish"] == "one":
        return mine < min(others)  # the loser of a fish for one takes everyone's points
    return mine <= sum(others) / len(others)
