"""Play a game record (RECORD.md) through games.play.service, as people at a real table would.

Each round of the record is dealt from its own deal (``services.deal_round``), where the
clock would deal a random one when the pause ends.  Every action then goes
through ``services.act`` exactly as a browser's would; the knocks of the record are the
ones the services make by themselves (a knock is only ever forced), so they are checked,
not sent.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.utils import timezone

from games import rules
from games.play import service as services
from games.models import Match, MatchStatus, MoveKind, Seat

RECORDS = Path(__file__).parent / "records"


def load(name: str) -> rules.Record:
    return rules.loads_record((RECORDS / f"{name}.json").read_text())


def seat_table(users, record: rules.Record, rated: bool = True) -> Match:
    """A running match with ``users`` seated in order, as a full request becomes."""
    # A record need not give its time per turn (RECORD.md): the table's default then.
    timing = {} if record.turn_seconds is None else {"turn_seconds": record.turn_seconds}
    match = Match.objects.create(seats_count=len(users), fish=record.fish, **timing, rated=rated,
                                 status=MatchStatus.PLAYING, started_at=timezone.now(),
                                 created_by=users[0])
    for number, user in enumerate(users):
        Seat.objects.create(match=match, number=number, user=user)
    return match


def deal(match: Match, the_deal: rules.Deal) -> None:
    match.refresh_from_db()
    assert match.state is None or match.state["phase"] == rules.DEAL, \
        "a round is dealt only when the last one is over"
    services.deal_round(match.pk, the_deal)
    match.refresh_from_db()


def play_round(match: Match, users, moves) -> None:
    for action in moves:
        match.refresh_from_db()
        state = rules.GameState.from_json(match.state)
        if action.kind == rules.KNOCK:
            # Made by the services already: the same knock must be in the log.
            assert match.moves.filter(kind=MoveKind.KNOCK, seat=action.seat).exists()
            continue
        assert state.turn == action.seat, (action, state)
        message = {k: v for k, v in action.to_json().items() if k != "seat"}
        services.act(match.pk, users[action.seat], message, match.version)
    match.refresh_from_db()


def play(match: Match, users, record: rules.Record, rounds: int | None = None) -> Match:
    """Deal and play the record's rounds (all, or the first ``rounds``) through the services."""
    for number, rnd in enumerate(record.rounds[:rounds], 1):
        deal(match, rnd.deal)
        play_round(match, users, rnd.moves)
    match.refresh_from_db()
    return match


def record_json(match: Match) -> dict:
    from games.records.log import record_of

    return json.loads(record_of(match).dumps())
