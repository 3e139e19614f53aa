"""Every page of the site in Chromium, on a phone (390×844, touch) and a desktop
(1440×900), with content in it: nothing scrolls sideways, no element is wider than the
viewport or spills out of its box, no icon is drawn over 64 px, axe-core reports no
serious or critical violation, every text has a contrast of at least 4.5:1, a phone is
not told about keys, nothing is refused by the Content-Security-Policy, and a screenshot
of each is kept in test-artifacts/screenshots/<page>-<size>.png for a person to look at
(page_checks.py).

One server and one browser for the whole list; each page and size is a subtest, so one
run reports every page's problems.  The game room is seen through its stable hooks only
(``#room``, ``data-status``, ``[data-hand]``) and the first message of its socket, so that
the checks hold however the room draws itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .page_checks import DEVICES, SIZES, problems_of
from .staging import a_moment, between_rounds, played_rounds, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Noted in the page (an init script, before any of the page's own): that a socket of the
# page has had its first message and the page has handled it, as <html data-socket-heard>.
# The room's first frame replaces what the page was served with, so the checks wait for it.
SOCKET_HEARD = """(() => {
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => setTimeout(() => {
        document.documentElement.dataset.socketHeard = "";
      }));
    }
  };
})();"""
HEARD = "html[data-socket-heard]"


@dataclass
class Page:
    name: str     # the screenshot's name
    who: str      # the login of who looks at it; "" for a visitor
    path: str
    ready: tuple = ("main",)  # selectors there once the page shows what it is for


@dataclass
class Site:
    people: dict  # login: user, of everyone who looks at a page
    pages: list[Page]


def reported_chat_line(match, author, reporter):
    from games.models import ChatMessage, ChatReport

    line = ChatMessage.objects.create(match=match, author=author, room="players",
                                      text="сам ты козёл")
    ChatReport.objects.create(message=line, reporter=reporter)


def pair_game(players):
    """A pair game (RULES.md 11) after its first round, fish for all: it goes on, its
    next deal an hour away so that it stays there while the test looks."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match
    from tests.ratings import played

    record = played.load("pairs_fish")
    record.fish = "all"
    match = played.seat_table(players, record)
    match.pairs = True
    match.save(update_fields=["pairs"])
    match = played.play(match, players, record)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(hours=1))
    return match


def suspicious_pair(make_user):
    """Two accounts from one address that met in three rated games, each left in round
    1: both of the suspicious page's lists have something."""
    from games.lobby import service as requests
    from games.play import service as services

    first = make_user("Konstantin_Konstantinopolsky")
    second = make_user("Aleksandra_Vasilievna_1990")
    for leaver in (first, second, first):
        match = requests.create_request(first, players=2, address="2001:db8:85a3::8a2e:370:7334")
        requests.join_request(second, match.pk, address="2001:db8:85a3::8a2e:370:7334")
        services.leave_game(match.pk, leaver)
    return first


@pytest.fixture
def finished_game(make_user):
    """A game with fish rounds played to its end."""
    from tests.ratings import played

    players = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    record = played.load("finished_rules8")
    return played.play(played.seat_table(players, record), players, record), players


