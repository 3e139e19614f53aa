"""What kind of game a table plays: a value that every game state carries (DESIGN.md).

A ``Variant`` names the game (Kozel, sea goat; next the seeds' other games), its number of seats,
its options (Kozel's fish rule, RULES.md 7.4) and whether it is played by two pairs
(RULES.md 11).  Whatever depends on the kind of game -- who scores together, the score
table's rows, the score that ends the game, whether it can be rated, which options a
request offers -- is asked of the variant, so that no template, form or service branches
on flags of its own.  (Models to read: scalachess's ``variant/Variant.scala``,
python-chess's ``chess/variant.py``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidState

KOZEL = "kozel"
SEA_GOAT = "sea-goat"
FISH_ALL, FISH_ONE = "all", "one"
FISH_RULES = (FISH_ALL, FISH_ONE)

# Seats 0 and 2 are one pair, seats 1 and 3 the other: partners sit opposite each other.
PAIRS = ((0, 2), (1, 3))

# Every game the rules know, by name.  A game registers itself here with what it is.
GAMES: dict[str, "Game"] = {}


@dataclass(frozen=True)
class Game:
    """What a kind of game is, whatever its table: its name, and the rules it keeps."""

    name: str
    seats: tuple[int, ...]        # the table sizes it is played at
    pairs: bool                   # whether four may play it as two pairs
    fish_rule: bool               # whether a request chooses a fish rule (RULES.md 7.4)
    rated: bool                   # whether its games can count for the rating ladder
    end_score: int                # a score this high ends the game
    # How its scores are kept: by writing (RULES.md 13: a round's winner writes down what
    # the others hold, one player writing at a time, and the game has winners), or else
    # as open scores and remembered points (RULES.md 7, and the game has goats).
    writing: bool = False
    # Whether two doubles may be played at once, one on each end (RULES.md 13).
    two_doubles: bool = False


GAMES[KOZEL] = Game(KOZEL, seats=(2, 3, 4), pairs=True, fish_rule=True, rated=True,
                    end_score=101)
GAMES[SEA_GOAT] = Game(SEA_GOAT, seats=(2, 3, 4), pairs=True, fish_rule=False, rated=False,
                       end_score=125, writing=True, two_doubles=True)


@dataclass(frozen=True)
class Variant:
    """One table's kind of game: ``Variant(4, "one", pairs=True)`` is Kozel for two
    pairs, fish for one.  Raises InvalidState for a table the game is not played at."""

    seats: int
    fish: str | None = FISH_ALL
    pairs: bool = False
    name: str = KOZEL

    def __post_init__(self) -> None:
        game = GAMES.get(self.name)
        if game is None:
            raise InvalidState(f"unknown game {self.name!r}")
        if type(self.seats) is not int or self.seats not in game.seats:
            raise InvalidState("a game has 2, 3 or 4 players")
        if game.fish_rule and self.fish not in FISH_RULES:
            raise InvalidState('the fish rule is "all" or "one"')
        if not game.fish_rule and self.fish is not None:
            raise InvalidState(f"{self.name} has no fish rule")
        if type(self.pairs) is not bool:
            raise InvalidState('"pairs" must be true or false')
        if self.pairs and not (game.pairs and self.seats == 4):
            raise InvalidState("a pair game needs 4 players (RULES.md 11)")

    @property
    def game(self) -> Game:
        return GAMES[self.name]

    # -- who scores together ------------------------------------------------------------

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """The scoring units, each a tuple of its seats: the two pairs in a pair game
        (seats 0 and 2, 1 and 3), else every seat alone.  The score table has one row
        (column) per unit."""
        return PAIRS if self.pairs else tuple((seat,) for seat in range(self.seats))

    def unit_of(self, seat: int) -> int:
        """The unit a seat scores in."""
        return seat % 2 if self.pairs else seat

    def partner(self, seat: int) -> int | None:
        """The seat opposite in a pair game; None alone."""
        return (seat + 2) % 4 if self.pairs else None

    # -- what the game is -----------------------------------------------------------------

    @property
    def can_be_rated(self) -> bool:
        """Whether its games may count for the rating ladder (RULES.md 8-10)."""
        return self.game.rated

    @property
    def has_fish_rule(self) -> bool:
        return self.game.fish_rule

    @property
    def end_score(self) -> int:
        """The score that ends the game (Kozel: 101, and whoever has it is a goat; sea
        goat: 125, and whoever has it wins)."""
        return self.game.end_score

    @property
    def has_writing(self) -> bool:
        """Whether its scores are written by a round's winner, one player (pair) writing at
        a time, and the game has winners (sea goat, RULES.md 13); else open scores,
        remembered points and goats (Kozel, RULES.md 7-8)."""
        return self.game.writing

    @property
    def has_two_doubles(self) -> bool:
        """Whether two doubles may be played at once, one on each end (RULES.md 13)."""
        return self.game.two_doubles

    def seats_of(self, unit: int) -> tuple[int, ...]:
        """The seats of a scoring unit (``units``): a pair's two, or a seat alone."""
        return self.units[unit]

    # -- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {"variant": self.name, "seats": self.seats, "fish": self.fish,
                "pairs": self.pairs}

    @classmethod
    def from_json(cls, data: dict) -> "Variant":
        """From ``to_json`` (or a state's JSON); a state saved before variants existed
        has none and is Kozel, and one saved before pair games is a game alone."""
        name = data.get("variant", KOZEL)
        return cls(data["seats"], data.get("fish"), data.get("pairs", False), name)

    def __str__(self) -> str:
        return (f"{self.name}, {self.seats} seats" + (", pairs" if self.pairs else "")
                + (f", fish for {self.fish}" if self.fish else ""))
