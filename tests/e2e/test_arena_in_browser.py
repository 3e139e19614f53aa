"""An arena in real browsers (issue 40, point 7): six people join an arena of 3-player
tables; the server's clock seats them, each page shows its table's commitment, gives its
browser's client seed and goes to its game; one person pauses and comes back; the games'
ends change the standings live on a watcher's page, and the podium shows at the end.

The games themselves are played through the services from the test process (the rooms
are tested on their own); the pages learn of what it changed from their heartbeats."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules
from games.arena.results import arena_standings
from games.models import Arena, ArenaGame, ArenaPlayer, Match, MatchStatus
from games.play import service as services
from tests.daphne_server import DaphneServer, live_server_env

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEEDED = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def daphne_server(transactional_db, tmp_path):
    # No scheduled arenas of the site's own in the way; a table is seated a second after
    # three wait.
    server = DaphneServer(env=live_server_env(KOZEL_ARENA_SCHEDULE="[]",
                                              KOZEL_ARENA_GATHER="1"), log_dir=tmp_path)
    server.start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def a_round_then_leave(match: Match, leaver_seat: int = 0) -> None:
    """Play the first round to its end through the services, then seat ``leaver_seat``
    leaves: the game ends interrupted, with arena points for the others."""
    users = {s.number: s.user for s in match.seats.select_related("user")}
    player = rules.RandomPlayer(match.pk)
    while True:
        match.refresh_from_db()
        state = rules.GameState.from_json(match.state)
        if state.phase != rules.PLAYING:
            break
        action = player.choose(rules.view_for(state, state.turn)).to_json()
        del action["seat"]
        services.act(match.pk, users[state.turn], action, match.version)
    services.leave_game(match.pk, users[leaver_seat])


def table_of(user) -> Match:
    return Match.objects.get(seats__user=user, status=MatchStatus.PLAYING)


def test_six_people_play_an_arena_and_a_watcher_sees_it_live(people, daphne_server, make_user,
                                                            tmp_path):
    users = [make_user(name) for name in ("masha", "alex", "olya", "serg", "vera", "oleg")]
    start = timezone.now() - timedelta(seconds=5)
    arena = Arena.objects.create(name="Арена в браузере", starts_at=start,
                                 ends_at=start + timedelta(minutes=30), seats_count=3,
                                 fish="all", turn_seconds=60, rated=True)
    url = f"/arenas/{arena.pk}/"
    watcher = people("watcher", phone=True)
    watcher.page.goto(url)
    persons = {}
    for n, user in enumerate(users):
        person = people(user.username, phone=n % 2 == 0)
        person.log_in_as(user, daphne_server)
        person.page.goto(url)
        person.page.locator('[data-testid="arena-join"]').click()
        persons[user.username] = person
    watcher.page.locator('[data-player="oleg"]').wait_for()

    # Seated: every page goes to its game, which started from each browser's own seed.
    for name, person in persons.items():
        person.page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
    tables = {table_of(u).pk for u in users}
    assert len(tables) == 2
    for match in Match.objects.filter(pk__in=tables):
        assert all(SEEDED.fullmatch(seed) for seed in match.client_seeds)
    watcher.page.locator('[data-testid="arena-tables"] li').nth(1).wait_for()
    watcher.page.screenshot(path=str(tmp_path / "watcher-tables.png"), full_page=True)

    # masha pauses while her game is played: she is not seated again once it ends.  (The
    # arena's page takes a player to a game that has just started: she opens it later.)
    masha = persons["masha"]
    started = table_of(users[0]).started_at
    time.sleep(max(0.0, (started + timedelta(seconds=7) - timezone.now()).total_seconds()))
    masha.page.goto(url)
    masha.page.locator('[data-testid="arena-pause"]').click()
    first = table_of(users[0])
    a_round_then_leave(first, leaver_seat=next(s.number for s in first.seats.all()
                                               if s.user_id != users[0].pk))
    # The watcher's standings change live: points for the game's players.
    watcher.page.locator('[data-testid="arena-standings"] td.points:not([data-points="0"])') \
        .first.wait_for(timeout=15_000)
    masha.page.locator('[data-state="paused"]').wait_for()
    assert ArenaPlayer.objects.get(arena=arena, user=users[0]).paused
    masha.page.screenshot(path=str(tmp_path / "paused-phone.png"), full_page=True)
    # Her companions go back to the arena from their game by themselves.
    companion = next(persons[s.user.username] for s in first.seats.select_related("user")
                     if s.user_id != users[0].pk)
    companion.page.wait_for_url(re.compile(r"/arenas/\d+/$"), timeout=15_000)

    # She comes back: the three of that table wait, and are seated again together.
    masha.page.locator('[data-testid="arena-back"]').click()
    # (Seated once her two companions are back on the arena's page, or their seeds' time
    # is up: RULES.md 12's 10 seconds.)
    masha.page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=45_000)
    again = table_of(users[0])
    assert again.pk not in tables

    # Time is up: the games still being played count when they end; then the podium.
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    for match in Match.objects.filter(arena_game__arena=arena, status=MatchStatus.PLAYING):
        a_round_then_leave(match)
    watcher.page.locator('[data-testid="arena-podium"] li').nth(2).wait_for(timeout=15_000)
    arena.refresh_from_db()
    assert arena.over_at is not None
    shown = watcher.page.locator('[data-testid="arena-podium"] .name').all_inner_texts()
    names = {u.pk: u.username for u in users}
    assert shown == [names[s.player] for s in arena_standings(arena)[:3]]
    watcher.page.screenshot(path=str(tmp_path / "podium-phone.png"), full_page=True)
    assert watcher.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert [e for p in [watcher, *persons.values()] for e in p.errors] == []
