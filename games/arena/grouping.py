"""Which waiting players sit together (RULES.md 12, seating): pure.

Players come ranked (best first).  Tables are cut from that order, so that each table
holds players close in rank; when ``2k`` or more wait, no two players who sat together
in either one's previous game of the arena share a table if some grouping avoids it --
searched for, closest in rank first, within a bounded number of steps.
"""

from __future__ import annotations

import random
from typing import Hashable, Sequence

SEARCH_STEPS = 20_000


def tables(ranked: Sequence[Hashable], k: int,
           met: dict[Hashable, frozenset] | None = None) -> list[list[Hashable]]:
    """As many tables of ``k`` as the waiting players make, each in rank order;
    ``met[p]``: whom ``p`` sat with in their previous game of the arena."""
    count = len(ranked) // k
    if count == 0:
        return []
    plain = [list(ranked[n * k:(n + 1) * k]) for n in range(count)]
    if met is None or len(ranked) < 2 * k or not _clashes(plain, met):
        return plain
    found = _search(list(ranked), k, count, met)
    return found if found is not None else plain


def _apart(a, b, met) -> bool:
    return b not in met.get(a, ()) and a not in met.get(b, ())


def _clashes(groups, met) -> bool:
    return any(not _apart(a, b, met) for group in groups
               for i, a in enumerate(group) for b in group[i + 1:])


def _search(players: list, k: int, count: int, met) -> list[list] | None:
    """Depth first: the best-ranked player left either opens the next table with the
    closest in rank who clash with nobody at it, or (while players may be left over) is
    left to wait."""
    spare = len(players) - count * k
    steps = [0]

    def fill(rest: list, made: list, spare: int):
        if len(made) == count:
            return made
        steps[0] += 1
        if steps[0] > SEARCH_STEPS or len(rest) < k:
            return None
        head, others = rest[0], rest[1:]
        for group in _groups_with(head, others, k - 1, met):
            left = [p for p in others if p not in group]
            found = fill(left, made + [[head, *group]], spare)
            if found is not None:
                return found
            if steps[0] > SEARCH_STEPS:
                return None
        if spare > 0:
            return fill(others, made, spare - 1)
        return None

    return fill(players, [], spare)


def _groups_with(head, others: list, size: int, met):
    """Companions for ``head``, ``size`` of them from ``others`` (in rank order), who
    clash with nobody at the table: the closest in rank first."""
    def extend(chosen: list, start: int):
        if len(chosen) == size:
            yield chosen
            return
        for index in range(start, len(others)):
            candidate = others[index]
            if all(_apart(candidate, p, met) for p in (head, *chosen)):
                yield from extend(chosen + [candidate], index + 1)
    yield from extend([], 0)


def seat_order(table: Sequence[Hashable], pairs: bool, rng: random.Random) -> list[Hashable]:
    """The table's players by seat, in a random order.  Pairs (RULES.md 12): ranked ``a``
    (best) to ``d``, ``a`` + ``d`` and ``b`` + ``c`` are partners, sitting opposite
    (seats 0 and 2, 1 and 3)."""
    if not pairs:
        order = list(table)
        rng.shuffle(order)
        return order
    a, b, c, d = table
    first, second = [a, d], [b, c]
    for pair in (first, second):
        rng.shuffle(pair)
    if rng.random() < 0.5:
        first, second = second, first
    return [first[0], second[0], first[1], second[1]]
