"""An arena's standings as a pure function of its games' results (RULES.md 12).

The arena's page and ``manage.py arena`` both compute them here, from the same values:
the page from its games' matches, the command from the records of a ``kozel-arena/1``
export (games/arena/export.py) -- so that they agree by construction.

Pure Python: no Django, no database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

FINISHED, INTERRUPTED, ABORTED = "finished", "interrupted", "aborted"
ENDED = (FINISHED, INTERRUPTED, ABORTED)
FIRE_STREAK = 2  # a streak of 2 or more when a game starts doubles its points


@dataclass(frozen=True)
class GameResult:
    """One ended game of an arena, as the standings need it."""

    started: int                    # the order in which the arena's games started
    players: tuple[Hashable, ...]   # who sat where, by seat
    status: str                     # "finished", "interrupted" or "aborted"
    scores: tuple[int, ...]         # open scores by seat (in pairs, each seat its pair's)
    goats: tuple[int, ...]          # seats of the goats (a finished game)
    points: tuple[int, ...]         # rating points by seat (RULES.md 8, 9, 11)
    interrupted_by: int | None = None
    pairs: bool = False

    def out_of_it(self, seat: int) -> bool:
        """Whether ``seat`` timed out or left, or is the partner of who did."""
        if self.interrupted_by is None:
            return False
        if self.pairs:
            return seat % 2 == self.interrupted_by % 2
        return seat == self.interrupted_by

    def best(self, seat: int) -> bool:
        """RULES.md 12: in a finished game, nobody else at the table has a lower open
        score (ties at the lowest are all best); in pairs, their pair is not a goat."""
        if self.status != FINISHED:
            return False
        if self.pairs:
            return seat not in self.goats
        return self.scores[seat] == min(self.scores)


@dataclass(frozen=True)
class Played:
    """One game in a player's sheet: its arena points and what it did to them."""

    started: int
    points: int          # arena points (doubled on fire)
    on_fire: bool        # the streak was 2 or more when it started
    best: bool


@dataclass
class Standing:
    player: Hashable
    joined: int                    # the order in which they joined
    points: int = 0
    best: int = 0
    games: int = 0
    streak: int = 0
    rank: int = 0
    sheet: list[Played] = field(default_factory=list)

    @property
    def on_fire(self) -> bool:
        """Their next game's points are doubled."""
        return self.streak >= FIRE_STREAK

    def as_json(self, name=None) -> dict:
        """The line ``manage.py arena`` prints for this player (RECORD.md)."""
        return {"name": self.player if name is None else name, "rank": self.rank,
                "points": self.points, "best": self.best, "games": self.games,
                "streak": self.streak}


def rank_key(standing: Standing) -> tuple:
    """RULES.md 12: more points, then more games best, then fewer games, then earlier joined."""
    return (-standing.points, -standing.best, standing.games, standing.joined)


def standings(players: Iterable[tuple[Hashable, int]],
              games: Iterable[GameResult]) -> list[Standing]:
    """Everyone of ``players`` (each ``(player, joined)``), ranked, after ``games`` (in
    any order: they are counted in the order they started).  A game naming someone not in
    ``players`` is a ValueError."""
    table = {player: Standing(player, joined) for player, joined in players}
    for game in sorted(games, key=lambda g: g.started):
        _count(table, game)
    ranked = sorted(table.values(), key=rank_key)
    for number, standing in enumerate(ranked, 1):
        standing.rank = number
    return ranked


def _count(table: dict, game: GameResult) -> None:
    if game.status not in ENDED:
        raise ValueError(f"game {game.started} has not ended")
    # Everyone's fire is decided by their streak when the game starts, before any of it.
    seats = [table.get(player) for player in game.players]
    if None in seats:
        raise ValueError(f"game {game.started} names someone who is not in the arena")
    fire = [standing.streak >= FIRE_STREAK for standing in seats]
    for seat, standing in enumerate(seats):
        points = game.points[seat] * (2 if fire[seat] else 1)
        best = game.best(seat)
        standing.points += points
        standing.games += 1
        standing.best += best
        if game.status == FINISHED:
            standing.streak = standing.streak + 1 if best else 0
        elif game.out_of_it(seat):
            standing.streak = 0
        standing.sheet.append(Played(game.started, points, fire[seat], best))


def podium(ranked: Sequence[Standing]) -> list[Standing]:
    """The first three (RULES.md 12: shown once the arena is over)."""
    return list(ranked[:3])


def result_of_match(started: int, players: Sequence[Hashable], status: str, result: dict,
                    pairs: bool) -> GameResult:
    """A game's result as its match keeps it (``Match.status`` and ``Match.result``,
    games/play/finish.py), for the arena's page."""
    return GameResult(started, tuple(players), status, tuple(result["scores"]),
                      tuple(result["goats"]) if status == FINISHED else (),
                      tuple(result["rating_points"]), result["interrupted_by"], pairs)
