"""The replay viewer's data: a match's move log, stepped through with every hand shown.

Only for a game that is over (the views check): then nothing is secret any more, so the
whole state is shown — every hand, the bazaar in draw order — which ``view_for`` never
shows while a game runs.  Step ``n`` is the state after the log's first ``n`` moves,
replayed through the rules service as ``games.records.log.state_after`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import rules
from games.models import Match, MoveKind
from games.room.present import (announce, shared_number, tile_halves, unit_names, units,
                                writing_of, writing_summary)
from games.room.words import writing_note
from games.rules.scoring import round_units
from games.records.log import replay_log


@dataclass
class Step:
    number: int            # moves applied so far (0: before the first deal)
    total: int             # moves in the log
    state: rules.GameState
    said: list[str] = field(default_factory=list)  # what this step's move did, in words
    played: str | None = None                      # the tile just played or drawn
    played_tiles: list[str] = field(default_factory=list)  # it, or two doubles at once
    seat: int | None = None                        # who moved


def _name(names, seat):
    return names.get(seat, "?")


def _describe(move, names, before: rules.GameState, after: rules.GameState, events) -> tuple[list[str], str | None]:
    who = _name(names, move.seat)
    said, tile = [], None
    if move.kind == MoveKind.DEAL:
        said.append(_("Round %(number)s is dealt.") % {"number": after.round})
    elif move.kind == MoveKind.PLAY and isinstance(move.payload["play"], list):
        first, second = move.payload["play"]  # two doubles at once (sea goat)
        tile = first
        said.append(_("%(name)s plays %(first)s and %(second)s at once.") % {
            "name": who, "first": first, "second": second})
    elif move.kind == MoveKind.PLAY:
        tile = move.payload["play"]
        end = move.payload.get("end")
        if not before.chain and after.hundred == move.seat:
            said.append(_("%(name)s leads %(tile)s for a hundred.") % {"name": who, "tile": tile})
        elif not before.chain:
            said.append(_("%(name)s leads %(tile)s.") % {"name": who, "tile": tile})
        elif end in ("left", "right"):
            # The end named by the value it showed, as in the room's log.
            said.append(_("%(name)s plays %(tile)s on the %(value)s.") % {
                "name": who, "tile": tile, "value": before.left if end == "left" else before.right})
        else:
            said.append(_("%(name)s plays %(tile)s.") % {"name": who, "tile": tile})
    elif move.kind == MoveKind.DRAW:
        new = after.hands[move.seat] & ~before.hands[move.seat]
        tile = rules.TILES[new.bit_length() - 1].name if new else None
        said.append(_("%(name)s draws %(tile)s from the bazaar.") % {"name": who, "tile": tile or "?"})
    if move.kind == MoveKind.KNOCK and move.payload.get("auto"):  # made by the server
        events = [dict(e, auto=True) if e["type"] == "knocked" else e for e in events]
    if move.kind == MoveKind.ABORT:
        events = [{"type": "aborted"}]
    said += announce(events, {n: _name(names, n) for n in range(after.seats)})
    return said, tile


def step(match: Match, number: int, names: dict) -> Step:
    """The state after ``number`` moves of the log (clamped to 0..all), described."""
    total = match.moves.count()
    number = max(0, min(number, total))
    state = rules.new_game(match.variant)
    result = Step(number, total, state)
    for move, before, state, events in replay_log(match, number):
        if move.number == number:
            result.said, result.played = _describe(move, names, before, state, events)
            result.seat = move.seat
            played = move.payload.get("play") if move.kind == MoveKind.PLAY else result.played
            result.played_tiles = list(played) if isinstance(played, list) else [played]
    result.state = state
    return result


def table_of(step: Step, names: dict, bots: set) -> dict:
    """Template context for one step: every hand, the chain, the bazaar, the scores.

    As in the room, players who score together (a pair, RULES.md 11) are marked with
    their unit, whose one score is given once, in ``shared_units``, rather than on both
    partners' lines."""
    state = step.state
    variant = state.variant
    players = [{
        "number": n, "name": _name(names, n), "bot": n in bots,
        "hand": [tile_halves(t.name) + (t.name,) for t in state.hand(n)],
        "score": state.scores[n], "remembered": state.remembered[n], "opened": state.opened[n],
        "turn": state.phase == rules.PLAYING and state.turn == n, "moved": step.seat == n,
        "goat": n in state.goats,
        "unit": shared_number(variant, n),
        # Sea goat (RULES.md 13): who is writing, and the winners.
        "writing": state.writing is not None and variant.unit_of(n) == state.writing,
        "winner": n in state.winners,
    } for n in range(state.seats)]
    tallies = {"scores": state.scores, "remembered": state.remembered,
               "opened": state.opened, "goats": state.goats}
    return {
        "players": players,
        "shared_units": [unit for unit in units(variant, tallies, names) if unit["shared"]],
        "phase": state.phase, "round": state.round, "bank": state.bank,
        "chain": [{"halves": (a, b), "name": f"{min(a, b)}-{max(a, b)}"} for a, b in state.chain],
        "bazaar": [tile_halves(rules.TILES[i].name) + (rules.TILES[i].name,) for i in state.bazaar],
        "summary": _summary(state, names),
        "writing": writing_of(variant, {"writing": state.writing, "scores": state.scores},
                              names),
        "has_writing": variant.has_writing,
    }


def _summary(state: rules.GameState, names: dict) -> dict | None:
    """The last round's scoring, between rounds and at the end."""
    last = state.last_round
    if state.phase == rules.PLAYING or not last:
        return None
    if state.variant.has_writing:  # sea goat: what was written, in the room's words
        summary = writing_summary(state.variant, {"last_round": last, "seats": state.seats},
                                  names)
        return dict(summary, name=summary["seat_name"], notes=writing_note(summary))
    scored = round_units(state.variant, last)
    shared = [dict(unit, number=number + 1, names=unit_names(names, unit["seats"]))
              for number, unit in enumerate(scored) if len(unit["seats"]) > 1]
    return {"result": last["result"], "name": _name(names, last["seat"]), "bank": last["bank"],
            # Players who score together are credited together: a player's line then
            # gives their points only.
            "rows": [{"name": _name(names, n), "points": last["points"][n],
                      "credited": None if shared else last["credited"][n]}
                     for n in range(state.seats)],
            "shared_units": shared}
