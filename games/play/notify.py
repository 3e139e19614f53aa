"""What a running game tells the sockets once a change is committed (games/live/notices.py
sends it): a match's new version, a new deadline, the lobby's list, a full table.

Messages carry versions and public events only, never a hand: each process's sockets
load the match once and each renders its own seat's view (DESIGN.md, a change end to
end, step 5).
"""

from games.live.notices import (Notice, after_commit, collected, notice,  # noqa: F401
                                send_collected)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def match_changed(match_id: int, version: int, events: list[dict], committed=None) -> None:
    """Tell the match's group it is at ``version``, and what happened (never a hand)."""
    after_commit(match_group(match_id), {"type": "match.changed", "match": match_id,
                                         "version": version, "events": public_events(events)},
                 committed)
    if any(event.get("type") == "round_started" for event in events):
        lobby_changed()  # the lobby lists the games being played with their round


def match_retimed(match_id: int, version: int) -> None:
    """Tell the match's group its turn was given a new deadline at the same ``version``
    (after the site's downtime, RULES.md 9): the rooms show the new countdown."""
    after_commit(match_group(match_id), {"type": "match.retimed", "match": match_id,
                                         "version": version})


def public_events(events: list[dict]) -> list[dict]:
    """The events as the match's group hears them: a round's end without the hands left
    in play (the rooms show those from the match's state)."""
    return [{k: v for k, v in e.items() if k != "hands"} for e in events]


def lobby_changed() -> None:
    after_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def go_to_match(user_ids, match_id: int) -> None:
    """Take these users' open lobby pages to the game room (their table is full)."""
    for user_id in user_ids:
        after_commit(user_group(user_id), {"type": "lobby.start", "match_id": match_id})
