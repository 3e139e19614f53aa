"""One more game ("Ещё партию") after a game, through the services: the offer made when a
game ends, everyone one seat on with the same settings, bots accepting at once,
declining, the time running out and leaving the room with nobody connected, one table at
a time, hostile answers, and accepts that race."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.lobby import rematch, service as requests
from games.models import RUNNING, Match, MatchStatus, Rematch, RematchStatus, Seat
from games.play import clock, service as services
from games.play.errors import PlayError
from games.live import caps as socketcaps

from ..conftest import at_once, times_out

pytestmark = pytest.mark.django_db


def ended_game(make_user, players=2, *, pairs=False, prefix="p", **options):
    """A game of ``players`` new accounts that has just ended (timed out in the
    first round), and its people by seat."""
    people = {n: make_user(f"{prefix}{n}") for n in range(players)}
    match = requests.create_request(people[0], players=players, pairs=pairs, **options)
    for n in range(1, players):
        requests.join_request(people[n], match.pk, invite_token=match.invite_token)
    times_out(match.pk)
    match.refresh_from_db()
    return match, people


def seats_of(match) -> dict[int, str]:
    return {s.number: s.name for s in Seat.objects.filter(match=match).select_related("user")}


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(PlayError) as refusal:
        call(*args, **kwargs)
    return refusal.value.code


def snapshot(game) -> tuple:
    """What an answer could change: the offer, its table, and the tables there are."""
    offer = Rematch.objects.get(game=game)
    return (offer.status, offer.accepted, offer.reason, offer.withdrawn_by_id, offer.table_id,
            sorted(Match.objects.values_list("pk", "status", "version")),
            sorted(Seat.objects.values_list("match_id", "number", "user_id")))


# -- the offer, and the new game -------------------------------------------------------

def test_a_game_that_ends_offers_one_more_with_a_waiting_private_table(make_user):
    game, people = ended_game(make_user, 3, turn_seconds=45, rated=False, fish="one")
    assert game.status == MatchStatus.ABORTED  # timed out in the first round: still offered
    offer = Rematch.objects.get(game=game)
    assert offer.status == RematchStatus.OPEN and offer.accepted == {}
    table = offer.table
    assert (table.status, table.private, table.seats.count()) == (MatchStatus.WAITING, True, 0)
    assert table.server_seed is not None and len(table.commitment) == 64
    assert offer.expires_at > timezone.now() + timedelta(seconds=50)


@pytest.mark.parametrize("players,pairs", [(2, False), (3, False), (4, False), (4, True)])
def test_when_all_accept_the_new_game_starts_everyone_one_seat_on(make_user, players, pairs):
    game, people = ended_game(make_user, players, pairs=pairs, turn_seconds=25, fish="one",
                              private=True)
    for n in range(players):
        rematch.accept(game.pk, people[n], f"seed-of-{n}")
    offer = Rematch.objects.get(game=game)
    new = offer.table
    assert offer.status == RematchStatus.STARTED and new.status == MatchStatus.PLAYING
    assert new.started_at is not None and new.version == 1  # the first deal
    # Seat n's person sits at n + 1 (mod the seats), with the seed they accepted with.
    assert seats_of(new) == {(n + 1) % players: people[n].username for n in range(players)}
    assert new.client_seeds == [f"seed-of-{(n - 1) % players}" for n in range(players)]
    settings = ("seats_count", "fish", "pairs", "turn_seconds", "rated", "private")
    assert [getattr(new, f) for f in settings] == [getattr(game, f) for f in settings]
    if pairs:  # partners stay partners: 0 and 2 move to 1 and 3
        new_seat = {s.user_id: s.number for s in new.seats.all()}
        assert new_seat[people[0].pk] % 2 == new_seat[people[2].pk] % 2
        assert new_seat[people[1].pk] % 2 == new_seat[people[3].pk] % 2


def test_a_public_rated_game_gives_a_public_rated_one(make_user):
    game, people = ended_game(make_user, 2, prefix="pub")
    for person in people.values():
        rematch.accept(game.pk, person)
    new = Rematch.objects.get(game=game).table
    assert (new.private, new.rated) == (False, True)
    assert all(len(seed) == 32 for seed in new.client_seeds)  # none given: made for them


def test_bots_accept_at_once_so_the_persons_accept_starts_it(make_user):
    olya = make_user("olya")
    table = requests.play_with_bots(olya, 3, turn_seconds=20)
    bots = seats_of(table)
    times_out(table.pk)
    view = rematch.view_of(table.pk)
    assert [p["accepted"] for p in view["people"]] == [True, False, True]  # seat 1: olya
    rematch.accept(table.pk, olya, "mine")
    new = Rematch.objects.get(game=table).table
    assert new.status == MatchStatus.PLAYING and not new.rated
    assert seats_of(new) == {(n + 1) % 3: name for n, name in bots.items()}
    assert new.client_seeds == ["0", "mine", "2"]  # a bot's seed is its (new) seat number


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_one_of_its_people_left_is_offered_withdrawn_in_their_name(make_user, players):
    # Issue 42, defect 8: the one who left is neither offered nor waited for; the same
    # table needs everyone, so the others see at once who left and that it is closed.
    people = {n: make_user(f"lv{n}") for n in range(players)}
    game = requests.create_request(people[0], players=players)
    for n in range(1, players):
        requests.join_request(people[n], game.pk, invite_token=game.invite_token)
    services.leave_game(game.pk, people[1])
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.withdrawn_by_id, offer.table) == (
        RematchStatus.WITHDRAWN, "left", people[1].pk, None)
    assert not Match.objects.filter(status=MatchStatus.WAITING).exists()  # no table drawn
    view = rematch.view_of(game.pk)
    assert (view["status"], view["reason"], view["by"]) == ("withdrawn", "left", "lv1")
    assert "gone" in refused(rematch.accept, game.pk, people[0])


def test_accepts_show_in_the_view_and_the_game_waits_for_everyone(make_user):
    game, people = ended_game(make_user, 3, prefix="v")
    rematch.accept(game.pk, people[2])
    view = rematch.view_of(game.pk)
    assert view["status"] == "open" and view["step"] == 1
    # The new order: seat 2's person first, then seats 0 and 1's.
    assert [(p["name"], p["accepted"]) for p in view["people"]] == [
        ("v2", True), ("v0", False), ("v1", False)]
    assert view["commitment"] == Rematch.objects.get(game=game).table.commitment
    assert Rematch.objects.get(game=game).table.status == MatchStatus.WAITING
    assert "server_seed" not in str(view) and "client_seed" not in str(view)


def test_a_moderators_abort_offers_nothing(make_user):
    people = [make_user("m0"), make_user("m1")]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    services.abort(match.pk)
    assert not Rematch.objects.filter(game=match).exists()


# -- withdrawn -------------------------------------------------------------------------

def test_declining_withdraws_the_offer_and_its_table(make_user):
    game, people = ended_game(make_user, 2, prefix="d")
    rematch.accept(game.pk, people[0])
    table_id = Rematch.objects.get(game=game).table_id
    rematch.decline(game.pk, people[1])
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.withdrawn_by) == ("withdrawn", "declined", people[1])
    assert not Match.objects.filter(pk=table_id).exists()  # never dealt from
    assert rematch.view_of(game.pk)["by"] == "d1"
    assert refused(rematch.accept, game.pk, people[1]) == "gone"


def test_the_offer_runs_out_with_nobody_connected(make_user, settings):
    settings.KOZEL_REMATCH_AWAY = 1000  # only the time to answer here
    game, people = ended_game(make_user, 2, prefix="t")
    expires = Rematch.objects.get(game=game).expires_at
    clock.sweep_once(expires - timedelta(seconds=1))
    assert Rematch.objects.get(game=game).status == RematchStatus.OPEN
    clock.sweep_once(expires)
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.table) == ("withdrawn", "expired", None)


def test_an_offer_past_its_time_takes_no_answer_before_the_sweep(make_user):
    game, people = ended_game(make_user, 2, prefix="late")
    Rematch.objects.filter(game=game).update(expires_at=timezone.now())
    assert refused(rematch.accept, game.pk, people[0]) == "gone"


def test_being_away_from_the_room_for_long_withdraws_it(make_user, settings):
    settings.KOZEL_REMATCH_AWAY = 30
    settings.KOZEL_REMATCH_SECONDS = 1000
    game, people = ended_game(make_user, 2, prefix="a")
    # people[0] has the game's room open (a socket's slot, as the room's consumer takes
    # it); people[1] has not.
    assert socketcaps.game_slot(f"user:{people[0].pk}", game.pk)._take()
    now = timezone.now()
    assert rematch.sweep(now) == 0  # people[1] is noted away from now on
    assert rematch.sweep(now + timedelta(seconds=29)) == 0
    assert rematch.sweep(now + timedelta(seconds=30)) == 1
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.withdrawn_by) == ("withdrawn", "away", people[1])


def test_coming_back_to_the_room_in_time_keeps_the_offer(make_user, settings):
    settings.KOZEL_REMATCH_AWAY = 30
    settings.KOZEL_REMATCH_SECONDS = 1000  # only being away here
    game, people = ended_game(make_user, 2, prefix="b")
    slots = [socketcaps.game_slot(f"user:{p.pk}", game.pk) for p in people.values()]
    assert slots[0]._take()
    now = timezone.now()
    rematch.sweep(now)  # people[1] away...
    assert slots[1]._take()
    rematch.sweep(now + timedelta(seconds=20))  # ...and back
    slots[1]._give_back()
    rematch.sweep(now + timedelta(seconds=40))  # away again, counted from here
    assert rematch.sweep(now + timedelta(seconds=60)) == 0
    assert Rematch.objects.get(game=game).status == RematchStatus.OPEN
    assert rematch.sweep(now + timedelta(seconds=70)) == 1


# -- one table at a time ---------------------------------------------------------------

@pytest.mark.parametrize("elsewhere", ["create", "join", "bots"])
def test_sitting_down_at_another_table_withdraws_the_offer(make_user, elsewhere):
    game, people = ended_game(make_user, 2, prefix="e")
    rematch.accept(game.pk, people[0])
    if elsewhere == "create":
        requests.create_request(people[0], players=2)
    elif elsewhere == "join":
        other = requests.create_request(make_user("host"), players=3)
        requests.join_request(people[0], other.pk)
    else:
        requests.play_with_bots(people[0], 2)
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.reason, offer.withdrawn_by) == ("withdrawn", "elsewhere", people[0])
    assert refused(rematch.accept, game.pk, people[1]) == "gone"


def test_an_accept_while_seated_elsewhere_is_refused(make_user, make_match):
    game, people = ended_game(make_user, 2, prefix="s")
    make_match([people[1], make_user("x")])  # a table they sit at (not through the lobby)
    before = snapshot(game)
    assert refused(rematch.accept, game.pk, people[1]) == "busy"
    assert snapshot(game) == before


# -- hostile answers -------------------------------------------------------------------

def test_hostile_answers_are_refused_and_change_nothing(make_user):
    game, people = ended_game(make_user, 2, prefix="h")
    stranger = make_user("stranger")
    running = requests.create_request(make_user("r0"), players=2)
    requests.join_request(make_user("r1"), running.pk)
    rematch.accept(game.pk, people[0])
    before = snapshot(game)
    assert refused(rematch.accept, game.pk, stranger) == "not-seated"      # not theirs
    assert refused(rematch.decline, game.pk, stranger) == "not-seated"
    assert refused(rematch.accept, running.pk, running.created_by) == "gone"  # running
    assert refused(rematch.accept, 987654, people[0]) == "gone"             # made up
    assert refused(rematch.accept, "1", people[0]) == "gone"
    assert refused(rematch.accept, game.pk, people[0]) == "answered"        # twice
    assert refused(rematch.accept, game.pk, people[1], "ключ") == "invalid"  # not ASCII
    assert refused(rematch.accept, game.pk, people[1], "x" * 65) == "invalid"
    assert refused(rematch.answer, game.pk, people[1], {"rematch": "maybe"}) == "invalid"
    assert refused(rematch.answer, game.pk, people[1], {"rematch": "accept",
                                                        "client_seed": 5}) == "invalid"
    assert snapshot(game) == before
    rematch.decline(game.pk, people[1])
    assert refused(rematch.decline, game.pk, people[1]) == "gone"           # twice


def test_the_table_of_an_offer_is_no_request_to_join(make_user):
    game, people = ended_game(make_user, 2, prefix="j")
    table = Rematch.objects.get(game=game).table
    with pytest.raises(PlayError):
        requests.join_request(make_user("intruder"), table.pk, invite_token=table.invite_token)
    assert table.seats.count() == 0


# -- races -----------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_two_last_accepts_at_once_start_exactly_one_game(make_user):
    for round_ in range(10):
        game, people = ended_game(make_user, 2, prefix=f"race{round_}-")
        results = at_once(lambda: rematch.accept(game.pk, people[0]),
                          lambda: rematch.accept(game.pk, people[1]))
        assert all(isinstance(r, Rematch) for r in results), results
        offer = Rematch.objects.get(game=game)
        assert offer.status == RematchStatus.STARTED and set(offer.accepted) == {
            str(p.pk) for p in people.values()}
        started = Match.objects.filter(seats__user=people[0], status=MatchStatus.PLAYING)
        assert list(started.values_list("pk", flat=True)) == [offer.table_id]
        assert offer.table.moves.filter(kind="deal").count() == 1
        services.leave_game(offer.table_id, people[0])  # free for the next round


@pytest.mark.django_db(transaction=True)
def test_one_person_accepting_twice_at_once_counts_once(make_user):
    game, people = ended_game(make_user, 3, prefix="twice")
    results = at_once(lambda: rematch.accept(game.pk, people[1]),
                      lambda: rematch.accept(game.pk, people[1]))
    assert sorted(r if isinstance(r, str) else "ok" for r in results) == ["answered", "ok"]
    offer = Rematch.objects.get(game=game)
    assert list(offer.accepted) == [str(people[1].pk)] and offer.status == RematchStatus.OPEN


@pytest.mark.django_db(transaction=True)
def test_the_last_accept_and_a_new_table_elsewhere_at_once_keep_one_table_each(make_user):
    """The last accept against the other person sitting down in the lobby: either the
    game starts and the lobby refuses them, or the offer is withdrawn and the accept
    refused -- never both tables, never a deadlock."""
    for round_ in range(4):
        game, people = ended_game(make_user, 2, prefix=f"lobby{round_}-")
        rematch.accept(game.pk, people[0])
        results = at_once(lambda: rematch.accept(game.pk, people[1]),
                          lambda: requests.create_request(people[0], players=2))
        offer = Rematch.objects.get(game=game)
        tables = Match.objects.filter(seats__user=people[0], status__in=RUNNING)
        assert tables.count() == 1
        if offer.status == RematchStatus.STARTED:
            assert results[1] == "busy"
            services.leave_game(offer.table_id, people[0])
        else:
            assert (offer.status, results[0]) == (RematchStatus.WITHDRAWN, "gone")
            requests.leave_request(people[0], tables.get().pk)


def test_the_moderators_list_of_running_games_leaves_out_an_offers_empty_table(
        make_user, client):
    moderator = make_user("mod", is_staff=True)
    from django.contrib.auth.models import Permission
    moderator.user_permissions.add(Permission.objects.get(codename="moderate"))
    game, people = ended_game(make_user, 2, prefix="ml")
    table = Rematch.objects.get(game=game).table
    client.force_login(moderator)
    page = client.get("/moderation/").content.decode()
    assert f"/games/{table.pk}/" not in page
    for person in people.values():
        rematch.accept(game.pk, person)
    assert f"/games/{table.pk}/" in client.get("/moderation/").content.decode()


def test_an_account_closed_meanwhile_withdraws_it_rather_than_sitting_down(make_user):
    game, people = ended_game(make_user, 2, prefix="closed")
    rematch.accept(game.pk, people[0])
    type(people[0]).objects.filter(pk=people[0].pk).update(is_active=False)
    rematch.accept(game.pk, people[1])
    offer = Rematch.objects.get(game=game)
    assert (offer.status, offer.withdrawn_by) == (RematchStatus.WITHDRAWN, people[0])
    assert not Match.objects.filter(seats__user=people[1], status=MatchStatus.PLAYING).exists()
