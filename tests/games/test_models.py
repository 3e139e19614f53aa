"""The data model's rules, enforced by the database (and the move log's append-only guard)."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from games.play import service as services
from games.models import Match, MatchStatus, Move, MoveKind, RoundScore, Seat
from kozel_site.appendonly import AppendOnlyError


def refused():
    """The statement inside must be refused by the database (atomic keeps PostgreSQL usable)."""

    class Refused:
        def __enter__(self):
            self.raises = pytest.raises(IntegrityError)
            self.raises.__enter__()
            self.atomic = transaction.atomic()
            self.atomic.__enter__()

        def __exit__(self, *exc):
            self.atomic.__exit__(*exc)
            return self.raises.__exit__(*exc)

    return Refused()


def test_a_new_match_waits_with_sensible_defaults(make_match):
    match = make_match()
    assert (match.status, match.version, match.turn_seconds, match.fish) == ("waiting", 0, 30, "all")
    assert match.state is None and match.deadline is None and match.result is None
    assert match.rated and not match.private
    other = make_match()
    assert match.invite_token and match.invite_token != other.invite_token


@pytest.mark.parametrize(
    "fields",
    [
        {"seats_count": 1},
        {"seats_count": 5},
        {"turn_seconds": 9},
        {"turn_seconds": 121},
        {"fish": "two"},
        {"status": "paused"},
    ],
)
def test_match_settings_out_of_range_are_refused(db, fields):
    with refused():
        Match.objects.create(**fields)


@pytest.mark.parametrize("fields", [{"seats_count": 2, "turn_seconds": 10}, {"seats_count": 4, "turn_seconds": 120}])
def test_match_settings_at_the_limits_are_fine(db, fields):
    Match.objects.create(**fields)


def test_match_json_fields_keep_the_rules_state_and_result(make_match):
    match = make_match(state={"round": 1, "hands": [["1-1"], ["2-2"]]}, result={"goats": [1], "interrupted_by": None})
    match.refresh_from_db()
    assert match.state["hands"][0] == ["1-1"] and match.result["goats"] == [1]


def test_one_player_per_seat_and_one_seat_per_player(make_match, make_user):
    masha, olya = make_user("masha"), make_user("olya")
    match = make_match([masha, None])
    with refused():
        Seat.objects.create(match=match, number=0, user=olya)
    with refused():
        Seat.objects.create(match=match, number=2, user=masha)
    # Several bots may sit at one table, and a player may sit at other tables.
    Seat.objects.create(match=match, number=2, bot_name="Bot 2")
    make_match([masha, olya])


def test_a_seat_is_a_person_or_a_bot_never_both_never_neither(make_match, user):
    match = make_match(seats_count=4)
    with refused():
        Seat.objects.create(match=match, number=0, user=user, bot_name="Bot")
    with refused():
        Seat.objects.create(match=match, number=1)
    with refused():
        Seat.objects.create(match=match, number=4, bot_name="Bot")
    assert Seat.objects.create(match=match, number=3, bot_name="Bot").is_bot


def test_a_player_with_games_cannot_be_deleted(make_match, user):
    make_match([user, None])
    with pytest.raises(ProtectedError):
        user.delete()


def test_move_numbers_are_unique_within_a_match(make_match):
    match, other = make_match([None, None]), make_match([None, None])
    Move.objects.create(match=match, number=1, kind=MoveKind.DEAL, payload={"hands": 2})
    Move.objects.create(match=other, number=1, kind=MoveKind.DEAL)
    with refused():
        Move.objects.create(match=match, number=1, seat=0, kind=MoveKind.PLAY)
    with refused():
        Move.objects.create(match=match, number=0, seat=0, kind=MoveKind.PLAY)
    with refused():
        Move.objects.create(match=match, number=2, seat=4, kind=MoveKind.PLAY)


def test_the_move_log_is_append_only(make_match):
    match = make_match([None, None])
    move = Move.objects.create(match=match, number=1, seat=0, kind=MoveKind.PLAY, payload={"tile": "1-1"})
    move.payload = {"tile": "6-6"}
    with pytest.raises(AppendOnlyError):
        move.save()
    with pytest.raises(AppendOnlyError):
        move.delete()
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(match=match).update(kind=MoveKind.KNOCK)
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(match=match).delete()
    assert Move.objects.get().payload == {"tile": "1-1"}
    # Appending in bulk is fine; the log reads back in order.
    Move.objects.bulk_create([Move(match=match, number=n, seat=n % 2, kind=MoveKind.KNOCK) for n in (3, 2)])
    assert list(match.moves.values_list("number", flat=True)) == [1, 2, 3]


def test_deleting_a_match_takes_its_log_along(make_match):
    match = make_match([None, None])
    Move.objects.create(match=match, number=1, kind=MoveKind.DEAL)
    match.delete()
    assert not Move.objects.exists() and not Seat.objects.exists()


def score_row(match, seat, **fields):
    values = dict(
        round_number=1, points=5, credited=5, score_after=0, remembered_after=5, opened=False,
        result="out", result_seat=0, bank_after=0,
    )
    values.update(fields)
    return RoundScore.objects.create(match=match, seat=seat, **values)


def test_one_score_row_per_seat_and_round(make_match):
    match = make_match([None, None])
    score_row(match, 0, points=0, credited=0, remembered_after=0)
    score_row(match, 1)
    score_row(match, 1, round_number=2, result="fish", result_seat=1)
    with refused():
        score_row(match, 1)
    with refused():
        score_row(match, 0, round_number=3, result="draw")
    with refused():
        score_row(match, 0, round_number=3, points=-1)
    with pytest.raises(AppendOnlyError):
        RoundScore.objects.filter(match=match).update(points=0)


def the_clocks_query(now):
    """What the clock's sweep finds (services.due_match_ids, which games/play/clock.py calls),
    and the one query it ran for that: its SQL and parameters as sent to the database."""
    ran = []

    def keep(execute, sql, params, many, context):
        ran.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        found = services.due_match_ids(now)
    [query] = ran
    return found, query


def query_plan(sql, params) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            return "\n".join(row[-1] for row in cursor.fetchall())
        # A test's table holds a few rows, which PostgreSQL reads fastest without an index;
        # priced out of reading the whole table (or a bitmap of it, which it may prefer
        # after other tests left their statistics), it takes the index the query can use.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_clocks_query_finds_due_deadlines_by_their_index(make_match):
    now = timezone.now()
    due_last = make_match(status=MatchStatus.PLAYING, deadline=now - timedelta(seconds=1))
    due_first = make_match(status=MatchStatus.PLAYING, deadline=now - timedelta(seconds=9))
    make_match(status=MatchStatus.PLAYING, deadline=now + timedelta(seconds=30))
    make_match(status=MatchStatus.WAITING)
    found, (sql, params) = the_clocks_query(now)
    assert found == [due_first.pk, due_last.pk]
    plan = query_plan(sql, params)
    assert "match_due_deadline_idx" in plan
    # The index gives the rows in deadline order: no sort of its own.
    assert "TEMP B-TREE" not in plan and "Sort" not in plan


def test_the_indexes_exist(db):
    with connection.cursor() as cursor:
        matches = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    assert matches["match_due_deadline_idx"]["columns"] == ["status", "deadline"]
    assert matches["match_status_created_idx"]["columns"] == ["status", "created_at"]
