"""games/room/cache.py: what a process shows after its own change without reading it back
is what reading it back gives, at every version of whole games."""

import copy
import re

import pytest

from games import rules
from games.room import cache as snapshots
from games.play import notify, service as services
from games.room.consumer import announce
from games.models import MatchStatus

from ..conftest import a_game, human_move, state_of

pytestmark = pytest.mark.django_db


def without_now(frame: str) -> str:
    """The frame without the server's clock reading, taken afresh at every render."""
    return re.sub(r' data-now="\d+"', "", frame)


def test_a_primed_snapshot_is_the_loaded_one_through_rounds_and_deals(
        make_user, django_capture_on_commit_callbacks):
    people = [make_user(f"снимок{n}") for n in range(3)]
    match = services.create_request(people[0], players=3, fish="one")
    for person in people[1:]:
        services.join_request(person, match.pk)
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
        round_ends += any(e["type"] == "round_ended" for n in notices for e in n.message["events"])
        loaded = snapshots.load(match.pk)
        assert snapshot.version == loaded.version
        assert snapshot.rounds == loaded.rounds
        assert [s.pk for s in snapshot.seats] == [s.pk for s in loaded.seats]
        assert snapshot.state.to_json() == loaded.state.to_json()
        for seat in (0, 1, 2, None):
            for language in ("ru", "en"):
                assert without_now(snapshots.render(snapshot, seat, language, announce)) == \
                    without_now(snapshots.render(loaded, seat, language, announce))
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
    match = services.create_request(people[0], players=3)
    for person in people[1:]:
        services.join_request(person, match.pk)
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
            with django_assert_num_queries(0):  # the match row is read on the driver's cursor
                following = snapshots.load(match.pk, previous)
        else:
            following = snapshots.load(match.pk, previous)
        loaded = snapshots.load(match.pk)
        assert following.rounds == loaded.rounds
        assert [s.pk for s in following.seats] == [s.pk for s in loaded.seats]
        assert following.state.to_json() == loaded.state.to_json()
        for seat in (0, 1, 2, None):
            assert without_now(snapshots.render(following, seat, "ru", announce)) == \
                without_now(snapshots.render(loaded, seat, "ru", announce))
        assert snapshots.score_table(following, "ru") == snapshots.score_table(loaded, "ru")
        previous, compared = following, compared + 1
    assert match.status == MatchStatus.FINISHED and deals >= 2 and compared > 20


def test_frames_prepared_while_a_move_commits_are_the_frames_of_the_committed_version(
        make_user, django_capture_on_commit_callbacks):
    """The game room renders its process's frames of a move while PostgreSQL answers it
    (games.room.consumer.GameConsumer.prepare_frames): at every move of a whole game, each
    seat's and a spectator's prepared frame, in both languages, is what it sends once the
    move has committed, and is the frame rendered from the version read back; a move
    that is not written leaves no snapshot and no frame behind."""
    match, people = a_game(make_user, 4)
    kept = snapshots.Snapshots()
    kept.watch(match.pk)
    kept._keep(match.pk, snapshots.load(match.pk))
    rooms = [(seat, language) for seat in (0, 1, 2, 3, None) for language in ("ru", "en")]
    compared = not_written = 0
    for _step in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = state_of(match)
        if state.phase != rules.PLAYING:
            with django_capture_on_commit_callbacks(execute=True):
                services.run_due(match.pk, now=match.deadline)  # the next deal
            kept._keep(match.pk, snapshots.load(match.pk, kept.latest[match.pk]))
            continue
        shown, prepared = kept.latest[match.pk], []

        def prepare(committing, new_state, round_scores, events):
            snapshot = kept.prepared(committing, new_state, round_scores)
            for seat, language in rooms:
                snapshots.prepare_frame(snapshot, seat, language, announce,
                                        notify.public_events(events))
            prepared.append(snapshot)

        message = human_move(match, state.turn)
        if _step % 7 == 3:  # the room's version is behind: nothing is written
            stale = copy.copy(shown.match)
            stale.version -= 1
            assert services.act_on_known(stale, shown.state, people[state.turn], message,
                                         stale.version, meanwhile=prepare) is None
            # Made while the statement was out (unless the move would end the game: no
            # statement then), and never kept.
            assert kept.latest[match.pk] is shown
            prepared.clear()
            not_written += 1
        with notify.collected() as notices, django_capture_on_commit_callbacks(execute=True):
            moved = services.act_on_known(shown.match, shown.state, people[state.turn],
                                          message, shown.version, meanwhile=prepare)
        if moved is None:  # the game's end: the locked way, read afresh
            assert not prepared  # nothing sent to the database, nothing made
            services.act(match.pk, people[state.turn], message, match.version)
            assert kept.latest[match.pk] is shown
            continue
        kept.prime(notices, prepared[0])
        snapshot = kept.latest[match.pk]
        assert snapshot is prepared[0] and snapshot.version == moved
        loaded = snapshots.load(match.pk)
        events = notices[-1].message["events"]
        for seat, language in rooms:
            made = snapshot.frames[(seat, language)][1]
            sent = snapshots.render(snapshot, seat, language, announce, events)
            assert sent is made  # taken, not rendered again
            assert without_now(sent) == without_now(
                snapshots.render(loaded, seat, language, announce, events))
            assert snapshots.score_table(snapshot, language) == \
                snapshots.score_table(loaded, language)
        assert not snapshot.frames  # each taken once
        compared += 1
    assert match.status == MatchStatus.FINISHED
    assert compared > 20 and not_written > 2


def test_a_prepared_frame_is_taken_only_for_the_events_it_was_made_with(make_user):
    match, _people = a_game(make_user, 2)
    snapshot = snapshots.load(match.pk)
    said = [{"type": "knocked", "seat": 1, "auto": True}]
    snapshots.prepare_frame(snapshot, 0, "en", announce, said)
    made = snapshot.frames[(0, "en")][1]
    assert "knocks" in made
    other = snapshots.render(snapshot, 0, "en", announce, ())  # a catch-up, say: no events
    assert "knocks" not in other and not snapshot.frames
