"""The page of a game that is over, its record to download, and the replay viewer."""

import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command

from games.play import service as services
from games.models import RoundScore
from tests.ratings import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def interrupted(people):
    record = played.load("interrupted_rules9")
    users = [people[0], people[2], people[1]]
    match = played.play(played.seat_table(users, record), users, record)
    services.run_due(match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    return match


def cells(page: str) -> list[str]:
    """The score table's cells, as text with the colour marks kept: R12 red, Y+9 yellow."""
    table = page.split('class="score-table"')[1].split("</table>")[0]
    found = []
    for cell in re.findall(r'<td class="cell">(.*?)</td>', table, re.S):
        text = re.sub(r'<b class="score"[^>]*>(\d+)</b>', r"R\1 ", cell)
        text = re.sub(r'<b class="remembered"[^>]*>\+(\d+)</b>', r"Y+\1 ", text)
        text = re.sub(r'<svg class="fish-icon".*?</svg>', " 🐟 ", text, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        found.append(" ".join(text.split()))
    return found


def test_the_page_of_a_finished_game(client, finished):
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    for text in ("Masha", "Alex", "Olya", "козёл", ">+8<", ">+10<", ">+0<"):
        assert text in page, text
    assert f'href="/games/{finished.pk}/record.json"' in page
    assert f'href="/games/{finished.pk}/replay/"' in page
    table = cells(page)
    assert len(table) == 4 * 3
    # Round 1 was a fish: Masha opened with 19, Alex (9) and Olya (12) remembered theirs.
    assert table[:3] == ["0 🐟 19 R19", "0 🐟 9 Y+9", "0 🐟 12 Y+12"]
    # Round 2: Masha went out; Alex opened with 9 + 55; Olya remembers 12 + 7.
    assert table[3:6] == ["R19 выход R19", "Y+9 55 R64", "Y+12 7 Y+19"]
    # The last round: Alex passes 101 and is the goat.
    assert table[-3:] == ["R19 🐟 6 R25", "R72 🐟 38 R110", "Y+29 🐟 10 Y+39"]


def test_the_page_of_an_interrupted_game(client, interrupted):
    page = client.get(f"/games/{interrupted.pk}/record/").content.decode()
    assert "Alex" in page and "время" in page   # ran out of time, in Russian
    assert [">+1<" in page, ">+2<" in page] == [True, True]
    assert len(cells(page)) == 2 * 3


def test_the_record_download_replays_to_the_same_game(client, finished, tmp_path):
    response = client.get(f"/games/{finished.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="kozel-{finished.pk}.json"'
    path = tmp_path / "game.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["status"] == "finished"
    assert summary["goats"] == finished.result["goats"]
    assert summary["rating_points"] == finished.result["rating_points"]
    rows = RoundScore.objects.filter(match=finished).order_by("round_number", "seat")
    for number, scored in enumerate(summary["rounds"], 1):
        mine = [r for r in rows if r.round_number == number]
        assert scored["points"] == [r.points for r in mine]
        assert scored["credited"] == [r.credited for r in mine]
        assert scored["scores"] == [r.score_after for r in mine]
        assert scored["remembered"] == [r.remembered_after for r in mine]
        assert scored["bank"] == mine[0].bank_after
    assert json.loads(response.content) == played.load("finished_rules8").to_json()


def test_an_interrupted_record_replays_to_its_interruption(client, interrupted, tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(client.get(f"/games/{interrupted.pk}/record.json").content)
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    summary = json.loads(out.getvalue())
    assert (summary["status"], summary["interrupted_by"], summary["rating_points"]) == (
        "interrupted", 2, [1, 2, 0])


def test_a_running_game_has_no_record_or_replay_yet(client, people):
    record = played.load("interrupted_rules9")
    match = played.play(played.seat_table(people, record), people, record, rounds=1)
    for suffix in ("record/", "record.json", "replay/"):
        response = client.get(f"/games/{match.pk}/{suffix}")
        assert response.status_code == 302 and response["Location"] == f"/games/{match.pk}/", suffix


def test_a_private_game_is_shown_to_its_players_and_moderators_only(client, finished, people,
                                                                    make_user):
    from django.contrib.auth.models import Group

    from accounts.moderators import GROUP_NAME

    finished.private = True
    finished.save()
    pages = [f"/games/{finished.pk}/{suffix}" for suffix in ("record/", "record.json", "replay/")]
    assert [client.get(page).status_code for page in pages] == [404] * 3
    client.force_login(people[1])
    assert [client.get(page).status_code for page in pages] == [200] * 3
    client.force_login(make_user("clerk", is_staff=True))  # staff, but no moderator
    assert [client.get(page).status_code for page in pages] == [404] * 3
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(moderator)
    assert [client.get(page).status_code for page in pages] == [200] * 3
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    assert [client.get(page).status_code for page in pages] == [200] * 3


def test_the_replay_steps_through_every_move_with_every_hand(client, finished):
    total = finished.moves.count()
    first = client.get(f"/games/{finished.pk}/replay/?step=1").content.decode()
    assert "Раунд 1" in first or "Round 1" in first
    record = played.load("finished_rules8")
    for hand in record.rounds[0].deal.hands:       # all three hands, face up
        for tile in hand:
            assert f'data-tile="{tile.name}"' in first
    for tile in record.rounds[0].deal.bazaar:      # and the bazaar
        assert f'data-tile="{tile.name}"' in first
    assert "?step=2" in first and "?step=0" in first

    second = client.get(f"/games/{finished.pk}/replay/?step=2").content.decode()
    assert "Masha" in second and "4-4" in second   # Masha leads the 4-4

    last = client.get(f"/games/{finished.pk}/replay/?step={total}").content.decode()
    assert f"?step={total + 1}" not in last and "козёл" in last.lower()
    beyond = client.get(f"/games/{finished.pk}/replay/?step=99999")
    assert beyond.status_code == 200 and f"{total}" in beyond.content.decode()
    assert client.get(f"/games/{finished.pk}/replay/?step=abc").status_code == 200

    # htmx asks for the viewer only, not the whole page.
    partial = client.get(f"/games/{finished.pk}/replay/?step=3", HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="replay"') and "<html" not in partial


def test_every_step_of_the_replay_renders(client, interrupted):
    for step in range(interrupted.moves.count() + 1):
        assert client.get(f"/games/{interrupted.pk}/replay/?step={step}").status_code == 200


def test_the_room_links_to_the_game_page_once_the_game_is_over(client, finished):
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert f'href="/games/{finished.pk}/record/"' in page


COMMAND_LINE = re.compile(r"manage\.py|python|sha256sum|openssl|\$ |pip install|curl ", re.I)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_players_pages_speak_to_players_not_in_command_lines(client, finished, people, language):
    """A game's page (its "check it" text), its replay and a player's page say what to
    check in words; no command line to type."""
    client.force_login(people[0])
    paths = [f"/games/{finished.pk}/record/", f"/games/{finished.pk}/replay/",
             f"/games/{finished.pk}/", "/players/Masha/", "/rules/", "/rules/fair/"]
    for path in paths:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, path
        page = response.content.decode()
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", page, flags=re.S)
        assert not COMMAND_LINE.search(text), (path, COMMAND_LINE.search(text).group(0))
    assert COMMAND_LINE.search("python manage.py replay game.json")  # the check can fail


def test_the_replay_names_an_end_by_the_value_it_showed(client, finished):
    """Issue 42, defect 6, in the replay viewer too: a play goes "к 4", never "слева"."""
    import re

    said = []
    for step in range(2, 12):
        page = client.get(f"/games/{finished.pk}/replay/?step={step}").content.decode()
        said += re.findall(r"ставит (\d-\d) к (\d)\.", page)
        assert "слева" not in page and "справа" not in page
    assert said and all(value in tile.split("-") for tile, value in said), said
