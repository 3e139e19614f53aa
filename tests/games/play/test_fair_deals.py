"""Real games deal by kozel-fair/1 (RECORD.md, "Verifiable deals"): from the server seed
drawn with the request and the seats' client seeds, redeals included, every round."""

import hashlib
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from games import rules
from games.lobby import service as requests
from games.models import Match, MatchStatus, Move
from games.play import service as services
from games.play.errors import PlayError
from games.rules import fair

from .test_service import play_out
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db


def deals_of(match):
    return [m.payload for m in Move.objects.filter(match=match, kind="deal").order_by("number")]


def test_a_request_draws_its_seed_and_commitment_when_it_is_made(make_user):
    match = requests.create_request(make_user("masha"), players=3, client_seed="my own seed")
    match.refresh_from_db()
    assert len(bytes(match.server_seed)) == fair.SEED_BYTES
    assert match.commitment == hashlib.sha256(bytes(match.server_seed)).hexdigest()
    assert match.seats.get(number=0).client_seed == "my own seed"


def test_every_round_of_a_whole_game_is_dealt_from_the_stored_seeds(make_user):
    people = [make_user(f"f{n}") for n in range(3)]
    match = requests.create_request(people[0], players=3, client_seed="zero")
    requests.join_request(people[1], match.pk, client_seed="one ~ !")
    requests.join_request(people[2], match.pk)  # no seed given: the server made one
    play_out(match, people)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    client_seeds = match.client_seeds
    assert client_seeds[:2] == ["zero", "one ~ !"] and len(client_seeds[2]) == 32
    dealt = deals_of(match)
    assert len(dealt) > 1
    for number, deal in enumerate(dealt, 1):
        expected, _attempt = fair.fair_deal(bytes(match.server_seed), number, client_seeds)
        assert deal == expected.to_json(), f"round {number}"


def test_a_pair_game_deals_every_round_from_its_seeds(make_user):
    """Pairs (RULES.md 11) change the scoring, not the dealing: the same seeds, the same
    deals, four hands and no bazaar."""
    people = [make_user(f"p{n}") for n in range(4)]
    match = requests.create_request(people[0], players=4, pairs=True, client_seed="a")
    for person in people[1:]:
        requests.join_request(person, match.pk)
    play_out(match, people)
    match.refresh_from_db()
    assert match.pairs and match.status == MatchStatus.FINISHED
    dealt = deals_of(match)
    assert len(dealt) > 1
    for number, deal in enumerate(dealt, 1):
        expected, _attempt = fair.fair_deal(bytes(match.server_seed), number,
                                            match.client_seeds)
        assert deal == expected.to_json(), f"round {number}"


def test_a_table_of_bots_deals_from_the_bots_seat_numbers(make_user):
    match = requests.play_with_bots(make_user("alone"), 4, client_seed="abc")
    assert match.client_seeds == ["abc", "1", "2", "3"]
    assert deals_of(match)[0] == fair.fair_deal(bytes(match.server_seed), 1,
                                                ["abc", "1", "2", "3"])[0].to_json()


def a_seed_that_needs_a_redeal(seats):
    """Client seeds whose first attempt at round 1 must be redealt (RULES.md 3)."""
    server_seed = bytes(range(32))
    for n in range(100_000):
        client_seeds = [f"redeal-{n}"] + [str(s) for s in range(1, seats)]
        deal, attempt = fair.fair_deal(server_seed, 1, client_seeds)
        if attempt > 0:
            return server_seed, client_seeds, deal, attempt
    raise AssertionError("no redeal found")


def test_a_hand_that_must_be_redealt_takes_the_next_attempt(make_user, make_match):
    server_seed, client_seeds, deal, attempt = a_seed_that_needs_a_redeal(2)
    first = fair.attempt_deal(server_seed, 1, 0, client_seeds)
    assert any(rules.needs_redeal(h) for h in first.hands)
    match = make_match([make_user("r1"), None], server_seed=server_seed,
                       commitment=fair.commitment(server_seed))
    match.seats.filter(number=0).update(client_seed=client_seeds[0])
    services.start(match)
    assert deals_of(match)[0] == deal.to_json() != first.to_json()


def test_the_clocks_next_deal_reads_the_seeds_from_the_database(make_user):
    """The next deal is made by whichever process's clock finds the pause over, from the
    match as stored: the same deal in any of them, after a restart too."""
    people = [make_user("c1"), make_user("c2")]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    from ..conftest import play_first_round
    play_first_round(match, dict(enumerate(people)))
    match.refresh_from_db()
    assert services.run_due(match.pk, now=timezone.now() + timedelta(days=1))
    stored = Match.objects.get(pk=match.pk)
    assert deals_of(match)[1] == fair.fair_deal(bytes(stored.server_seed), 2,
                                                stored.client_seeds)[0].to_json()


