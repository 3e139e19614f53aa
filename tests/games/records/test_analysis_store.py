"""The analysis as the site keeps it (games/records/analysis.py): asked for once, only
for a game that is over, claimed by one worker, made and stored once; a stopped
worker's is queued again."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.utils import timezone

from accounts.moderators import GROUP_NAME
from games import rules
from games.moderation import service as moderation
from games.models import Analysis, AnalysisStatus, MatchStatus
from games.play import clock
from games.records import analysing, analysis
from games.records.shown import steps_of
from tests.ratings import played

pytestmark = pytest.mark.django_db


def quick_judge(state, seat):
    return {a: a.tile.pips / 10 for a in rules.legal_actions(state)}  # rating points


@pytest.fixture
def running(people):
    record = played.load("finished_rules8")
    return played.play(played.seat_table(people, record), people, record, rounds=1)


def test_a_running_game_is_never_analysed(running):
    assert running.status == MatchStatus.PLAYING
    with pytest.raises(analysis.NotAnalysable):
        analysis.request(running)
    assert not Analysis.objects.exists()


def test_it_is_asked_for_once(finished):
    first = analysis.request(finished)
    again = analysis.request(finished)
    assert first.pk == again.pk and Analysis.objects.count() == 1
    assert first.status == AnalysisStatus.QUEUED


def test_one_worker_makes_it_and_it_is_stored_once(finished):
    asked = analysis.request(finished)
    assert analysis.claim("w1") == asked.pk
    assert analysis.claim("w2") is None  # taken
    assert analysis.run(asked.pk, "w2", quick_judge) is False  # not w2's
    assert analysis.run(asked.pk, "w1", quick_judge) is True
    made = Analysis.objects.get(pk=asked.pk)
    assert made.status == AnalysisStatus.DONE and made.finished_at is not None
    assert made.done == made.total == len(made.result["decisions"]) > 0
    assert [p["seat"] for p in made.result["players"]] == [0, 1, 2]
    # Stored once: asking again gives it as it is, and nobody makes it again.
    assert analysis.request(finished).result == made.result
    assert analysis.claim("w1") is None
    assert analysis.run(asked.pk, "w1", quick_judge) is False


def test_a_stopped_worker_is_replaced(finished, settings):
    asked = analysis.request(finished)
    analysis.claim("gone")
    later = timezone.now() + timedelta(seconds=settings.KOZEL_ANALYSIS_STALE + 1)
    assert analysis.requeue_stale(timezone.now()) == 0  # still beating
    assert analysis.requeue_stale(later) == 1
    assert Analysis.objects.get(pk=asked.pk).status == AnalysisStatus.QUEUED
    assert analysis.run(asked.pk, "gone", quick_judge) is False  # no longer its own
    assert analysis.run_next("new", quick_judge) == asked.pk
    assert Analysis.objects.get(pk=asked.pk).status == AnalysisStatus.DONE


def test_one_tried_too_often_fails_and_may_be_asked_for_again(finished, settings):
    asked = analysis.request(finished)
    later = timezone.now() + timedelta(seconds=settings.KOZEL_ANALYSIS_STALE + 1)
    for _attempt in range(settings.KOZEL_ANALYSIS_ATTEMPTS):
        analysis.claim("gone")
        analysis.requeue_stale(later)
    assert Analysis.objects.get(pk=asked.pk).status == AnalysisStatus.FAILED
    assert analysis.request(finished).status == AnalysisStatus.QUEUED


def test_a_worker_whose_analysis_was_taken_stops(finished):
    asked = analysis.request(finished)
    analysis.claim("slow")
    calls = []

    def judge(state, seat):
        calls.append(1)
        if len(calls) == 3:  # meanwhile the sweep thought it stopped, and another took it
            Analysis.objects.filter(pk=asked.pk).update(worker="other")
        return quick_judge(state, seat)

    assert analysis.run(asked.pk, "slow", judge) is False
    assert len(calls) == 3
    assert Analysis.objects.get(pk=asked.pk).status == AnalysisStatus.RUNNING


def test_a_failure_is_stored(finished):
    asked = analysis.request(finished)
    analysis.claim("w")

    def broken(state, seat):
        raise RuntimeError("no judgement")

    assert analysis.run(asked.pk, "w", broken) is True
    failed = Analysis.objects.get(pk=asked.pk)
    assert failed.status == AnalysisStatus.FAILED and "no judgement" in failed.error


def test_a_process_without_workers_takes_none(finished):
    analysis.request(finished)
    analysing.sweep()
    assert Analysis.objects.get().status == AnalysisStatus.QUEUED


def test_the_command_makes_one_game_s(finished, monkeypatch):
    monkeypatch.setattr(analysis, "judge_for", lambda match: quick_judge)
    call_command("analyse", match=finished.pk)
    assert Analysis.objects.get(match=finished).status == AnalysisStatus.DONE


# -- the pages ------------------------------------------------------------------------

def test_the_game_page_offers_it_and_shows_it(client, finished):
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    assert 'data-action="analyse"' in page and f'/games/{finished.pk}/analysis/' in page
    part = client.post(f"/games/{finished.pk}/analysis/", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-analysis="queued"' in part and 'hx-trigger="every' in part
    assert client.post(f"/games/{finished.pk}/analysis/").status_code == 302  # no htmx
    assert Analysis.objects.count() == 1
    analysis.run_next("w", quick_judge)
    part = client.get(f"/games/{finished.pk}/analysis/").content.decode()
    assert 'data-analysis="done"' in part and "hx-trigger" not in part
    assert "data-analysis-summary" in part and "Masha" in part
    made = Analysis.objects.get()
    marked = [d for d in made.result["decisions"] if d["mark"]]
    assert part.count('data-mark="') == len(marked) > 0
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    assert "data-analysis-summary" in page


def test_the_replay_shows_the_better_choice_at_the_move(client, finished):
    analysis.request(finished)
    analysis.run_next("w", quick_judge)
    first = Analysis.objects.get().result["decisions"][0]
    steps = steps_of(finished)
    step = steps[first["round"], first["index"]]
    page = client.get(f"/games/{finished.pk}/replay/?step={step}").content.decode()
    assert "data-judged" in page and first["best"]["play"] in page
    assert "data-judged" not in client.get(f"/games/{finished.pk}/replay/?step=1").content.decode()


def test_no_page_for_a_running_game(client, running):
    assert client.post(f"/games/{running.pk}/analysis/").status_code == 302  # to its room
    assert not Analysis.objects.exists()


def test_one_claimed_but_not_started_is_given_back(finished):
    asked = analysis.request(finished)
    analysis.claim("w")
    analysis.release(asked.pk, "w")
    back = Analysis.objects.get(pk=asked.pk)
    assert back.status == AnalysisStatus.QUEUED and back.attempts == 0 and not back.worker


def test_the_clocks_sweep_queues_a_stopped_workers_again(finished, settings, monkeypatch):
    asked = analysis.request(finished)
    analysis.claim("gone")
    monkeypatch.setattr(analysing, "_last_look", 0.0)
    clock.sweep_once(timezone.now() + timedelta(seconds=settings.KOZEL_ANALYSIS_STALE + 1))
    assert Analysis.objects.get(pk=asked.pk).status == AnalysisStatus.QUEUED


def test_a_game_a_moderator_stopped_is_analysed_up_to_the_stop(running, make_user):
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    stopped = moderation.abort_game(running.pk, moderator, "stuck")
    assert stopped.status == MatchStatus.ABORTED
    asked = analysis.request(stopped)
    assert analysis.run_next("w", quick_judge) == asked.pk
    made = Analysis.objects.get(pk=asked.pk)
    assert made.status == AnalysisStatus.DONE, made.error
    assert made.result["decisions"]
