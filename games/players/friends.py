"""The friends list: the players one follows, who of them is online
now (accounts.presence, or seated at a game being played) and at which table -- a link to
watch a public game, a seat to take at a public request with room -- and nothing of a
private table the viewer may not see: such a friend only "plays" or "sits at a table".
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts import friends, presence
from accounts.models import User
from games.lobby.tables import current_match
from games.models import Match, MatchStatus


@dataclass
class FriendRow:
    person: User
    online: bool
    match: Match | None = None  # the table the viewer may see (None: none, or hidden)
    hidden_table: bool = False  # at a table the viewer may not see
    playing: bool = False       # that table's game is on (else it waits for players)
    free_seats: int = 0

    @property
    def can_join(self) -> bool:
        return self.match is not None and not self.playing and self.free_seats > 0


def friend_rows(viewer) -> list[FriendRow]:
    """The viewer's friends: online ones first, then by name."""
    ids = friends.followed_ids(viewer)
    people = {user.pk: user for user in User.objects.filter(pk__in=ids, is_active=True)}
    seen = presence.online_ids(people)
    rows = []
    for pk in ids:
        person = people.get(pk)
        if person is None:
            continue
        row = FriendRow(person=person, online=pk in seen)
        match = current_match(person)
        if match is not None:
            row.playing = match.status == MatchStatus.PLAYING
            row.online = row.online or row.playing
            seats = list(match.seats.values_list("user_id", "number"))  # bots: user None
            mine = next((number for user_id, number in seats if user_id == viewer.pk), None)
            if match.hidden_from(viewer, mine):
                row.hidden_table = True
            else:
                row.match = match
                if mine is None:  # no seat to offer at one's own table
                    row.free_seats = match.seats_count - len(seats)
        rows.append(row)
    rows.sort(key=lambda row: (not row.online, row.person.username.casefold()))
    return rows
