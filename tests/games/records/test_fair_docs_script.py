"""The script of docs/fair-deals.md, run as a player runs it (standard library only, with
nothing of the site's on its path), on records downloaded from the pages of games played
through the site: it recomputes every round's deal from the revealed seeds, and says so
round by round; a record whose deal was changed fails at that round."""

import json
import pathlib
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from games.lobby import service as requests
from games.models import Move, MoveKind

from ..play.test_service import play_out

pytestmark = pytest.mark.django_db
ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def check_deals(tmp_path):
    text = (ROOT / "docs" / "fair-deals.md").read_text()
    script = tmp_path / "check_deals.py"
    script.write_text(re.search(r"```python\n(.*?)```", text, re.S).group(1))

    def run(record: dict):
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record, ensure_ascii=False))
        # -I: isolated, so the script sees neither the project nor its virtualenv's packages.
        done = subprocess.run([sys.executable, "-I", str(script), str(path)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout.splitlines(), done.stderr
    return run


def downloaded_record(client, people, match) -> dict:
    client.force_login(people[0])
    response = client.get(reverse("records:download", args=[match.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.mark.parametrize("players, pairs", [(3, False), (4, True)])
def test_the_script_recomputes_every_deal_of_a_downloaded_record(make_user, client, check_deals,
                                                                 players, pairs):
    people = [make_user(f"doc{n}") for n in range(players)]
    match = requests.create_request(people[0], players=players, pairs=pairs, client_seed="own ~ seed")
    for person in people[1:]:
        requests.join_request(person, match.pk)
    play_out(match, people)
    record = downloaded_record(client, people, match)
    rounds = Move.objects.filter(match=match, kind=MoveKind.DEAL).count()
    assert len(record["rounds"]) == rounds > 1

    code, lines, errors = check_deals(record)
    assert code == 0, errors
    assert lines == (["commitment matches the seed: True"]
                     + [f"round {n}: as the seeds give" for n in range(1, rounds + 1)]
                     + ["all deals are fair"])

    # The last round's deal changed after the game: two seats' hands exchanged (with a
    # bazaar, its first two tiles too).  Only that round fails.
    last = record["rounds"][-1]
    last["hands"][0], last["hands"][1] = last["hands"][1], last["hands"][0]
    if last["bazaar"]:
        last["bazaar"][0], last["bazaar"][1] = last["bazaar"][1], last["bazaar"][0]
    code, lines, _errors = check_deals(record)
    assert code == 1
    assert lines[rounds] == f"round {rounds}: DOES NOT FOLLOW from the seeds"
    assert lines[1:rounds] == [f"round {n}: as the seeds give" for n in range(1, rounds)]


def test_the_script_refuses_a_seed_that_is_not_the_commitments(make_user, client, check_deals):
    people = [make_user("doc-a"), make_user("doc-b")]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    play_out(match, people)
    record = downloaded_record(client, people, match)
    record["fair"]["commitment"] = "0" * 64
    code, lines, _errors = check_deals(record)
    assert code == 1
    assert lines[0] == "commitment matches the seed: False" and lines[-1].startswith("this record")
