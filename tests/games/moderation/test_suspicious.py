"""The moderators' suspicious games page: the client address each seat was taken from, rated
games of accounts from one address, pairs that keep meeting with one of them leaving,
pairs at the limit of rated games together again and again -- and that the address is
shown to moderators only."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.moderators import GROUP_NAME
from games.lobby import service as requests
from games.models import Match, MatchStatus, RoundScore, SeatAddress
from games.play import clock, service as services

from ..conftest import play_first_round
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db
PAGE = "/moderation/suspicious/"
HOME_ADDRESS = "203.0.113.77"   # documentation addresses (RFC 5737)
OTHER_ADDRESS = "198.51.100.23"


@pytest.fixture
def moderator(make_user):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    return User.objects.get(pk=person.pk)


@pytest.fixture
def mod_client(moderator):
    client = Client()
    client.force_login(moderator)
    return client


def browser(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def table_through_the_lobby(people, addresses, rated=True) -> Match:
    """A table opened and filled by posts of the lobby's forms, each from its address."""
    form = {"players": str(len(people)), "fish": "all", "turn_seconds": "30"}
    if rated:
        form["rated"] = "on"
    post_form(browser(people[0]), reverse("games:create_request"), form, REMOTE_ADDR=addresses[0])
    match = Match.objects.filter(created_by=people[0]).latest("created_at")
    for person, address in zip(people[1:], addresses[1:]):
        browser(person).post(reverse("games:join_request", args=[match.pk]),
                             REMOTE_ADDR=address)
    match.refresh_from_db()
    return match


def rated_game(people) -> Match:
    """A rated game of ``people``, each from an address of their own."""
    match = requests.create_request(people[0], players=len(people), address="192.0.2.1")
    for number, person in enumerate(people[1:], 2):
        requests.join_request(person, match.pk, address=f"192.0.2.{number}")
    match.refresh_from_db()
    return match


def people_by_seat(match):
    return {seat.number: seat.user for seat in match.seats.select_related("user")}


def end_by_leave(match, person):
    services.leave_game(match.pk, person)
    match.refresh_from_db()


def next_round(match):
    clock.sweep_once()  # the pause between rounds is 0 in tests: the next deal
    match.refresh_from_db()


# -- recording the address ---------------------------------------------------------------

