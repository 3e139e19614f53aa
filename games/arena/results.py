"""An arena's results as the site keeps them: its standings (computed by
games/arena/standings.py from its games' matches) and its ``kozel-arena/1`` export
(games/arena/export.py).  Both number its games and players the same way, so that
``manage.py arena`` on the export gives exactly the standings its page shows."""

from __future__ import annotations

from games.arena import export
from games.arena.standings import Standing, result_of_match, standings
from games.models import OVER, Arena, ArenaGame, ArenaPlayer
from games.records.log import record_of


def players_of(arena: Arena) -> list[tuple[int, int, str]]:
    """(user id, joined -- 1 first --, name) of everyone who joined."""
    rows = (ArenaPlayer.objects.filter(arena=arena).order_by("joined_at", "id")
            .values_list("user_id", "user__username"))
    return [(user_id, number, name) for number, (user_id, name) in enumerate(rows, 1)]


def scored_games(arena: Arena) -> list[ArenaGame]:
    """Its games that ended with a result (finished, interrupted or aborted -- not those
    a moderator stopped), in the order they started."""
    return list(ArenaGame.objects.filter(arena=arena, ended=True, match__status__in=OVER,
                                         match__result__isnull=False)
                .select_related("match").prefetch_related("match__seats")
                .order_by("match__started_at", "match_id"))


def _seated(game: ArenaGame) -> list[int]:
    return [seat.user_id for seat in sorted(game.match.seats.all(), key=lambda s: s.number)]


def arena_standings(arena: Arena) -> list[Standing]:
    """Its standings now, ranked, each ``player`` a user id."""
    players = [(user_id, joined) for user_id, joined, _name in players_of(arena)]
    results = [result_of_match(number, _seated(game), game.match.status, game.match.result,
                               game.match.pairs)
               for number, game in enumerate(scored_games(arena), 1)]
    return standings(players, results)


def document(arena: Arena) -> dict:
    """Its ``kozel-arena/1`` export (RECORD.md)."""
    people = players_of(arena)
    names = {user_id: name for user_id, _joined, name in people}
    games = []
    for number, game in enumerate(scored_games(arena), 1):
        record = record_of(game.match).to_json()
        record["players"] = [names[user_id] for user_id in _seated(game)]
        games.append((number, record))
    return export.document(arena.name, export.table_value(arena.seats_count, arena.pairs),
                           arena.fish, arena.turn_seconds, arena.rated,
                           [(name, joined) for _u, joined, name in people], games)
