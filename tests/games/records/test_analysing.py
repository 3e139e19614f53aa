"""games.records.analysing: the clock's worker processes make an analysis a decision at a
time, never more decisions at once than the pool has workers (a master's search waits
behind one at most), and the result is the analysis made at once."""

import time

import pytest

from games.models import Analysis, AnalysisStatus
from games.play import thinking, workers
from games.records import analysing, analysis

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_budget(settings):
    settings.KOZEL_ANALYSIS_PLAYOUTS = 4
    settings.KOZEL_ANALYSIS_SECONDS = None  # the same worlds however loaded the machine


@pytest.fixture
def pool(monkeypatch):
    monkeypatch.setattr(analysing, "LOOK_EVERY", 0.0)
    workers.start(1)
    yield workers
    workers.stop()
    analysing._making.clear()


def made_by_the_sweeps(finished) -> tuple[Analysis, int]:
    """Sweep until the analysis is made: it, and the most decisions ever under way."""
    asked = analysis.request(finished)
    most, end = 0, time.monotonic() + 120
    while time.monotonic() < end:
        analysing.sweep()
        most = max(most, sum(len(m.under_way) for m in analysing._making.values()))
        made = Analysis.objects.get(pk=asked.pk)
        if made.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
            return made, most
        time.sleep(0.01)
    raise AssertionError("the analysis was never made")


def test_the_workers_make_the_analysis_made_at_once(finished, quick_budget, pool):
    made, most = made_by_the_sweeps(finished)
    assert made.status == AnalysisStatus.DONE, made.error
    assert most == workers.size() == 1
    assert made.done == made.total == len(made.result["decisions"]) > 1
    Analysis.objects.all().delete()
    at_once = analysis.request(finished)
    assert analysis.run_next("here") == at_once.pk
    assert Analysis.objects.get(pk=at_once.pk).result == made.result


def test_a_master_asking_meanwhile_searches_its_share(finished, pool, settings):
    settings.BOT_MASTER_SECONDS = 0.5
    settings.KOZEL_ANALYSIS_PLAYOUTS, settings.KOZEL_ANALYSIS_SECONDS = 10**6, 2.0  # slow
    analysis.request(finished)
    for _sweep in range(3):
        analysing.sweep()
    assert analysing.making_now() == 1 and workers.busy() == 1
    assert thinking.share() == pytest.approx(0.5 / 3)  # one worker, one decision under way


def test_an_analysis_taken_from_this_process_is_dropped(finished, quick_budget, pool):
    asked = analysis.request(finished)
    analysing.sweep()
    assert analysing.making_now() == 1
    Analysis.objects.filter(pk=asked.pk).update(worker="another")  # queued again, taken
    analysing._making[asked.pk].written = (-1, 0.0)  # its progress is due
    analysing.sweep()
    assert analysing.making_now() == 0
    assert Analysis.objects.get(pk=asked.pk).worker == "another"