def test_the_address_of_each_seat_is_recorded_when_it_is_taken(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = table_through_the_lobby([masha, alex], [HOME_ADDRESS, OTHER_ADDRESS])
    assert match.status == MatchStatus.PLAYING
    assert dict(SeatAddress.objects.filter(seat__match=match)
                .values_list("seat__user__username", "address")) == {
        "masha": HOME_ADDRESS, "alex": OTHER_ADDRESS}


def test_behind_a_trusted_proxy_the_address_is_the_one_it_vouches_for(make_user, settings):
    settings.TRUSTED_PROXIES = 1
    masha = make_user("masha")
    post_form(browser(masha), reverse("games:create_request"), {"players": "2", "fish": "all", "turn_seconds": "30", "rated": "on"},
                        REMOTE_ADDR="10.0.0.1",
                        HTTP_X_FORWARDED_FOR=f"1.2.3.4, {HOME_ADDRESS}")
    assert SeatAddress.objects.get().address == HOME_ADDRESS


def test_getting_up_from_a_request_forgets_its_address(make_user):
    olya = make_user("olya")
    match = requests.create_request(olya, players=3, address=OTHER_ADDRESS)
    assert SeatAddress.objects.filter(address=OTHER_ADDRESS).exists()
    browser(olya).post(reverse("games:leave_request", args=[match.pk]))
    assert not SeatAddress.objects.exists()


# -- who may see it ----------------------------------------------------------------------

def test_only_moderators_reach_the_page(client, make_user):
    assert client.get(PAGE).status_code == 302  # to the log-in page
    assert browser(make_user("masha")).get(PAGE).status_code == 403
    assert browser(make_user("staffer", is_staff=True)).get(PAGE).status_code == 403


def test_the_moderation_pages_link_to_it(mod_client):
    assert f'href="{PAGE}"' in mod_client.get("/moderation/").content.decode()


def test_the_address_never_appears_on_public_pages(make_user, mod_client):
    masha, alex = make_user("masha"), make_user("alex")
    match = table_through_the_lobby([masha, alex], [HOME_ADDRESS, HOME_ADDRESS])
    end_by_leave(match, alex)
    watcher = make_user("olya")
    pages = ["/", reverse("games:room", args=[match.pk]), reverse("records:game", args=[match.pk]),
             reverse("records:download", args=[match.pk]), reverse("records:replay", args=[match.pk]),
             reverse("players:profile", args=["masha"]), reverse("players:profile", args=["alex"]),
             reverse("ratings:ladder")]
    for client in (Client(), browser(watcher), browser(masha)):
        for page in pages:
            response = client.get(page)
            assert response.status_code == 200, page
            assert HOME_ADDRESS not in response.content.decode(), page
    # ... while the moderators' page does show it.
    assert HOME_ADDRESS in mod_client.get(PAGE).content.decode()


# -- one address at one table -------------------------------------------------------------

def shared_rows(mod_client):
    response = mod_client.get(PAGE)
    assert response.status_code == 200
    return response.context["shared"]


def test_a_rated_game_of_two_accounts_from_one_address_is_listed(make_user, mod_client):
    masha, alex, olya, ivan = (make_user(n) for n in ("masha", "alex", "olya", "ivan"))
    shared = table_through_the_lobby([masha, alex, olya], [HOME_ADDRESS, OTHER_ADDRESS, HOME_ADDRESS])
    table_through_the_lobby([ivan, make_user("petr")], [HOME_ADDRESS, OTHER_ADDRESS])
    table_through_the_lobby([make_user("lena"), make_user("gosha")], [HOME_ADDRESS] * 2,
                            rated=False)
    rows = shared_rows(mod_client)
    assert [(row.match.pk, row.address, [p.username for p in row.accounts]) for row in rows] == [
        (shared.pk, HOME_ADDRESS, ["masha", "olya"])]
    page = mod_client.get(PAGE).content.decode()
    assert HOME_ADDRESS in page  # moderators see it
    assert reverse("moderation:game", args=[shared.pk]) in page
    assert reverse("moderation:player", args=["olya"]) in page


# -- pairs that keep meeting ----------------------------------------------------------------

def pairs_on_the_page(mod_client):
    response = mod_client.get(PAGE)
    assert response.status_code == 200
    return {(pair.first.username, pair.second.username):
            (pair.games, pair.first_exits, pair.second_exits, sorted(pair.exit_games))
            for pair in response.context["pairs"]}


def ordered(*people):
    return tuple(sorted(people, key=lambda person: person.pk))


def test_a_pair_with_three_rated_games_and_early_leaves_is_listed(make_user, mod_client):
    masha, alex = make_user("masha"), make_user("alex")
    games = []
    for leaver in (alex, alex, masha):
        match = rated_game([masha, alex])
        end_by_leave(match, leaver)          # in round 1: the game is aborted
        assert match.status == MatchStatus.ABORTED
        games.append(match)
    first, second = ordered(masha, alex)
    exits = {alex.pk: 2, masha.pk: 1}
    assert pairs_on_the_page(mod_client) == {
        (first.username, second.username): (3, exits[first.pk], exits[second.pk],
                                            sorted(m.pk for m in games))}
    page = mod_client.get(PAGE).content.decode()
    assert all(reverse("moderation:game", args=[m.pk]) in page for m in games)
    assert reverse("moderation:player", args=["alex"]) in page
    assert reverse("moderation:player", args=["masha"]) in page


def test_a_third_player_leaving_early_is_no_early_exit_of_the_pair(make_user, mod_client):
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    for _ in range(3):
        end_by_leave(rated_game([masha, alex, olya]), olya)
    pairs = pairs_on_the_page(mod_client)
    assert set(pairs) == {tuple(p.username for p in ordered(masha, olya)),
                          tuple(p.username for p in ordered(alex, olya))}


def test_an_exit_at_any_round_counts_after_round_one_and_after_round_two(make_user, mod_client):
    masha, alex = make_user("masha"), make_user("alex")
    after_one = rated_game([masha, alex])
    play_first_round(after_one, people_by_seat(after_one))
    next_round(after_one)
    end_by_leave(after_one, alex)
    assert after_one.status == MatchStatus.INTERRUPTED  # rated: masha gains points
    after_two = rated_game([masha, alex])
    play_first_round(after_two, people_by_seat(after_two))
    next_round(after_two)
    play_first_round(after_two, people_by_seat(after_two))
    next_round(after_two)
    assert RoundScore.objects.filter(match=after_two).values("round_number").distinct().count() == 2
    end_by_leave(after_two, alex)
    third = rated_game([masha, alex])
    end_by_leave(third, masha)  # round 1
    (pair,) = pairs_on_the_page(mod_client).values()
    assert pair[0] == 3
    # Issue 39: farming needs only one scored round, so every exit counts, at any round.
    assert sorted(pair[3]) == sorted([after_one.pk, after_two.pk, third.pk])
    assert (pair[1], pair[2]) in ((2, 1), (1, 2))


def test_pairs_below_the_count_or_without_exits_are_not_listed(make_user, mod_client, settings):
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    for _ in range(2):                       # two games with early leaves: too few
        end_by_leave(rated_game([masha, alex]), alex)
    for _ in range(3):                       # three games, nobody left early
        rated_game([masha, olya])
        Match.objects.filter(seats__user=olya, status=MatchStatus.PLAYING).update(
            status=MatchStatus.FINISHED)
    unrated = requests.create_request(masha, players=2, rated=False)
    requests.join_request(alex, unrated.pk)
    end_by_leave(unrated, alex)              # unrated games do not count
    assert pairs_on_the_page(mod_client) == {}
    settings.KOZEL_SUSPICIOUS_MIN_GAMES = 2
    assert list(pairs_on_the_page(mod_client)) == [
        tuple(p.username for p in ordered(masha, alex))]


def test_timeouts_in_the_first_round_are_exits_too(make_user, mod_client):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Move, MoveKind

    masha, alex = make_user("masha"), make_user("alex")
    games, timed_out = [], []
    for _ in range(3):
        match = rated_game([masha, alex])
        # Nobody moves: the clock times out the player to move (no outage: the deadline
        # simply passed).
        assert services.run_due(match.pk, now=timezone.now() + timedelta(hours=1))
        match.refresh_from_db()
        assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"
        seat = Move.objects.get(match=match, kind=MoveKind.TIMEOUT).seat
        timed_out.append(people_by_seat(match)[seat].pk)
        games.append(match)
    first, second = ordered(masha, alex)
    assert pairs_on_the_page(mod_client) == {
        (first.username, second.username): (3, timed_out.count(first.pk), timed_out.count(second.pk),
                                            sorted(m.pk for m in games))}


# -- pairs at the limit again and again (RULES.md 10) --------------------------------------

def test_a_pair_that_keeps_reaching_the_limit_is_listed_with_its_games(make_user, mod_client):
    """Issue 39: the same two accounts play 3 rated games, then two more that are played
    unrated for it: listed, each unrated game linked; a pair at the limit once is not."""
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    for _ in range(3):
        match = rated_game([masha, alex])
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    unrated = []
    for _ in range(2):
        match = requests.create_request(masha, players=2, rated=True)
        requests.join_request(alex, match.pk)
        match.refresh_from_db()
        assert not match.rated and match.unrated_why == "same-people"
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
        unrated.append(match)
    for _ in range(3):
        match = rated_game([masha, olya])
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    once = requests.create_request(olya, players=2, rated=True)
    requests.join_request(masha, once.pk)
    response = mod_client.get(PAGE)
    rows = [(p.first.username, p.second.username, sorted(p.games))
            for p in response.context["limit_pairs"]]
    first, second = ordered(masha, alex)
    assert rows == [(first.username, second.username, sorted(m.pk for m in unrated))]
    page = response.content.decode()
    assert all(reverse("moderation:game", args=[m.pk]) in page for m in unrated)
    assert 'data-list="limit-pairs"' in page
