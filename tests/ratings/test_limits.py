"""RULES.md 10, against rating farming: the same people again (a game is rated only if no
two of its players have played 3 rated games together in the 24 hours before it starts),
and leavers (3 timeouts or leaves of rated games within 24 hours bar a player from rated
tables for 1 hour, doubling for each repeat within 24 hours of the last bar, at most 7
days; the clock ends the bar on time; a moderator may lift it).

Played through the lobby, one more game and games.play.service, as the hostile pass of
issue 39 played them against the site: two accounts (and three rotating, and a pair
game of two colluding partners) trading points by playing a round and leaving.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from accounts.models import ModeratorAction, Player
from accounts.moderators import GROUP_NAME
from games import rules
from games.lobby import rematch, service as requests
from games.models import Match, MatchStatus, Rematch, UnratedWhy
from games.moderation import service as moderation
from games.play import clock, service as services
from games.play.errors import PlayError
from ratings import limits
from ratings.models import Bar, Departure, RatingRecord

from ..games.conftest import at_once, human_move, play_first_round, state_of

pytestmark = pytest.mark.django_db

UNRATED_RU = "без рейтинга: вы уже сыграли 3 рейтинговые партии вместе за сутки"


def rating(user) -> int:
    return Player.objects.get(user=user).rating


def scored_and_left(match, people, leaver) -> Match:
    """Play the first round (so the game counts), then ``leaver`` runs out of time on
    their first turn of the next (as a leave, RULES.md 9 and 10; a leave itself offers
    no one more game since issue 42): the farming loop's one game."""
    play_first_round(match, people)
    later = timezone.now() + timedelta(days=1)
    services.run_due(match.pk, later)  # the next deal
    while (state := state_of(match)).phase == rules.PLAYING:
        if people[state.turn] == leaver:
            services.run_due(match.pk, later)  # their time runs out
        else:
            services.act(match.pk, people[state.turn], human_move(match, state.turn),
                         match.version)
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    return match


def a_table(people, **options) -> Match:
    """A request by people[0], joined by the rest in order: started."""
    options.setdefault("players", len(people))
    match = requests.create_request(people[0], turn_seconds=30, **options)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    return match


def again(game, people) -> Match:
    """Everyone accepts one more game after ``game``; the new game, started."""
    for person in people:
        rematch.accept(game.pk, person)
    new = Rematch.objects.get(game=game).table
    assert new.status == MatchStatus.PLAYING
    return new


def by_seat(match) -> dict:
    return {s.number: s.user for s in match.seats.select_related("user")}


# -- the same people again -------------------------------------------------------------

def test_the_farming_loop_of_two_accounts_gets_three_rated_games_and_then_none(make_user):
    """Issue 39's loop: a round, a leave, one more game, again.  The 4th game together is
    unrated, and the offer said so before it started; the leaver is barred at the 3rd
    leave; and the bar lifts on time, by the clock's sweep."""
    farmer, feeder = make_user("farmer"), make_user("feeder")
    game = a_table([farmer, feeder])
    ratings_after = []
    for number in range(1, 4):
        assert game.rated and game.unrated_why == ""
        seats = by_seat(game)
        game = scored_and_left(game, seats, feeder)
        ratings_after.append(rating(farmer))
        offer = rematch.view_of(game.pk)
        # After the 3rd rated game together, the offer says the next one is unrated.
        assert offer["unrated_again"] == (number == 3)
        if number < 3:
            game = again(game, [farmer, feeder])
    # Three rated games: each gave the farmer its points (rated, RULES.md 9).
    assert RatingRecord.objects.filter(player__user=farmer).count() == 3
    assert ratings_after[0] > 0 and ratings_after[2] > ratings_after[1] > ratings_after[0]
    # The feeder left 3 rated games within 24 hours: barred for 1 hour.
    bar = Bar.objects.get(player__user=feeder)
    assert bar.until - bar.since == timedelta(hours=1)
    assert Departure.objects.filter(player__user=feeder).count() == 3
    assert not Bar.objects.filter(player__user=farmer).exists()
    # The barred feeder may not accept the rated game: refused, saying until when.
    with pytest.raises(PlayError) as refusal:
        rematch.accept(game.pk, feeder)
    assert refusal.value.code == "barred"
    # Nor open or join a rated request; an unrated one and bots are open.
    with pytest.raises(PlayError):
        requests.create_request(feeder, players=2, rated=True)
    # The clock's sweep ends the bar when its time is up, with nobody connected.
    clock.sweep_once(bar.until - timedelta(seconds=1))
    assert limits.bar_of(feeder, bar.until - timedelta(seconds=1)) is not None
    bar.refresh_from_db()
    assert bar.ended_at is None
    clock.sweep_once(bar.until + timedelta(seconds=1))
    bar.refresh_from_db()
    assert bar.ended_at == bar.until + timedelta(seconds=1) and bar.lifted_by is None
    assert limits.bar_of(feeder) is None
    # The bar is over (the offer after the 3rd game has expired meanwhile): the 4th game
    # together starts, but unrated.
    fourth = a_table([farmer, feeder])
    assert (fourth.rated, fourth.unrated_why) == (False, UnratedWhy.SAME_PEOPLE)
    before = rating(farmer)
    scored_and_left(fourth, by_seat(fourth), feeder)
    assert rating(farmer) == before
    assert not RatingRecord.objects.filter(match=fourth).exists()
    # An unrated game's leave is not counted against anyone.
    assert Departure.objects.filter(player__user=feeder).count() == 3


