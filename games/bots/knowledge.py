"""What one seat knows of a game: the only input a bot (or the analysis) ever gets.

``Knowledge`` is built from the seat's view (``rules.view_for``) and nothing else: its
own hand, the chain and the tiles on the table, every seat's tile count, the bazaar's
size, the scores, remembered points and the bank, the variant, and the round's public
moves -- from which it reads who drew and who knocked on which ends, and so which values
each seat is known to lack.  It holds no other seat's tile and no tile of the bazaar, so
a bot cannot peek: the type has no place for what the seat does not see.
"""

from __future__ import annotations

from dataclasses import dataclass

import games.rules as rules
from games.rules.tiles import ALL_MASK, VALUE_MASK, mask_of, names_of

NO_VALUES = 0  # a seat's lacked values: bit v set when the seat is known to hold no tile with v


@dataclass(frozen=True)
class Knowledge:
    """One seat's knowledge at a moment of a game (immutable, hashable, comparable)."""

    seat: int
    variant: rules.Variant          # seats, fish rule, pairs, the game (Kozel, sea goat)
    phase: str                      # rules.PLAYING while a round is played
    round: int
    turn: int | None                # the seat to move, None between rounds
    hand: int                       # the seat's own tiles, a bitmask (rules/tiles.py)
    chain: tuple                    # ((left half, right half), ...) from the left end
    table: int                      # the tiles on the table, a bitmask
    moves: tuple                    # the round's actions so far (a draw names no tile)
    hand_counts: tuple              # tiles in every seat's hand
    bazaar: int                     # tiles left in the bazaar (never which)
    lacks: tuple                    # per seat: a bitmask of the values it cannot hold
    drew: tuple                     # per seat: tiles drawn this round
    knocked: tuple                  # per seat: knocks this round
    scores: tuple                   # open scores (partners share their pair's)
    remembered: tuple
    opened: tuple
    bank: int                       # the fish bank (RULES.md 7.5)
    legal: tuple                    # the seat's legal actions (empty unless its turn)

    # -- what follows from it -----------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.variant.seats

    @property
    def pairs(self) -> bool:
        return self.variant.pairs

    @property
    def fish(self) -> str | None:
        return self.variant.fish

    @property
    def end_score(self) -> int:
        """The score that ends the game: 101 in Kozel (the goat), 125 in sea goat."""
        return self.variant.end_score

    @property
    def ends(self) -> tuple[int, int] | None:
        if not self.chain:
            return None
        return self.chain[0][0], self.chain[-1][1]

    @property
    def unseen(self) -> int:
        """The tiles this seat cannot see: in the other hands or in the bazaar."""
        return ALL_MASK ^ self.hand ^ self.table

    def allowed(self, seat: int) -> int:
        """The unseen tiles ``seat`` may hold, by what it showed when it drew or knocked."""
        mask = self.unseen
        lacks = self.lacks[seat]
        for value in range(7):
            if lacks >> value & 1:
                mask &= ~VALUE_MASK[value]
        return mask

    def view(self) -> dict:
        """The parts of a seat's view the rules' players read (rules.HeuristicPlayer),
        rebuilt from this knowledge alone."""
        return {
            "seat": self.seat, "variant": self.variant.name, "seats": self.seats,
            "fish": self.fish, "pairs": self.pairs, "phase": self.phase,
            "round": self.round, "hand": names_of(self.hand),
            "hand_counts": list(self.hand_counts), "bazaar": self.bazaar,
            "chain": [list(pair) for pair in self.chain],
            "ends": list(self.ends) if self.chain else None, "turn": self.turn,
            "legal": [a.to_json() for a in self.legal], "scores": list(self.scores),
            "remembered": list(self.remembered), "opened": list(self.opened),
            "bank": self.bank, "moves": [a.to_json() for a in self.moves],
        }


def knowledge_for(state: rules.GameState, seat: int) -> Knowledge:
    """What ``seat`` knows of ``state``: read from its view, the only way in."""
    return knowledge_from_view(rules.view_for(state, seat))


def knowledge_from_view(view: dict) -> Knowledge:
    """A seat's knowledge from its view (``rules.view_for``, JSON-ready)."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator has no hand: knowledge is a seat's")
    variant = rules.Variant(view["seats"], view["fish"], view["pairs"], view["variant"])
    seats = variant.seats
    moves = tuple(rules.action_from_json(move) for move in view["moves"])
    lacks = [NO_VALUES] * seats
    drew = [0] * seats
    knocked = [0] * seats
    left = right = -1
    for action in moves:  # the round again, to know the ends at every draw and knock
        kind = action.kind
        if kind == rules.PLAY:
            t = action.tile
            if left < 0:
                left, right = t.low, t.high
            elif action.end == rules.LEFT:
                left = t.other(left)
            else:
                right = t.other(right)
        elif kind == rules.DOUBLES:  # two doubles at once keep both ends (sea goat)
            pass
        elif kind == rules.DRAW:
            # It held nothing for these ends; what it held before may have come back
            # with the tiles it drew, so only these ends are known now.  The tile that
            # ends its drawing fits and is played at once, so the lack outlives the play.
            lacks[action.seat] = 1 << left | 1 << right
            drew[action.seat] += 1
        elif kind == rules.KNOCK:
            lacks[action.seat] |= 1 << left | 1 << right
            knocked[action.seat] += 1
    chain = tuple(tuple(pair) for pair in view["chain"])
    table = mask_of(rules.tile(f"{a}-{b}") for a, b in chain)
    hand = mask_of(rules.tile(name) for name in view["hand"] or ())
    return Knowledge(
        seat=seat, variant=variant, phase=view["phase"], round=view["round"],
        turn=view["turn"], hand=hand, chain=chain, table=table, moves=moves,
        hand_counts=tuple(view["hand_counts"]), bazaar=view["bazaar"],
        lacks=tuple(lacks), drew=tuple(drew), knocked=tuple(knocked),
        scores=tuple(view["scores"]), remembered=tuple(view["remembered"]),
        opened=tuple(view["opened"]), bank=view["bank"],
        legal=tuple(rules.action_from_json(a) for a in view["legal"]))

