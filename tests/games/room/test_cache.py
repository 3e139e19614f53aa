"""games/room/cache.py: what a process shows after its own change without reading it back,
and a load that keeps what cannot have changed since the previous version, are what a
load from nothing gives, at every version of whole games."""

import asyncio
import re
import time

import pytest

from games import rules
from games.room import cache as snapshots
from games.play import notify, service as services
from games.lobby import service as requests
from games.models import MatchStatus

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db


def without_now(frame: str) -> str:
    """The frame without the server's clock reading, taken afresh at every render."""
    return re.sub(r' data-now="\d+"', "", frame)


def test_a_primed_snapshot_is_the_loaded_one_through_rounds_and_deals(
        make_user, django_capture_on_commit_callbacks):
    people = [make_user(f"снимок{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3, fish="one")
    for person in people[1:]:
        requests.join_request(person, match.pk)
    kept = snapshots.Snapshots()
    kept.watch(match.pk)
    kept.fresh_sync = lambda: kept._keep(match.pk, snapshots.load(match.pk))
    kept.fresh_sync()
    changes = primed = compared = round_ends = 0
    for _step in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = state_of(match)
        with notify.collected() as notices, django_capture_on_commit_callbacks(execute=True):
            if state.phase != rules.PLAYING:
                services.run_due(match.pk, now=match.deadline)  # the next deal
            else:
                services.act(match.pk, people[state.turn], human_move(match, state.turn),
                             match.version)
        changes += 1
        before = kept.latest[match.pk].version
        kept.prime(notices)
        snapshot = kept.latest[match.pk]
        if snapshot.version == before:  # not primed: the game ended, or it could not be
            kept.fresh_sync()
            continue
        primed += 1
        round_ends += any(e["type"] == "round_ended" for n in notices
                          for e in n.message.get("events", ()))  # the lobby's notices have none
        loaded = snapshots.load(match.pk)
        assert snapshot.version == loaded.version
        assert snapshot.rounds == loaded.rounds
        assert [s.pk for s in snapshot.seats] == [s.pk for s in loaded.seats]
        assert snapshot.state.to_json() == loaded.state.to_json()
        for seat in (0, 1, 2, None):
            for language in ("ru", "en"):
                assert without_now(snapshots.render(snapshot, seat, language)) == \
                    without_now(snapshots.render(loaded, seat, language))
                assert snapshots.score_table(snapshot, language) == \
                    snapshots.score_table(loaded, language)
        compared += 1
    assert match.status == MatchStatus.FINISHED
    # Every change but the last (the game's end, read afresh) was primed, round ends and
    # deals included.
    assert compared == primed == changes - 1 and round_ends >= 1


def test_a_load_after_another_process_changed_the_match_reads_only_what_can_have_changed(
        make_user, django_assert_num_queries):
    """Every version of a whole game loaded from the snapshot before it (as a process
    whose rooms are told of another process's change: a move, the clock's deal) is what
    a load from nothing gives; and while the game is played with no round ending, that
    load reads the match row alone -- not the seats, nor the round rows."""
    people = [make_user(f"загрузка{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    previous, deals, compared = snapshots.load(match.pk), 0, 0
    for _step in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = state_of(match)
        if state.phase != rules.PLAYING:
            services.run_due(match.pk, now=match.deadline)  # the next deal
            deals += 1
        else:
            services.act(match.pk, people[state.turn], human_move(match, state.turn),
                         match.version)
        match.refresh_from_db()
        round_ended = len(previous.rounds) != snapshots.rounds_ended(state_of(match)) * 3
        if match.status == MatchStatus.PLAYING and not round_ended:
            with django_assert_num_queries(1):  # the match row
                following = snapshots.load(match.pk, previous)
        else:
            following = snapshots.load(match.pk, previous)
        loaded = snapshots.load(match.pk)
        assert following.rounds == loaded.rounds
        assert [s.pk for s in following.seats] == [s.pk for s in loaded.seats]
        assert following.state.to_json() == loaded.state.to_json()
        for seat in (0, 1, 2, None):
            assert without_now(snapshots.render(following, seat, "ru")) == \
                without_now(snapshots.render(loaded, seat, "ru"))
        assert snapshots.score_table(following, "ru") == snapshots.score_table(loaded, "ru")
        previous, compared = following, compared + 1
    assert match.status == MatchStatus.FINISHED and deals >= 2 and compared > 20


def test_a_versions_table_is_rendered_once_and_kept_for_all_its_viewers(make_user):
    people = [make_user(f"однажды{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    snapshot = snapshots.load(match.pk)
    frames = [without_now(snapshots.render(snapshot, seat, "ru"))
              for seat in (0, 1, 2, None, None)]
    tables = {frame[frame.index('<div id="table"'):] for frame in frames}
    assert len(tables) == 1
    # Kept on the snapshot: the table once per language, a spectator's part once.
    kept = snapshot.tables["ru"]
    snapshots.render(snapshot, 1, "ru")
    assert snapshot.tables["ru"] is kept
    assert sorted(map(str, snapshot.tables)) == ["('ru', None)", "ru"]
    assert frames[3] == frames[4]
    # A frame is markup that more markup is added to (the consumer adds the score table
    # and the offer of one more game): never a string that escapes what is added.
    assert all((frame + "<b>").endswith("<b>") for frame in frames)
    snapshots.render(snapshot, 0, "en")
    assert sorted(map(str, snapshot.tables)) == ["('ru', None)", "en", "ru"]


def test_the_tables_clock_is_read_as_the_frame_leaves_not_as_it_was_rendered(make_user):
    """A page sets its countdown by the table's data-now: a frame sent late (a busy
    server, a notice answered from a kept snapshot) still carries the server's clock."""
    people = [make_user(f"часы{n}") for n in range(2)]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    snapshot = snapshots.load(match.pk)

    def clock_in(frame: str) -> int:
        return int(re.search(r'<div id="table"[^>]* data-now="(\d+)"', frame).group(1))

    first = snapshots.render(snapshot, 0, "ru")
    time.sleep(0.05)
    before = int(time.time() * 1000)
    later = snapshots.render(snapshot, 0, "ru")
    after = int(time.time() * 1000)
    assert clock_in(later) - clock_in(first) >= 50
    assert before <= clock_in(later) <= after
    assert len(re.findall(r"data-now=", later)) == len(re.findall(r"data-now=", first))
    assert without_now(later) == without_now(first)


def test_a_notice_answered_late_is_answered_from_the_kept_snapshot(make_user):
    """However long a notice waited (a busy server), a snapshot as new as it answers it:
    a load for every late notice would make a slow server slower still."""
    people = [make_user(f"поздно{n}") for n in range(2)]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    kept = snapshots.Snapshots()
    kept.watch(match.pk)
    kept._keep(match.pk, snapshots.load(match.pk))
    snapshot = kept.latest[match.pk]
    snapshot.loaded -= 60  # kept a minute ago

    async def answer():
        return await kept.at_least(match.pk, snapshot.version)

    assert asyncio.run(answer()) is snapshot