@pytest.mark.parametrize("bad", ["x" * 65, "сид", "tab\there", "new\nline"])
@translation.override("en")
def test_a_bad_client_seed_is_refused_with_a_clear_message(make_user, bad):
    masha, alex = make_user("masha"), make_user("alex")
    with pytest.raises(PlayError, match="printable ASCII"):
        requests.create_request(masha, players=2, client_seed=bad)
    with pytest.raises(PlayError, match="printable ASCII"):
        requests.play_with_bots(masha, 2, client_seed=bad)
    match = requests.create_request(masha, players=2)
    with pytest.raises(PlayError, match="printable ASCII"):
        requests.join_request(alex, match.pk, client_seed=bad)
    assert match.seats.count() == 1


def test_the_lobby_forms_refuse_a_bad_client_seed(make_user, client):
    client.force_login(make_user("masha"))
    page = post_form(client, reverse("games:create_request"), {
        "players": 2, "fish": "all", "turn_seconds": 30, "client_seed": "сид",
        "rated": "on"}, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "printable ASCII" in text and "<details class=\"fair-seed\" open>" in text
    assert not Match.objects.exists()


def test_joining_with_a_bad_client_seed_says_why(make_user, client):
    match = requests.create_request(make_user("masha"), players=2)
    client.force_login(make_user("alex"))
    page = client.post(reverse("games:join_request", args=[match.pk]),
                       {"client_seed": "x" * 65}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "printable ASCII" in page.content.decode()
    assert match.seats.count() == 1


def test_without_javascript_the_server_makes_the_client_seed(make_user, client):
    client.force_login(make_user("masha"))
    post_form(client, reverse("games:create_request"), {"players": 2, "fish": "all", "turn_seconds": 30, "client_seed": ""})
    seed = Match.objects.get().seats.get().client_seed
    assert len(seed) == 32 and int(seed, 16) >= 0


def test_the_forms_carry_the_client_seed_field_under_its_disclosure(make_user, client):
    match = requests.create_request(make_user("masha"), players=2)
    client.force_login(make_user("alex"))
    page = client.get(reverse("games:lobby")).content.decode()
    # create, bots, and the request's join button; all filled by static/js/fair.js
    assert page.count('name="client_seed"') == 3
    assert page.count("data-client-seed") == 3 and "js/fair.js" in page
    assert page.count('<details class="fair-seed"') == 3
    assert match.commitment in page
    invite = client.get(reverse("games:invite", args=[match.invite_token])).content.decode()
    assert 'name="client_seed"' in invite and match.commitment in invite
    # The invitation's join fills its seed in the browser too, under the same disclosure.
    assert "data-client-seed" in invite and "js/fair.js" in invite
    assert '<details class="fair-seed"' in invite


def test_the_room_shows_the_commitment_from_the_request_on(make_user, client):
    """A waiting request's room, to the person who made it and to a visitor: the
    commitment, and nothing of the seed."""
    masha = make_user("masha")
    match = requests.create_request(masha, players=3)
    room = reverse("games:room", args=[match.pk])
    for viewer in (masha, None):
        if viewer is not None:
            client.force_login(viewer)
        else:
            client.logout()
        page = client.get(room).content.decode()
        assert match.commitment in page and bytes(match.server_seed).hex() not in page


def test_a_downloaded_record_of_a_real_game_passes_replays_fair_check(make_user, client, tmp_path):
    """End to end: a game played through the site, its record downloaded from its page,
    and ``manage.py replay`` run on the file."""
    people = [make_user("d1"), make_user("d2")]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    play_out(match, people)
    client.force_login(people[0])
    # The game's page: the commitment, the revealed seed, every client seed and the
    # record to download, explained for players (no command line).
    page = client.get(reverse("records:game", args=[match.pk])).content.decode()
    for shown in [match.commitment, bytes(match.server_seed).hex(), *match.client_seeds,
                  reverse("records:download", args=[match.pk]), "Проверяемая раздача"]:
        assert shown in page
    assert "manage.py" not in page and "python" not in page.lower()
    response = client.get(reverse("records:download", args=[match.pk]))
    record = json.loads(response.content)
    assert record["fair"]["scheme"] == "kozel-fair/1"
    path = tmp_path / "game.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    result = json.loads(out.getvalue())
    assert "error" not in result and result["status"] == "finished"

    # The check is real: a record whose seed was changed after the game is refused.
    record["fair"]["client_seeds"][1] = "changed"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("replay", str(path), stdout=out)
    assert "kozel-fair/1" in json.loads(out.getvalue())["error"]


def test_a_match_without_seeds_keeps_working_and_its_record_has_no_fair_block(
        make_user, make_match, client):
    people = [make_user("o1"), make_user("o2")]
    match = make_match(people, server_seed=None)
    services.start(match)
    play_out(match, people)
    client.force_login(people[0])
    record = client.get(reverse("records:download", args=[match.pk])).json()
    assert "fair" not in record
    assert 'data-fair' not in client.get(reverse("records:game", args=[match.pk])).content.decode()
