"""games/play/store.py: a change of a game is written whole, and only on the version it
was computed from (a compare-and-swap on Match.version)."""

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import rules
from games.models import Match, MatchStatus, Move, RoundScore
from games.play import finish, store
from ratings.models import RatingRecord

from ..conftest import a_game, play_first_round, state_of

pytestmark = pytest.mark.django_db


def a_play(match):
    """The change of the seat to move's first legal action, computed from ``match``."""
    state = state_of(match)
    action = rules.legal_actions(state)[0]
    after, events, knocks = rules.apply_turn(state, action)
    moves = [(action.kind, action.seat, action.to_json())]
    moves += [("knock", k.seat, dict(k.to_json(), auto=True)) for k in knocks]
    return store.Change(Match.objects.get(pk=match.pk), after, moves, events), after


def test_a_change_writes_its_moves_and_the_match_at_the_next_version(make_user):
    match, _people = a_game(make_user, 2)
    before = match.version
    change, after = a_play(match)
    assert store.commit(change) == before + len(change.moves)
    match.refresh_from_db()
    assert match.version == before + len(change.moves)
    assert match.state == after.to_json()
    logged = list(Move.objects.filter(match=match, number__gt=before).order_by("number"))
    assert [(m.kind, m.seat, m.payload) for m in logged] == change.moves


def test_a_change_computed_from_an_older_version_writes_nothing(make_user):
    match, _people = a_game(make_user, 2)
    first, _ = a_play(match)
    late, _ = a_play(match)  # computed from the same version as the first
    store.commit(first)
    match.refresh_from_db()
    moved_to = (match.version, match.state, Move.objects.filter(match=match).count())
    with pytest.raises(store.Stale):
        store.commit(late)
    match.refresh_from_db()
    assert (match.version, match.state, Move.objects.filter(match=match).count()) == moved_to


def test_the_compare_and_swap_is_one_update_on_the_version(make_user):
    match, _people = a_game(make_user, 2)
    change, _ = a_play(match)
    with CaptureQueriesContext(connection) as queries:
        store.commit(change)
    updates = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    assert len(updates) == 1 and '"version" =' in updates[0].split("WHERE")[1]
    assert not any("FOR UPDATE" in q["sql"] for q in queries)


def test_a_round_that_ends_writes_its_score_rows_with_its_last_move(make_user):
    match, _people = a_game(make_user, 2)
    for _ in range(200):  # play first actions until a change ends the round
        change, after = a_play(match)
        store.commit(change)
        if any(e["type"] == "round_ended" for e in change.events):
            break
    else:
        pytest.fail("no round ended")
    ended = next(e for e in change.events if e["type"] == "round_ended")
    rows = RoundScore.objects.filter(match=match).order_by("seat")
    assert [(r.round_number, r.points, r.score_after) for r in rows] == [
        (ended["round"], ended["points"][s], ended["scores"][s]) for s in (0, 1)]


def test_a_games_end_is_written_with_its_ratings_or_not_at_all(make_user):
    match, people = a_game(make_user, 2)
    state = play_first_round(match, people)  # a game aborted in round 1 would have no ratings
    over, events = rules.interrupt(state, 0, rules.TIMEOUT)
    current = Match.objects.get(pk=match.pk)
    fields, ending = finish.ending_of(current, over)
    # Rating points for one seat of two: the ratings refuse them, and the whole change
    # with them -- the game is not half ended.
    broken = store.Change(current, over, [("timeout", 0, {"seat": 0, "reason": "timeout"})],
                          events, dict(fields), dataclasses.replace(ending, points=ending.points[:1]))
    with pytest.raises(ValueError):
        store.commit(broken)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and not RatingRecord.objects.exists()
    whole = store.Change(current, over, broken.moves, events, dict(fields), ending)
    store.commit(whole)
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    # RULES.md 9: the one who timed out gets nothing, the other max(1, ...) from the
    # open scores after round 1 (as the ratings compute them, checked in tests/ratings).
    assert sorted(RatingRecord.objects.values_list("points", flat=True)) == sorted(ending.points)
    assert min(ending.points) == 0 and max(ending.points) >= 1


# -- as the game's socket and the clock commit: outside any transaction -------------------

@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_change_is_written_whole_or_not_at_all(make_user):
    """The rooms and the clock commit with no transaction of their own open; on
    PostgreSQL a change that only moves the match on is then one statement."""
    match, _people = a_game(make_user, 2)
    first, after = a_play(match)
    late, _ = a_play(match)  # computed from the same version as the first
    with CaptureQueriesContext(connection) as queries:
        assert store.commit(first) == match.version + len(first.moves)
    if connection.vendor == "postgresql":
        assert len(queries) == 1 and queries[0]["sql"].startswith("WITH changed AS (UPDATE")
    match.refresh_from_db()
    assert match.version == first.version and match.state == after.to_json()
    logged = list(Move.objects.filter(match=match, number__gt=first.match.version)
                  .order_by("number").values_list("kind", "seat", "payload"))
    assert logged == first.moves
    moved_to = (match.version, match.state, Move.objects.filter(match=match).count())
    with pytest.raises(store.Stale):
        store.commit(late)
    match.refresh_from_db()
    assert (match.version, match.state, Move.objects.filter(match=match).count()) == moved_to
