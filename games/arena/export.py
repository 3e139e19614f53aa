"""An arena's results as one document, ``kozel-arena/1`` (RECORD.md): written from an
arena's games and read back -- every record replayed and checked -- into the values its
standings are computed from (games/arena/standings.py).  ``manage.py arena`` prints what
``standings_of_text`` gives.

Pure: the rules read and replay each record, the rating formulas give its points.
"""

from __future__ import annotations

import json

from games.rules import InvalidRecord
from games.rules.record import read_record, replay
from games.rules.state import FINISHED, INTERRUPTED
from ratings.formulas import game_points

from .standings import ABORTED, GameResult, Standing, standings

FORMAT = "kozel-arena/1"
TABLES = (2, 3, 4, "pairs")


class ArenaExportError(ValueError):
    """The document is not a valid kozel-arena/1 export; the message says why."""


def table_value(seats: int, pairs: bool) -> int | str:
    """The export's ``table`` of an arena's settings."""
    return "pairs" if pairs else seats


def document(name: str, table: int | str, fish: str, turn_seconds: int, rated: bool,
             players: list[tuple[str, int]], games: list[tuple[int, dict]]) -> dict:
    """The export: ``players`` as (name, joined), ``games`` as (started, record as JSON)."""
    return {
        "format": FORMAT, "name": name, "table": table, "fish": fish,
        "turn_seconds": turn_seconds, "rated": rated,
        "players": [{"name": n, "joined": j} for n, j in players],
        "games": [{"started": s, "record": r} for s, r in games],
    }


def result_of(started: int, players, state, pairs: bool) -> GameResult:
    """A game's result from its rules state at the end (finished or interrupted)."""
    goats = tuple(state.goats) if state.phase == FINISHED else ()
    if state.phase == FINISHED:
        status = "finished"
    elif state.phase == INTERRUPTED:
        status = ABORTED if state.aborted else "interrupted"
    else:
        raise ArenaExportError(f"game {started} has not ended")
    points = game_points(status, list(state.scores), goats, state.interrupted_by, pairs)
    return GameResult(started, tuple(players), status, tuple(state.scores), goats,
                      tuple(points), state.interrupted_by, pairs)


def read(data: object) -> tuple[list[tuple[str, int]], list[GameResult]]:
    """The players (name, joined) and the games' results of a decoded export;
    ArenaExportError for anything RECORD.md refuses."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArenaExportError(f'an arena export must be a JSON object with "format": "{FORMAT}"')
    table = data.get("table")
    if table not in TABLES or isinstance(table, bool):
        raise ArenaExportError('"table" must be 2, 3, 4 or "pairs"')
    fish = data.get("fish")
    if fish not in ("all", "one"):
        raise ArenaExportError('"fish" must be "all" or "one"')
    players = _players(data.get("players"))
    raw_games = data.get("games")
    if not isinstance(raw_games, list):
        raise ArenaExportError('"games" must be a list')
    names = {name for name, _joined in players}
    results, seen = [], set()
    for index, raw in enumerate(raw_games, 1):
        if not isinstance(raw, dict) or type(raw.get("started")) is not int \
                or raw["started"] < 1:
            raise ArenaExportError(f'game {index}: "started" must be a whole number from 1')
        started = raw["started"]
        if started in seen:
            raise ArenaExportError(f"two games share started {started}")
        seen.add(started)
        results.append(_game(started, raw.get("record"), table, fish, names))
    return players, results


def _players(raw: object) -> list[tuple[str, int]]:
    if not isinstance(raw, list):
        raise ArenaExportError('"players" must be a list')
    players, names, joined = [], set(), set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) \
                or not entry["name"] or type(entry.get("joined")) is not int \
                or entry["joined"] < 1:
            raise ArenaExportError('each of "players" must be {"name": a name, '
                                   '"joined": a whole number from 1}')
        name, order = entry["name"], entry["joined"]
        if name in names:
            raise ArenaExportError(f'"players" lists {name!r} twice')
        if order in joined:
            raise ArenaExportError(f"two players share joined {order}")
        names.add(name)
        joined.add(order)
        players.append((name, order))
    return players


def _game(started: int, raw: object, table, fish: str, names: set) -> GameResult:
    where = f"game {started}"
    try:
        record = read_record(raw)
        state = replay(record).state
    except InvalidRecord as error:
        raise ArenaExportError(f"{where}: invalid record: {error}") from None
    for name in record.players:
        if name not in names:
            raise ArenaExportError(f"{where}: {name!r} is not among the arena's players")
    if len(set(record.players)) != len(record.players):
        raise ArenaExportError(f"{where}: the record names a player twice")
    seats = 4 if table == "pairs" else table
    if len(record.players) != seats or record.pairs != (table == "pairs"):
        raise ArenaExportError(f"{where}: its players do not fit the arena's table ({table})")
    if record.fish != fish:
        raise ArenaExportError(f"{where}: its fish rule is not the arena's ({fish})")
    if state.phase not in (FINISHED, INTERRUPTED):
        raise ArenaExportError(f"{where} has not ended")
    return result_of(started, record.players, state, record.pairs)


def standings_of(data: object) -> list[Standing]:
    players, games = read(data)
    return standings(players, games)


def standings_of_text(text: str | bytes) -> dict:
    """What ``manage.py arena`` prints for one export: ``{"standings": [...]}`` in rank
    order, or ``{"error": ...}``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        return {"error": f"not JSON: {str(error)[:80]}"}
    try:
        return {"standings": [s.as_json() for s in standings_of(data)]}
    except ArenaExportError as error:
        return {"error": str(error)}