def test_three_accounts_rotating_get_three_rated_games_per_pair_and_a_bar_for_each_leaver(
        make_user):
    """Three accounts feeding each other in turn, the second of each pair leaving after
    a scored round: each pair gets at most 3 rated games, and whoever left 3 is barred."""
    a, b, c = make_user("rot-a"), make_user("rot-b"), make_user("rot-c")
    played = []
    for first, second in [(a, b), (b, c), (c, a)] * 4:
        if limits.bar_of(first) or limits.bar_of(second):
            continue  # a barred one cannot sit down at a rated table
        game = a_table([first, second])
        scored_and_left(game, by_seat(game), second)
        played.append(game.rated)
    # a-b, b-c, c-a, a-b, b-c, c-a, a-b (b's 3rd leave: barred), c-a (a's 3rd: barred).
    assert played == [True] * 8
    for x, y in [(a, b), (b, c), (c, a)]:
        together = Match.objects.filter(rated=True, seats__user=x).filter(seats__user=y)
        assert together.count() <= limits.SAME_PEOPLE_GAMES
    assert [Bar.objects.filter(player__user=p).count() for p in (a, b, c)] == [1, 1, 0]
    assert limits.same_people_again([a.pk, b.pk]) and limits.same_people_again([c.pk, a.pk])


def test_a_pair_game_of_two_colluding_partners_is_unrated_the_4th_time(make_user):
    """Two partners (seats 0 and 2) feeding on two others: any two of a table's four who
    have played 3 rated games together make the next unrated -- partners too."""
    p0, p2 = make_user("partner0"), make_user("partner2")
    # An aborted game (left in round 1) is not "played together": it does not count.
    others = [make_user(f"first-other{k}") for k in range(2)]
    game = a_table([p0, others[0], p2, others[1]], players=4, pairs=True)
    services.leave_game(game.pk, others[0])
    game.refresh_from_db()
    assert game.status == MatchStatus.ABORTED
    for n in range(3):
        others = [make_user(f"pairs-other{n}-{k}") for k in range(2)]
        game = a_table([p0, others[0], p2, others[1]], players=4, pairs=True)
        assert game.rated
        scored_and_left(game, by_seat(game), others[0])
    # The partners' 4th, with two new people: the lobby row says so to the partner
    # about to join, and it is played unrated.
    others = [make_user(f"pairs-last-{k}") for k in range(2)]
    table = requests.create_request(p0, players=4, pairs=True)
    requests.join_request(others[0], table.pk)
    assert requests_rows_for(p2)[table.pk].unrated_again
    assert not requests_rows_for(others[1])[table.pk].unrated_again
    requests.join_request(p2, table.pk)
    assert requests_rows_for(others[1])[table.pk].unrated_again  # now for anyone
    requests.join_request(others[1], table.pk)
    table.refresh_from_db()
    assert (table.rated, table.unrated_why) == (False, UnratedWhy.SAME_PEOPLE)


