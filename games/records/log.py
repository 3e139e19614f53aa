"""A match's move log as the rules service's game record (RECORD.md), and replayed.

The log is the source of truth: replaying it must give the snapshot on the match row.
"""

from __future__ import annotations

from games import rules
from games.models import Match, MoveKind
from games.records.fair import fair_block


def _action(payload: dict) -> rules.Action:
    return rules.action_from_json({k: v for k, v in payload.items() if k != "auto"})


def replay_log(match: Match, version: int | None = None):
    """Yield ``(move, state_before, state_after, events)`` for each move of the log, up to
    ``version``: the one place where the log is played through the rules."""
    moves = match.moves.order_by("number")
    if version is not None:
        moves = moves.filter(number__lte=version)
    state = rules.new_game(match.variant)
    for move in moves:
        before, events = state, []
        if move.kind == MoveKind.DEAL:
            state, events = rules.start_round(
                state, rules.deal_from_json(move.payload, match.seats_count))
        elif move.kind in (MoveKind.PLAY, MoveKind.DRAW, MoveKind.KNOCK):
            state, events = rules.apply(state, _action(move.payload))
        elif move.kind in (MoveKind.TIMEOUT, MoveKind.LEAVE):
            state, events = rules.interrupt(state, move.payload["seat"], move.payload["reason"])
        yield move, before, state, events


def replay_states(match: Match, version: int | None = None):
    """Yield ``(version, state)`` after each move of the log, up to ``version``."""
    for move, _before, state, _events in replay_log(match, version):
        yield move.number, state


def state_after(match: Match, version: int | None = None) -> rules.GameState:
    """The state after the first ``version`` moves of the log (all of them by default)."""
    state = rules.new_game(match.variant)
    for _version, state in replay_states(match, version):
        pass
    return state


def record_of(match: Match) -> rules.Record:
    """The game record of a match: its players, deals, every action and any interrupt,
    and its ``fair`` block once the game is over."""
    seats = {s.number: s.kept_name for s in match.seats.select_related("user")}
    variant = match.variant
    record = rules.Record([seats[n] for n in range(match.seats_count)], variant.fish,
                          match.turn_seconds, pairs=variant.pairs, variant=variant.name)
    record.fair = fair_block(match)
    for move in match.moves.order_by("number"):
        if move.kind == MoveKind.DEAL:
            record.rounds.append(rules.RecordRound(
                rules.deal_from_json(move.payload, match.seats_count)))
        elif move.kind in (MoveKind.PLAY, MoveKind.DRAW, MoveKind.KNOCK):
            record.rounds[-1].moves.append(_action(move.payload))
        elif move.kind in (MoveKind.TIMEOUT, MoveKind.LEAVE):
            record.interrupt = (move.payload["seat"], move.payload["reason"])
    return record
