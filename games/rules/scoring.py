"""Scoring a round and ending the game (RULES.md 7 and 8).

Pure functions over tuples, so each rule reads on its own and is tested on its own.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .tiles import PIPS, tile
from .variant import PAIRS  # noqa: F401 (who scores together: the variant says)

# An open score this high ends the game, and whoever has it is a goat (RULES.md 8).
GAME_OVER_SCORE = 101

OPEN_THRESHOLD = 12          # a single credit above this opens a player (RULES.md 7.2)
LONE_ZERO_DOUBLE_POINTS = 10  # a hand of only 0-0 counts 10 (RULES.md 7.1)
_ZERO_DOUBLE_BIT = tile("0-0").bit

OUT, FISH = "out", "fish"


def round_points(hand_mask: int) -> int:
    """Pips left in a hand; a hand holding only 0-0 counts 10 (RULES.md 7.1)."""
    if hand_mask == _ZERO_DOUBLE_BIT:
        return LONE_ZERO_DOUBLE_POINTS
    # Four look-ups of 7 tiles each: a round's end is scored on every simulated round.
    return (_PIPS_BY_CHUNK[0][hand_mask & 127] + _PIPS_BY_CHUNK[1][hand_mask >> 7 & 127]
            + _PIPS_BY_CHUNK[2][hand_mask >> 14 & 127] + _PIPS_BY_CHUNK[3][hand_mask >> 21])


_PIPS_BY_CHUNK = tuple(
    tuple(sum(PIPS[chunk * 7 + i] for i in range(7) if bits >> i & 1) for bits in range(128))
    for chunk in range(4))


class Tally(NamedTuple):
    """One player's open score, remembered points and whether they have opened."""

    score: int
    remembered: int
    opened: bool


def credit(tally: Tally, points: int) -> Tally:
    """Credit ``points`` to a player by the rule of RULES.md 7.2."""
    if tally.opened:
        return Tally(tally.score + points, tally.remembered, True)
    if points > OPEN_THRESHOLD:
        return Tally(tally.score + tally.remembered + points, 0, True)
    return Tally(tally.score, tally.remembered + points, False)


# Which rule of RULES.md 7 gave a seat (or a pair) its credit, for ``explain``.
WENT_OUT = "out"          # 7.2/7.3: went out: nothing credited, remembered points lost
OWN_POINTS = "own"        # 7.3, 7.4 fish for all: its own round points
FISH_TOTAL = "total"      # 7.4 fish for one: the most round points, credited T
FISH_OTHER = "other"      # 7.4 fish for one: another has the most: nothing, remembered lost
FISH_DRAW = "draw"        # 7.4 fish for one, shared most: nothing, remembered kept
# What became of the fish bank (7.5).
NO_BANK, BANK_WON, BANK_KEPT, BANK_GREW = "none", "won", "kept", "grew"


class RoundScore(NamedTuple):
    credited: tuple[int, ...]   # what each seat was credited this round, bank included
    tallies: tuple[Tally, ...]  # after the round
    bank: int                   # the fish bank after the round
    why: tuple[dict, ...] = ()  # per seat, which rule credited what (``explain``)
    bank_rule: str = NO_BANK    # what became of the fish bank


def explain(rule: str, before: Tally, after: Tally, credited: int, bank: int) -> dict:
    """Why a seat's tally went from ``before`` to ``after`` (JSON-ready): the ``rule`` that
    gave it ``credited`` (``bank`` of it the fish bank), and what the credit did by 7.2 --
    ``"opened"`` (its remembered points ``added`` to the open score), ``"score"`` (added to
    an open score), ``"remembered"`` (kept in mind: 12 or less), or ``"none"`` -- and the
    remembered points ``lost``."""
    if credited and after.opened and not before.opened:
        tally = "opened"
    elif credited:
        tally = "score" if before.opened else "remembered"
    else:
        tally = "none"
    lost = before.remembered if tally != "opened" and after.remembered < before.remembered else 0
    return {"rule": rule, "credited": credited, "bank": bank, "tally": tally,
            "added": before.remembered if tally == "opened" else 0, "lost": lost}


