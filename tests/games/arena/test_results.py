"""The arena's page and ``manage.py arena`` agree: an arena played through the site,
exported, gives exactly the standings the page computes."""

import io
import json

import pytest
from django.core.management import call_command

from games.arena.results import arena_standings, document
from games.play import service as services

from .helpers import an_arena, give_seeds, join_all, play_to_end, seat_now

pytestmark = pytest.mark.django_db


def test_an_arena_played_through_the_site_exports_its_own_standings(make_user, tmp_path):
    people = [make_user(f"игрок{n}") for n in range(4)]
    users = {p.pk: p for p in people}
    arena = an_arena(seats=2)
    join_all(arena, people)
    first, second = seat_now(arena)
    for match in (first, second):
        give_seeds(match, users)
    play_to_end(first, users, seed=1)
    services.leave_game(second.pk, second.seats.get(number=0).user)  # aborted in round 1
    for match in seat_now(arena):
        give_seeds(match, users)
        play_to_end(match, users, seed=2)

    page = arena_standings(arena)
    names = {p.pk: p.username for p in people}
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(document(arena), ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    call_command("arena", str(path), stdout=out)
    printed = json.loads(out.getvalue())
    assert printed == {"standings": [s.as_json(names[s.player]) for s in page]}
    assert sum(s["games"] for s in printed["standings"]) == 2 * 4  # 4 games of 2
    assert any(s["points"] for s in printed["standings"])


def test_the_export_page_gives_the_document(client, make_user):
    people = [make_user(f"p{n}") for n in range(2)]
    arena = an_arena(seats=2)
    join_all(arena, people)
    response = client.get(f"/arenas/{arena.pk}/export/")
    assert response.status_code == 200
    assert json.loads(response.content) == document(arena)
    assert json.loads(response.content)["players"] == [{"name": "p0", "joined": 1},
                                                       {"name": "p1", "joined": 2}]
