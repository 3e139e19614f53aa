"""Rating farming, the red team's run end to end, through the site's own pages from one
client address: 15 sign-ups in a burst (the sixth on refused), then a farmer's rated 2-seat
table that a second account joins and leaves at once, again and again (nothing gained:
RULES.md 9's aborted games) until the helper is barred from rated tables for leaving
(RULES.md 10), and the moderators' "suspicious" page, which shows both signs -- the
accounts from one address at each table, and the pair that keeps meeting with exits --
with links to the games and the accounts."""

import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import Player, User
from accounts.moderators import GROUP_NAME
from games.models import Match, MatchStatus
from ratings.models import RatingRecord
from tests.conftest import PASSWORD
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db
FARM = "203.0.113.7"  # a documentation address (RFC 5737)
LOOPS = 3  # the helper's 3rd leave of a rated game bars it from rated tables (RULES.md 10)


def from_the_farm() -> Client:
    return Client(REMOTE_ADDR=FARM)


def sign_up(name: str) -> tuple[int, Client]:
    browser = from_the_farm()
    answer = browser.post(reverse("accounts:signup"),
                          {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    return answer.status_code, browser


def farm_once(farmer: Client, helper: Client) -> Match:
    """The farmer opens a rated 2-seat table; the helper joins it and leaves at once."""
    post_form(farmer, reverse("games:create_request"), {"players": "2", "fish": "all", "turn_seconds": "10", "rated": "on"})
    match = Match.objects.filter(created_by__username="farmer").latest("created_at")
    helper.post(reverse("games:join_request", args=[match.pk]))
    helper.post(reverse("games:room_leave", args=[match.pk]))
    match.refresh_from_db()
    return match


def test_sign_ups_then_the_leave_at_once_loop_gain_nothing_and_the_moderators_see_both_signs(
        make_user):
    names = ["farmer", "helper"] + [f"sock{n}" for n in range(13)]
    answers = [sign_up(name) for name in names]
    assert [code for code, _browser in answers] == [302] * 5 + [429] * 10
    assert User.objects.count() == 5
    farmer, helper = answers[0][1], answers[1][1]  # each is logged in as the one it made

    games = [farm_once(farmer, helper) for _ in range(LOOPS)]
    assert {game.status for game in games} == {MatchStatus.ABORTED}
    assert all(game.rated for game in games)
    farmer_player = Player.objects.get(user__username="farmer")
    assert (farmer_player.rating, farmer_player.games_played) == (0, 0)  # rated as interrupts: +10
    assert not RatingRecord.objects.exists()
    # The 3rd leave barred the helper: a 4th join of a rated table is refused.
    post_form(farmer, reverse("games:create_request"),
              {"players": "2", "fish": "all", "turn_seconds": "10", "rated": "on"})
    fourth = Match.objects.filter(created_by__username="farmer").latest("created_at")
    refused = helper.post(reverse("games:join_request", args=[fourth.pk]), follow=True)
    assert "Вам нельзя садиться за рейтинговые столы до" in refused.content.decode()
    assert fourth.seats.count() == 1

    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    watcher = Client()
    watcher.force_login(User.objects.get(pk=moderator.pk))
    page = watcher.get(reverse("moderation:suspicious")).content.decode()
    shared = re.search(r'data-list="shared-address">(.*?)</ul>', page, re.S).group(1)
    pairs = re.search(r'data-list="meeting-pairs">(.*?)</ul>', page, re.S).group(1)
    farmer_link = reverse("moderation:player", args=["farmer"])
    helper_link = reverse("moderation:player", args=["helper"])

    # One address at one table: every game of the loop, with its link, the address and
    # both accounts' links.
    rows = re.findall(r"<li>(.*?)</li>", shared, re.S)
    assert len(rows) == LOOPS
    for game in games:
        row = next(row for row in rows if reverse("moderation:game", args=[game.pk]) in row)
        assert FARM in row and farmer_link in row and helper_link in row
    # The pair that keeps meeting: three games together, three exits by the helper, and
    # a link to each of those games.
    assert farmer_link in pairs and helper_link in pairs
    assert re.search(r'data-count="games">3<', pairs)
    exits = dict(re.findall(r'(\w+) <b data-count="(?:first|second)-exits">(\d+)<', pairs))
    assert exits == {"farmer": "0", "helper": "3"}
    for game in games:
        assert reverse("moderation:game", args=[game.pk]) in pairs
