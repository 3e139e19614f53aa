"""A person asks for a finished game's analysis on its page and sees it appear: its
progress while the clock's worker processes make it, then each player's summary; the replay viewer then shows the choices at a judged move."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_game(make_user):
    from tests.ratings import played

    players = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    record = played.load("finished_rules8")
    return played.play(played.seat_table(players, record), players, record), players


@pytest.fixture
def quick_server(transactional_db, tmp_path):
    """A server whose master judges each decision with a few playouts only."""
    from tests.daphne_server import DaphneServer, live_server_env

    server = DaphneServer(env=live_server_env(KOZEL_ANALYSIS_PLAYOUTS="8"), log_dir=tmp_path)
    server.start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def test_an_analysis_is_asked_for_and_appears(finished_game, browser, quick_server):
    from games.models import Analysis, AnalysisStatus
    from games.records.shown import steps_of
    from tests.e2e.conftest import DESKTOP, Person

    match, (masha, _alex, _olya) = finished_game
    person = Person(browser, quick_server, "masha", DESKTOP)
    try:
        person.log_in_as(masha, quick_server)
        page = person.page
        page.goto(f"/games/{match.pk}/record/")
        section = page.locator("#analysis")
        assert "Анализ партии" in section.inner_text()
        page.locator('#analysis [data-action="analyse"]').click()
        # Queued or running first (the page polls), then done: the summary per player.
        page.locator("#analysis[data-analysis]:not([data-analysis='none'])").wait_for()
        page.locator("#analysis [data-analysis-summary]").wait_for(timeout=90_000)
        rows = page.locator("#analysis [data-analysis-summary] tbody tr")
        assert rows.count() == 3
        assert "Masha" in rows.nth(0).inner_text()
        made = Analysis.objects.get(match=match)
        assert made.status == AnalysisStatus.DONE and made.done == made.total > 0
        # The replay viewer shows the choices at a judged move, the best marked.
        first = made.result["decisions"][0]
        step = steps_of(match)[first["round"], first["index"]]
        page.goto(f"/games/{match.pk}/replay/?step={step}")
        judged = page.locator("[data-judged]")
        judged.wait_for()
        assert judged.locator(".choices li").count() == len(first["choices"])
        assert judged.locator(".choices li.best").count() == 1
        assert not person.errors and not person.refused, person.errors + person.refused
    finally:
        person.context.close()
