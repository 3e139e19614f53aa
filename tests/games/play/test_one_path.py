"""DESIGN.md, a change end to end: games/play/store.py is the only code that writes a
running game -- its Match row, its moves, its score rows.

Every statement that writes those tables is watched while games go through every kind
of change: a request made, left and filled, moves, the clock's timeout, its next deal and
a bot's move, the time given again after an outage, leaving, one more game accepted and
declined, a moderator's abort, a closed account.  A write from anywhere else may touch
only tables that are still waiting (a request, or the table of an offer of one more game),
never a running or ended game, nor any game's moves or score rows.
"""

import re
import traceback
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone

from accounts.models import User
from accounts.moderators import GROUP_NAME
from games import rules
from games.lobby import rematch, service as requests
from games.models import Match, MatchStatus, Rematch
from games.moderation import service as moderation
from games.play import service as services

from ..conftest import human_move, play_first_round, state_of

pytestmark = pytest.mark.django_db

GAME_TABLES = ("games_match", "games_move", "games_roundscore")
WRITE = re.compile(r'^\s*(INSERT INTO|UPDATE|DELETE FROM) "(%s)"' % "|".join(GAME_TABLES))
STORE = "games/play/store.py"


def _from_store() -> bool:
    return any(frame.filename.replace("\\", "/").endswith(STORE)
               for frame in traceback.extract_stack())


def _match_ids(sql: str, params, table: str) -> list | None:
    """The matches a statement's WHERE names, by id, or None if it names none that way."""
    column = '"games_match"."id"' if table == "games_match" else f'"{table}"."match_id"'
    found = re.search(re.escape(column) + r" (= %s|IN \((?:%s(?:, )?)+\))", sql)
    if found is None:
        return None
    first = sql[:found.start()].count("%s")
    return list(params[first:first + found.group(1).count("%s")])


class GameWrites:
    """An execute wrapper that sorts the writes of the game tables: by the store, or from
    elsewhere -- and of these, the ones that touch a game that is not waiting."""

    def __init__(self) -> None:
        self.by_store = 0
        self.elsewhere = []   # (statement, what it touched), allowed: waiting tables only
        self.wrong = []       # (statement, why): a running or ended game written elsewhere
        self._looking = False

    def __call__(self, execute, sql, params, many, context):
        write = None if self._looking else WRITE.match(sql)
        if write is not None:
            if _from_store():
                self.by_store += 1
            else:
                self._judge(write.group(1), write.group(2), sql, params)
        return execute(sql, params, many, context)

    def _judge(self, verb: str, table: str, sql: str, params) -> None:
        statement = sql[:120]
        if verb == "INSERT INTO":
            if table != "games_match":
                self.wrong.append((statement, "a move or score row written outside the store"))
                return
            columns = re.search(r"\(([^)]*)\) VALUES", sql).group(1).split(", ")
            statuses = set(params[columns.index('"status"')::len(columns)])
        else:
            ids = _match_ids(sql, params, table)
            if ids is None:
                self.wrong.append((statement, "a write of the game tables by no match id"))
                return
            if verb == "UPDATE" and table != "games_match":
                self.wrong.append((statement, "a move or score row changed outside the store"))
                return
            statuses = set(self._statuses(ids))
        if statuses - {MatchStatus.WAITING}:
            self.wrong.append((statement, f"a game that is {sorted(statuses)} written"))
        else:
            self.elsewhere.append((statement, sorted(statuses)))

    def _statuses(self, ids) -> list[str]:
        self._looking = True
        try:
            return list(Match.objects.filter(pk__in=ids).values_list("status", flat=True))
        finally:
            self._looking = False


@pytest.fixture
def game_writes():
    watch = GameWrites()
    with connection.execute_wrapper(watch):
        yield watch


def moderator(make_user) -> User:
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    return User.objects.get(pk=person.pk)


def later(days: int = 1):
    return timezone.now() + timedelta(days=days)


def test_only_the_store_writes_a_running_games_rows(make_user, game_writes):
    masha, alex, olya, serg = (make_user(n) for n in ("masha", "alex", "olya", "serg"))
    boss = moderator(make_user)

    # A request made and left (it disappears), made again and filled: the first deal.
    first = requests.create_request(masha, players=2, turn_seconds=10)
    requests.leave_request(masha, first.pk)
    game = requests.create_request(masha, players=2, turn_seconds=10)
    requests.join_request(alex, game.pk)
    game.refresh_from_db()
    people = {0: masha, 1: alex}
    for _ in range(2):  # two moves of people
        state = state_of(game)
        services.act(game.pk, people[state.turn], human_move(game, state.turn), game.version)
    # The clock times the next one out (round 1: aborted) and one more game is offered;
    # both accept, and the offer's table starts.
    assert services.run_due(game.pk, now=later())
    rematch.accept(game.pk, masha)
    rematch.accept(game.pk, alex)
    again = Rematch.objects.get(game=game).table
    assert again.status == MatchStatus.PLAYING
    people = {s.number: s.user for s in again.seats.all()}
    play_first_round(again, people)
    assert services.run_due(again.pk, now=later())  # the clock deals round 2
    assert services.give_time_again(later(2)) >= 1  # after an outage of every clock
    services.leave_game(again.pk, alex)  # leaving: the game ends, and one more game is
    offer = Rematch.objects.get(game=again)  # offered withdrawn in alex's name (issue 42)
    assert (offer.status, offer.reason, offer.withdrawn_by, offer.table) == (
        "withdrawn", "left", alex, None)

    # A table of bots: the clock plays a bot, and a moderator aborts the game.
    bots = requests.play_with_bots(olya, 3)
    for _ in range(3):  # olya (seat 0) plays when it is her turn, the clock plays the bots
        state = state_of(bots)  # (a draw keeps her turn; between rounds the clock deals)
        while state.phase == rules.PLAYING and state.turn == 0:
            services.act(bots.pk, olya, human_move(bots, 0), bots.version)
            state = state_of(bots)
        assert services.run_due(bots.pk, now=later())
    moderation.abort_game(bots.pk, boss, "a test of the one path")
    # A closed account leaves its request (and the running game of another).
    waiting = requests.create_request(serg, players=3)
    moderation.deactivate_player(serg, boss, "a test of the one path")
    assert not Match.objects.filter(pk=waiting.pk).exists()

    assert game_writes.wrong == []
    assert game_writes.by_store > 20 and len(game_writes.elsewhere) >= 4  # seen, both kinds


def test_a_running_games_row_written_from_elsewhere_is_seen(make_user, game_writes):
    game = requests.create_request(make_user("masha"), players=2)
    requests.join_request(make_user("alex"), game.pk)
    Match.objects.filter(pk=game.pk).update(deadline=later())
    game.moves.create(number=2, seat=0, kind="knock")
    assert [why for _statement, why in game_writes.wrong] == [
        "a game that is ['playing'] written", "a move or score row written outside the store"]
