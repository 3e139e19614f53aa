"""games/play/store.py reads and writes the match row exactly as the ORM does."""

import pytest
from django.db import transaction

from games.play import service as services, store as movesql
from games.models import Match

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db


def fields_of(match: Match) -> dict:
    return {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields}


def assert_same_as_the_orm(match_id: int) -> None:
    expected = fields_of(Match.objects.get(pk=match_id))
    for read in (movesql.match_row(match_id), _locked(match_id)):
        got = fields_of(read)
        assert got == expected
        assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in expected.items()}
        assert read._state.db == "default" and not read._state.adding


def _locked(match_id: int) -> Match:
    with transaction.atomic():
        return movesql.locked_match(match_id)


def test_the_match_row_reads_as_the_orm_reads_it_before_during_and_after_a_game(make_user):
    people = [make_user(f"строка{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    assert_same_as_the_orm(match.pk)  # waiting: no state, no deadline
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    assert_same_as_the_orm(match.pk)  # playing: the state (JSON), the deadline (a time)
    state = state_of(match)
    services.act(match.pk, people[state.turn], human_move(match, state.turn), match.version)
    assert_same_as_the_orm(match.pk)
    services.leave_game(match.pk, people[0])
    assert_same_as_the_orm(match.pk)  # interrupted: the result (JSON), the end time


def test_a_missing_match_reads_as_none():
    assert movesql.match_row(10**9) is None


def test_a_move_is_logged_as_the_orm_would_log_it(make_user):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Move

    people = [make_user(f"запись{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    state = state_of(match)
    message = human_move(match, state.turn)
    before = timezone.now()
    services.act(match.pk, people[state.turn], message, match.version)
    logged = Move.objects.get(match=match, number=match.version + 1)
    expected = dict(message, seat=state.turn)
    kind = "play" if "play" in message else "draw" if "draw" in message else "knock"
    assert (logged.seat, logged.kind) == (state.turn, kind)
    assert {k: v for k, v in logged.payload.items() if k != "kind"} == \
        {k: v for k, v in expected.items() if k != "kind"}
    assert before - timedelta(seconds=1) <= logged.created_at <= timezone.now()
    assert logged.created_at.tzinfo is not None


def test_a_failing_statement_raises_djangos_database_error(make_user):
    from django.db import IntegrityError

    from games.models import Move

    people = [make_user(f"сбой{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    taken = Move.objects.filter(match=match).first()  # the deal, number 1
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            movesql.insert_move(Move(match=match, number=taken.number, seat=None,
                                     kind=taken.kind, payload={}))
    assert Move.objects.filter(match=match).count() == match.version


AWKWARD = ["it's", 'say "рыба"', "back\\slash", "%s %(x)s $1 ?", "--", "/* */", "ё\n\t"]


def test_values_a_statement_text_would_have_to_escape_are_stored_exactly(make_user):
    """PostgreSQL's writes send the values apart from the statement (server-side binding):
    text that quoting would have had to escape is stored as it was given."""
    from games.models import Move

    people = [make_user(f"кавычки{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    version = match.version
    moved = Match.objects.get(pk=match.pk)
    moved.version, moved.result = version + 1, {"moved": AWKWARD}
    assert movesql.save_moves_if_at(moved, ("version", "result"), version,
                                    [Move(match=moved, number=version + 1, seat=1,
                                          kind="draw", payload={"why": AWKWARD})])
    assert Match.objects.get(pk=match.pk).result == {"moved": AWKWARD}
    movesql.insert_move(Move(match=match, number=version + 2, seat=0, kind="play",
                             payload={"note": AWKWARD}))
    assert [m.payload for m in Move.objects.filter(match=match, number__gt=version)
            .order_by("number")] == [{"why": AWKWARD}, {"note": AWKWARD}]
    moved.result = {"saved": AWKWARD}
    movesql.save_match(moved, ("result",))
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.result) == (version + 1, {"saved": AWKWARD})