def requests_rows_for(user) -> dict:
    from games.lobby import listing
    return {row.match.pk: row for row in listing.lobby_context(user)["requests"]}


def test_the_request_row_says_before_the_join_that_the_game_will_be_unrated(
        make_user, client):
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    for _n in range(3):
        game = a_table([masha, alex])
        scored_and_left(game, by_seat(game), masha)
    request = requests.create_request(alex, players=2, rated=True)
    # Alex's request, seen by masha: her joining would make it the 4th game together.
    client.force_login(masha)
    page = client.get(reverse("games:lobby")).content.decode()
    row = page[page.index(f'data-request="{request.pk}"'):]
    row = row[:row.index('data-action="join"')]  # the row's terms, before its join button
    assert UNRATED_RU in row
    # Olya has never played either of them: rated for her.
    client.force_login(olya)
    page = client.get(reverse("games:lobby")).content.decode()
    row = page[page.index(f'data-request="{request.pk}"'):]
    assert UNRATED_RU not in row[:row.index('data-action="join"')]
    # The invitation page of a private table says it too.
    requests.leave_request(alex, request.pk)
    private = requests.create_request(alex, players=2, rated=True, private=True)
    client.force_login(masha)
    page = client.get(reverse("games:invite", args=[private.invite_token])).content.decode()
    assert UNRATED_RU in page