@pytest.fixture
def site(finished_game, make_user, make_match):
    """Games at every moment the pages show, and the list of pages with who looks at
    each."""
    from django.contrib.auth.models import Group

    from accounts import friends
    from accounts.moderators import GROUP_NAME
    from games import rules
    from games.lobby import service as requests
    from games.moderation import service as moderation
    from games.play import notify

    finished, (masha, alex, olya) = finished_game
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    with notify.collected():  # nobody is listening yet
        mid_round = running_match(make_match, [masha, alex, None],
                                  a_moment(lambda s: s.turn == 0 and any(s.scores), seats=3))
        summary = running_match(make_match, [masha, olya], between_rounds())
        pairs = pair_game([make_user("Sasha"), masha, make_user("Dima"), alex])
        vera = make_user("Vera")  # her request waits in the lobby; she is at no game
        requests.create_request(vera, players=4, fish=rules.FISH_ONE)
        reported_chat_line(mid_round, alex, masha)
        leaver = suspicious_pair(make_user)
        moderation.deactivate_player(leaver, moderator, "Играет сам с собой.")
        moderation.reactivate_player(leaver, moderator, "Объяснился, открыт снова.")
        # Four at a table, three rounds played: a score table of four columns, shut while
        # a round is played and open between rounds (it scrolls sideways on a phone).
        four = [masha, make_user("Aleksandra_Petrova"), make_user("Vladislav_Ivanov"),
                make_user("Ekaterina_Smirnova")]
        four_playing = played_rounds(four, rounds=3)
        four_between = played_rounds(four, rounds=3, deal_next=False)
        quarrel = requests.create_request(make_user("Petya"), players=3)
        moderation.abort_game(quarrel.pk, moderator, "Заявка с оскорбительным названием.")
        for friend in (vera, alex, olya):  # Masha's friends page: a request, games, a seat
            friends.follow(masha, friend)

    game = f"/games/{finished.pk}"
    pages = [
        Page("login", "", "/accounts/login/", ("main form",)),
        Page("signup", "", "/accounts/signup/", ("main form",)),
        Page("rules", "", "/rules/"),
        Page("rules-fair", "", "/rules/fair/"),
        Page("lobby", "Vera", "/"),
        Page("room-mid-round", "Masha", f"/games/{mid_round.pk}/",
             ("#room[data-status=playing] [data-hand]", HEARD)),
        Page("room-summary", "Masha", f"/games/{summary.pk}/", ("#room[data-status=playing]", HEARD)),
        Page("room-game-end", "Masha", f"{game}/", ("#room[data-status=finished]", HEARD)),
        Page("room-pairs", "Masha", f"/games/{pairs.pk}/", ("#room[data-status=playing]", HEARD)),
        Page("room-four-mid-round", "Masha", f"/games/{four_playing.pk}/",
             ("#room[data-status=playing] [data-hand]", "#round-table details", HEARD)),
        Page("room-four-summary", "Masha", f"/games/{four_between.pk}/",
             ("#room[data-status=playing]", "#round-table details[open]", HEARD)),
        Page("game", "Masha", f"{game}/record/"),
        Page("replay", "Masha", f"{game}/replay/?step=5"),
        Page("ladder", "Masha", "/ratings/"),
        Page("player", "Masha", "/players/Masha/"),
        Page("player-other", "Vera", "/players/Masha/", ('[data-testid="friend-actions"]',)),
        Page("friends", "Masha", "/friends/", ('[data-friend="Vera"]',)),
        Page("moderation-log", "moder", "/moderation/"),
        Page("moderation-chat", "moder", "/moderation/chat/"),
        Page("moderation-suspicious", "moder", "/moderation/suspicious/"),
        Page("moderation-player", "moder", f"/moderation/players/{leaver.username}/"),
        Page("moderation-game", "moder", f"/moderation/games/{finished.pk}/"),
    ]
    return Site(people={"Masha": masha, "Vera": vera, "moder": moderator}, pages=pages)


# The server first, then the games: a clock's first sweep gives every running turn its
# full time again (RULES.md 9, a restart), which would move on the games set up to stay put.
def test_every_page_at_both_sizes(browser, daphne_server, site, subtests):
    from tests.e2e.conftest import Person

    for size, viewport in SIZES.items():
        device = DEVICES[size]
        people = {"": Person(browser, daphne_server, "visitor", viewport, **device)}
        for login, user in site.people.items():
            people[login] = Person(browser, daphne_server, login, viewport, **device)
            people[login].log_in_as(user, daphne_server)
        for person in people.values():
            person.context.add_init_script(SOCKET_HEARD)
        try:
            for page in site.pages:
                person = people[page.who]
                with subtests.test(msg=f"{page.name} at {size}"):
                    person.page.goto(page.path)
                    for selector in page.ready:
                        person.page.wait_for_selector(selector, state="attached")
                    problems = problems_of(person.page, page.name, size)
                    assert problems == [], (f"{page.name} ({page.path}) at {size}:\n"
                                             + "\n".join(problems))
            for person in people.values():
                assert person.errors == [] and person.refused == []
        finally:
            for person in people.values():
                person.context.close()