def _single_top(points: Sequence[int]) -> int | None:
    """The one seat with the most round points, or None when two or more share it."""
    top = max(points)
    holders = [seat for seat, p in enumerate(points) if p == top]
    return holders[0] if len(holders) == 1 else None


def score_round(result: str, seat: int, points: Sequence[int], tallies: Sequence[Tally],
                fish_rule: str, bank: int, why: bool = False) -> RoundScore:
    """Credit a round that ended with ``result`` (OUT or FISH) made by ``seat``; with
    ``why``, say which rule credited what (the game itself does not ask: a room asks when
    it shows the round's summary, ``explain_round``)."""
    n = len(points)
    before = tuple(tallies)
    tallies = list(tallies)
    credited = [0] * n
    if result == FISH and fish_rule == "one":
        total = sum(points)
        top = _single_top(points)
        if top is None:  # a draw: nobody credited, remembered points kept, T into the bank
            notes = tuple(explain(FISH_DRAW, t, t, 0, 0) for t in before) if why else ()
            return RoundScore(tuple(credited), before, bank + total, notes, BANK_GREW)
        for s in range(n):  # RULES.md 7.4: the others get nothing and lose remembered points
            if s != top:
                tallies[s] = Tally(tallies[s].score, 0, tallies[s].opened)
        credited[top] = total + bank
        tallies[top] = credit(tallies[top], credited[top])
        notes = tuple(explain(FISH_TOTAL if s == top else FISH_OTHER, before[s], tallies[s],
                              credited[s], bank if s == top else 0) for s in range(n)) if why else ()
        return RoundScore(tuple(credited), tuple(tallies), 0, notes,
                          BANK_WON if bank else NO_BANK)

    # Out (RULES.md 7.3) or fish for all (7.4): everyone credited their own round points,
    # and the bank (7.5) goes on top to the one player with the most round points.
    top = _single_top(points) if bank else None
    for s in range(n):
        if result == OUT and s == seat:
            tallies[s] = Tally(tallies[s].score, 0, tallies[s].opened)  # out: remembered lost
            continue
        credited[s] = points[s] + (bank if s == top else 0)
        tallies[s] = credit(tallies[s], credited[s])
    notes = tuple(explain(WENT_OUT if result == OUT and s == seat else OWN_POINTS, before[s],
                          tallies[s], credited[s], bank if s == top else 0)
                  for s in range(n)) if why else ()
    bank_rule = NO_BANK if not bank else BANK_WON if top is not None else BANK_KEPT
    return RoundScore(tuple(credited), tuple(tallies), bank if bank and top is None else 0,
                      notes, bank_rule)


def score_columns(result: str, seat: int, points: Sequence[int], scores: Sequence[int],
                  remembered: Sequence[int], opened: Sequence[bool], fish_rule: str,
                  bank: int) -> tuple[list[int], list[int], list[int], list[bool], int]:
    """``score_round`` without ``why``, on the tallies' columns: (credited, scores,
    remembered, opened, bank) after the round, the first four lists per seat.

    The engine's own: it scores every simulated round, and this makes no Tally objects.
    A test holds it to ``score_round`` (tests/rules/test_scoring.py).
    """
    n = len(points)
    scores, remembered, opened = list(scores), list(remembered), list(opened)
    credited = [0] * n
    most = max(points)
    top = points.index(most) if points.count(most) == 1 else None  # _single_top
    if result == FISH and fish_rule == "one":
        if top is None:  # a draw: nobody credited, remembered points kept, T into the bank
            return credited, scores, remembered, opened, bank + sum(points)
        for s in range(n):  # RULES.md 7.4: the others lose their remembered points
            if s != top:
                remembered[s] = 0
        targets, bank_after = (top,), 0
        credited[top] = sum(points) + bank
    else:  # out (7.3) or fish for all (7.4): their own points, the bank to the one top
        if not bank:
            top = None
        targets, bank_after = range(n), bank if bank and top is None else 0
        for s in targets:
            credited[s] = points[s] + (bank if s == top else 0)
        if result == OUT:
            credited[seat] = remembered[seat] = 0  # out: nothing, remembered lost
            targets = [s for s in targets if s != seat]
    for s in targets:  # credit (7.2)
        points_s = credited[s]
        if opened[s]:
            scores[s] += points_s
        elif points_s > OPEN_THRESHOLD:
            scores[s] += remembered[s] + points_s
            remembered[s] = 0
            opened[s] = True
        else:
            remembered[s] += points_s
    return credited, scores, remembered, opened, bank_after