def test_the_limit_counts_the_24_hours_before_the_start_only(make_user):
    masha, alex = make_user("m24"), make_user("a24")
    for _n in range(3):
        game = a_table([masha, alex])
        scored_and_left(game, by_seat(game), masha)
    assert limits.same_people_again([masha.pk, alex.pk])
    # The first of the three started more than 24 hours before now: two in the window.
    first = Match.objects.filter(seats__user=masha).order_by("started_at").first()
    Match.objects.filter(pk=first.pk).update(started_at=timezone.now() - timedelta(hours=24, seconds=1))
    assert not limits.same_people_again([masha.pk, alex.pk])
    # The bar (masha left 3 rated games) still holds; lift it to see the game rated.
    moderator = make_user("mod24", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    moderation.lift_bar(masha, moderator, "a test of the window")
    game = a_table([masha, alex])
    assert game.rated


@pytest.mark.django_db(transaction=True)
def test_two_starts_of_the_same_people_at_once_count_each_other(make_user):
    """Two tables, each with two of the same three people, start at the same moment on
    two threads (each its own connection): the limit is decided under the people's
    locks, so at most 3 of the games between any two are rated."""
    a, b, c, d = (make_user(f"race{n}") for n in range(4))
    # a and b: two rated games together already.
    for _n in range(2):
        game = a_table([a, b])
        scored_and_left(game, by_seat(game), a)
    # Two waiting requests: one with a seated, one with b; the joins race.
    first = requests.create_request(a, players=3, rated=True)
    requests.join_request(c, first.pk)
    second = requests.create_request(d, players=2, rated=True)
    # b cannot sit at two tables: one of the two joins is refused, the other starts.
    outcome = at_once(lambda: requests.join_request(b, first.pk),
                      lambda: requests.join_request(b, second.pk))
    started = [m for m in Match.objects.filter(pk__in=[first.pk, second.pk])
               if m.status == MatchStatus.PLAYING]
    assert len(started) == 1 and "busy" in outcome
    together = Match.objects.filter(rated=True, seats__user=a).filter(seats__user=b).count()
    assert together <= limits.SAME_PEOPLE_GAMES


# -- leavers ----------------------------------------------------------------------------

def departures(make_match, person, times) -> None:
    for at in times:
        match = make_match([person, None], rated=True)
        Departure.objects.create(player=person.player, match=match, reason="left", at=at)


def test_a_bar_doubles_within_24_hours_of_the_last_and_stops_at_7_days(make_user, make_match):
    person = make_user("leaver")
    now = timezone.now()
    lengths = []
    for n in range(10):
        departures(make_match, person, [now + timedelta(seconds=k) for k in range(3)])
        bar = limits.bar_if_due(person.player, now + timedelta(seconds=3))
        lengths.append(bar.until - bar.since)
        # the bar runs out; the next three leaves come an hour after it ends
        now = bar.until + timedelta(hours=1)
    hours = [int(length.total_seconds() // 3600) for length in lengths]
    assert hours == [1, 2, 4, 8, 16, 32, 64, 128, 168, 168]


def test_a_bar_after_a_quiet_day_starts_again_at_one_hour(make_user, make_match):
    person = make_user("leaver2")
    now = timezone.now()
    departures(make_match, person, [now, now, now])
    first = limits.bar_if_due(person.player, now)
    later = first.until + timedelta(hours=24, seconds=1)
    departures(make_match, person, [later, later, later])
    second = limits.bar_if_due(person.player, later)
    assert second.until - second.since == timedelta(hours=1)


def test_two_leaves_or_three_spread_over_more_than_a_day_bar_nobody(make_user, make_match):
    person = make_user("leaver3")
    now = timezone.now()
    departures(make_match, person, [now - timedelta(hours=25), now - timedelta(hours=1), now])
    assert limits.bar_if_due(person.player, now) is None
    departures(make_match, person, [now])
    assert limits.bar_if_due(person.player, now) is not None


def test_a_timeout_counts_as_a_leave_and_an_aborted_rated_game_too(make_user):
    masha, alex = make_user("to1"), make_user("to2")
    for _n in range(3):
        game = a_table([masha, alex])
        # alex's turn runs out in the first round: the game is aborted, and it counts.
        game.refresh_from_db()
        services.run_due(game.pk, game.deadline + timedelta(seconds=1))
        game.refresh_from_db()
        assert game.status == MatchStatus.ABORTED and game.result["reason"] == "timeout"
    counts = {p.username: Departure.objects.filter(player__user=p).count() for p in (masha, alex)}
    assert sum(counts.values()) == 3
    assert Bar.objects.filter(player__user__in=[masha, alex]).count() == int(
        max(counts.values()) == 3)


def test_a_moderator_sees_and_lifts_a_bar_with_a_reason_in_the_log(make_user, make_match, client):
    person = make_user("barred")
    now = timezone.now()
    departures(make_match, person, [now, now, now])
    bar = limits.bar_if_due(person.player, now)
    moderator = make_user("moderator", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(moderator)
    page = client.get(reverse("moderation:player", args=[person.username])).content.decode()
    assert "data-bar-until" in page and 'data-action="lift-bar"' in page
    # No reason: refused, the bar holds.
    client.post(reverse("moderation:lift_bar", args=[person.username]), {"reason": ""})
    assert limits.bar_of(person) is not None
    client.post(reverse("moderation:lift_bar", args=[person.username]),
                {"reason": "a misunderstanding"})
    bar.refresh_from_db()
    assert bar.lifted_by == moderator and bar.ended_at is not None
    assert limits.bar_of(person) is None
    action = ModeratorAction.objects.get(action=ModeratorAction.Kind.LIFT_BAR)
    assert (action.person, action.reason) == (person, "a misunderstanding")
    # A lifted bar does not double the next one.
    later = timezone.now() + timedelta(minutes=1)
    departures(make_match, person, [later, later, later])
    assert limits.bar_if_due(person.player, later).length == timedelta(hours=1)


def test_the_lobby_and_its_forms_say_until_when_a_player_is_barred(make_user, make_match, client):
    person = make_user("barred2")
    now = timezone.now()
    departures(make_match, person, [now, now, now])
    bar = limits.bar_if_due(person.player, now)
    client.force_login(person)
    page = client.get(reverse("games:lobby")).content.decode()
    # Twice: the live list and the request form; in a <time> the page shows in the
    # viewer's own time zone.
    assert page.count("data-barred-until") == 2
    assert page.count('<time datetime="') == 2 and "data-local" in page
    assert "Вам нельзя садиться за рейтинговые столы до" in page
    response = client.post(reverse("games:create_request"),
                           {"players": 2, "fish": "all", "turn_seconds": 30, "rated": "on"},
                           follow=True)
    assert "Вам нельзя садиться за рейтинговые столы до" in response.content.decode()
    assert not Match.objects.filter(created_by=person).exists()
    # Bots stay open (the make_match tables above were seated, never started: free them).
    Match.objects.filter(seats__user=person).update(status=MatchStatus.ABORTED)
    requests.play_with_bots(person, 2)
