"""The room frame (games/room/html.py, templates/games/room/): whole games rendered for
every seat and a spectator, in Russian and English, stay well-formed, translated and
escaped; and a viewer's frame is the same whoever was shown the version first."""

import re
from html.parser import HTMLParser

import pytest
from django.utils import translation

from games import rules
from games.room import cache as snapshots, html as room_html
from games.play import service as services
from games.lobby import service as requests
from games.models import Match, MatchStatus
from games.room.present import seat_context, table_context

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db

VOID = {"br", "img", "input", "meta", "link", "hr", "circle", "line", "rect", "path", "use"}


class Balance(HTMLParser):
    """Fails on a closing tag that does not match the open one."""

    def __init__(self):
        super().__init__()
        self.open = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.open and self.open[-1] == tag, (tag, self.open[-3:])
        self.open.pop()


def well_formed(frame: str) -> None:
    parser = Balance()
    parser.feed(frame)
    parser.close()
    assert parser.open == []


# English texts of the room that must never reach a Russian page.
ENGLISH = ("Your turn", "bazaar", "Round ", "Score table", "Draw from the bazaar",
           "went out", "Fish, placed by", "The game is over", "Goat", "fish for all",
           "Tiles in hand", "Back to the lobby", "rating +", "credited", "The table",
           "on the ", "open end", "draws from", "knocks", "leads", "points left",
           "fish bank", "score opened", "remembered", "round points")


def frames_of_a_whole_game(make_user, language):
    people = [make_user(f"рамка{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    frames, previous = [], None
    for match in played_through(match, people):
        snapshot = snapshots.load(match.pk, previous)
        previous = snapshot
        for seat in (0, 1, 2, None):
            frames.append((match.status, seat, snapshots.render(snapshot, seat, language)))
    return frames


def played_through(match, people):
    """The match at every version of a whole game: moved on after each is looked at."""
    for _step in range(3000):
        match.refresh_from_db()
        yield match
        if match.status != MatchStatus.PLAYING:
            return
        state = state_of(match)
        if state.phase != rules.PLAYING:
            services.run_due(match.pk, now=match.deadline)
            continue
        services.act(match.pk, people[state.turn], human_move(match, state.turn), match.version)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_frame_of_a_game_is_well_formed_and_in_the_chosen_language(make_user, language):
    frames = frames_of_a_whole_game(make_user, language)
    assert frames[-1][0] == MatchStatus.FINISHED
    for status, seat, frame in frames:
        well_formed(frame)
        assert frame.startswith('<div id="room" class="seat-part" hx-swap-oob="true" data-game')
        assert '<div id="table" class="table" hx-swap-oob="true"' in frame
        if seat is None or status == MatchStatus.PLAYING:
            assert ("data-hand" in frame) == (seat is not None)
        if language == "ru":  # the texts, and the labels a screen reader says
            text = re.sub(r"<[^>]*>", " ", frame) + " ".join(
                re.findall(r'(?:aria-label|title)="([^"]*)"', frame))
            assert not [w for w in ENGLISH if w in text], [w for w in ENGLISH if w in text]
    last = frames[-1][2]
    assert ("Козёл" if language == "ru" else "Goat") in last
    assert ("Игра окончена" if language == "ru" else "The game is over") in last


def test_names_are_escaped(make_user):
    people = [make_user("masha5"), make_user("alex5")]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    match = Match.objects.get(pk=match.pk)
    seats = list(match.seats.select_related("user"))
    with translation.override("en"):
        table = table_context(match, state_of(match), seats)
        table["names"] = {0: "<b>x</b>", 1: "y"}
        for player in table["players"]:
            player["name"] = "<script>alert(1)</script>"
        table["turn_name"] = "<i>turn</i>"
        frame = room_html.seat(seat_context(table, 0)) + room_html.table(table)
    assert "<script>" not in frame and "<b>x" not in frame and "<i>turn" not in frame
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in frame
    well_formed(frame)


def test_a_frame_is_the_same_whether_or_not_other_seats_were_rendered_first(make_user):
    # The table is rendered once per version and shared by every viewer of it: nothing
    # of one seat may reach another's frame that way, whoever is shown it first.
    people = [make_user(f"общий{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    orders = [(0, 1, 2, None), (None, 2, 1, 0), (1, None, 0, 2), (2, 0, None, 1)]
    for step, match in enumerate(played_through(match, people)):
        shared = snapshots.load(match.pk)
        for seat in orders[step % len(orders)]:
            alone = snapshots.render(snapshots.load(match.pk), seat, "ru")
            together = snapshots.render(shared, seat, "ru")
            assert re.sub(r'data-now="\d+"', "", together) == re.sub(r'data-now="\d+"', "", alone)