def goats(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats at 101 or more (RULES.md 8); the game is over when there is any."""
    return tuple(s for s, score in enumerate(scores) if score >= GAME_OVER_SCORE)


# -- pairs (RULES.md 11) ----------------------------------------------------------------
# Seats 0 and 2 are pair 0, seats 1 and 3 pair 1 (``variant.PAIRS``): partners sit
# opposite each other.


def pair_of(seat: int) -> int:
    """The pair a seat plays in: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def pair_round_points(result: str, seat: int, points: Sequence[int]) -> tuple[int, int]:
    """Each pair's round points: the sum of its players' (each by 7.1), except that the
    pair of the player who went out has 0."""
    return tuple(0 if result == OUT and pair_of(seat) == pair else
                 sum(points[s] for s in members) for pair, members in enumerate(PAIRS))


def score_pairs_round(result: str, seat: int, points: Sequence[int], tallies: Sequence[Tally],
                      fish_rule: str, bank: int,
                      why: bool = False) -> tuple[tuple[int, int], RoundScore]:
    """Credit a pair game's round: ``points`` per seat, ``tallies`` per pair.

    The pairs are scored exactly as two players would be (7.2 to 7.5) on their pair round
    points: the pair that went out is credited nothing and loses its remembered points,
    fish for one gives the pair with more points T (the sum of all four hands, which is
    the sum of the two pairs' points when nobody is out), and the bank goes to the pair
    with the most round points.  Returns the pairs' round points and their RoundScore.
    """
    by_pair = pair_round_points(result, seat, points)
    return by_pair, score_round(result, pair_of(seat), by_pair, tallies, fish_rule, bank, why)


def unit_round_points(variant, result: str, seat: int, points: Sequence[int]) -> tuple[int, ...]:
    """Each scoring unit's round points (``variant.units``): a seat's own, or a pair's
    by RULES.md 11 (0 for the pair of who went out)."""
    if variant.pairs:
        return pair_round_points(result, seat, points)
    return tuple(points)


def round_units(variant, summary: dict) -> list[dict]:
    """A round's summary (a state's ``last_round``) per scoring unit: its ``seats``, its
    round ``points`` and what it was ``credited`` (a pair's from its pair fields, RULES.md
    11; a seat's own alone)."""
    if variant.pairs and "pair_points" in summary:
        return [{"seats": seats, "points": summary["pair_points"][unit],
                 "credited": summary["pair_credited"][unit]}
                for unit, seats in enumerate(variant.units)]
    return [{"seats": seats, "points": summary["points"][seats[0]],
             "credited": summary["credited"][seats[0]]} for seats in variant.units]


def explain_round(summary: dict, fish_rule: str) -> dict:
    """Why a round's summary (a state's ``last_round``) credited what it did: the round
    scored again from the tallies and bank it began with, saying which rule gave each seat
    (each pair, in a pair game) its credit (``explain``), what became of the fish bank
    (``bank_rule``: none, won, kept or grew) and T (``total``, the sum of all round
    points).  None for a summary written before the round kept its beginning."""
    before = summary.get("before")
    if before is None:
        return None
    tallies = [Tally(*t) for t in zip(before["scores"], before["remembered"], before["opened"])]
    result, seat, points = summary["result"], summary["seat"], summary["points"]
    if summary.get("pairs"):
        _by_pair, scored = score_pairs_round(result, seat, points, tallies[:2], fish_rule,
                                             summary["bank_in"], why=True)
    else:
        scored = score_round(result, seat, points, tallies, fish_rule, summary["bank_in"],
                             why=True)
    return {"why": list(scored.why), "bank_rule": scored.bank_rule, "total": sum(points),
            "bank_in": summary["bank_in"], "bank": scored.bank}
