"""Which game room a person has already been in, kept in their session.

The lobby takes a player to a table that has just started (games.lobby.listing); once
they have been in its room, going to the lobby is their choice, and it must not take
them back.
"""

SESSION_KEY = "games.room_entered"


def note_entered(session, match_id: int) -> None:
    if session.get(SESSION_KEY) != match_id:
        session[SESSION_KEY] = match_id


def entered(session) -> int | None:
    """The match whose room this session was last in, if any."""
    return session.get(SESSION_KEY) if session is not None else None
