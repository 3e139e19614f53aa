"""A game's verifiable deal as it may be shown (RECORD.md, kozel-fair/1).

The commitment is public from the game request on; the server seed only once the game
is over (finished, interrupted, aborted, stopped by a moderator): before that it would
tell every hand and the bazaar.  Every page and record that shows the seed takes it from
here.
"""

from __future__ import annotations

from games.models import Match
from games.play.seeds import revealed


def fair_block(match: Match) -> dict | None:
    """The record's ``fair`` block of a game that is over; None while it waits or runs,
    and for a match made before seeds existed (games.play.seeds.revealed)."""
    return revealed(match)
