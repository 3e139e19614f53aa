"""The analysis of a game that is over, as the site keeps it.

``request(match)`` asks for it (only for a game that is over; once: it is stored once
made); a worker ``claim``s a queued one with a compare-and-swap on its status, and
``run`` makes it (games.bots.analysis with the master's judgement), beating its
``heartbeat`` and counting its progress as it goes.  ``requeue_stale`` gives a running
one whose worker has stopped beating (it died, the site restarted) to the next worker.
The work itself runs in worker processes -- the clock's pool, a decision at a time
(games/records/analysing.py), or ``manage.py analyse`` -- never in a server's event loop.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from games import rules
from games.bots import analysis as judging
from games.models import OVER, Analysis, AnalysisStatus, Game, Match, MatchStatus
from games.records.log import record_of

log = logging.getLogger(__name__)

UNFINISHED = (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)


class NotAnalysable(Exception):
    """This game cannot be analysed: it is not over (a running game never is), or it is
    not a game the analysis judges (sea goat)."""


class Abandoned(Exception):
    """The analysis was taken from this worker (queued again after it seemed stopped)."""


def analysable(match: Match) -> bool:
    """Whether ``match`` may have an analysis: a Kozel game that is over, with a move."""
    return match.status in OVER and match.game == Game.KOZEL and match.state is not None


def request(match: Match) -> Analysis:
    """The game's analysis, asked for now unless it was before (then the same one; a
    failed one is queued again).  NotAnalysable for a game that is not over."""
    if not analysable(match):
        raise NotAnalysable("only a Kozel game that is over is analysed")
    analysis, created = Analysis.objects.get_or_create(match=match)
    if not created and analysis.status == AnalysisStatus.FAILED:
        Analysis.objects.filter(pk=analysis.pk, status=AnalysisStatus.FAILED).update(
            status=AnalysisStatus.QUEUED, attempts=0, error="", done=0, heartbeat=None)
        analysis.refresh_from_db()
    return analysis


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def claim(worker: str, analysis_id: int | None = None) -> int | None:
    """Take the oldest queued analysis (or that one) for ``worker``: its id, or None when
    there is none (or another worker took it first)."""
    queued = Analysis.objects.filter(status=AnalysisStatus.QUEUED)
    if analysis_id is not None:
        queued = queued.filter(pk=analysis_id)
    for candidate in queued.order_by("created_at", "pk").values_list("pk", flat=True)[:5]:
        now = timezone.now()
        taken = Analysis.objects.filter(pk=candidate, status=AnalysisStatus.QUEUED).update(
            status=AnalysisStatus.RUNNING, worker=worker, heartbeat=now, started_at=now,
            attempts=F("attempts") + 1)
        if taken:
            return candidate
    return None


def release(analysis_id: int, worker: str) -> None:
    """Give back an analysis ``worker`` claimed but could not start."""
    Analysis.objects.filter(pk=analysis_id, status=AnalysisStatus.RUNNING, worker=worker) \
        .update(status=AnalysisStatus.QUEUED, worker="", heartbeat=None,
                attempts=F("attempts") - 1)


def requeue_stale(now=None) -> int:
    """Queue again the running analyses without a sign of work for KOZEL_ANALYSIS_STALE
    seconds (those tried KOZEL_ANALYSIS_ATTEMPTS times fail instead); how many."""
    now = now or timezone.now()
    old = now - timedelta(seconds=settings.KOZEL_ANALYSIS_STALE)
    stale = Analysis.objects.filter(Q(heartbeat__lt=old) | Q(heartbeat__isnull=True),
                                    status=AnalysisStatus.RUNNING)
    if not stale.exists():  # a read: the sweep asks this often, and writes only when due
        return 0
    failed = stale.filter(attempts__gte=settings.KOZEL_ANALYSIS_ATTEMPTS).update(
        status=AnalysisStatus.FAILED, error="its worker stopped, too many times",
        finished_at=now)
    queued = stale.update(status=AnalysisStatus.QUEUED, worker="", heartbeat=None)
    if queued or failed:
        log.info("analysis: %d stopped one(s) queued again, %d failed", queued, failed)
    return queued


def judge_for(match: Match):
    """The master's judgement with the site's budget (settings), seeded by the game."""
    return judging.master_judge(**budget_of(match))


def budget_of(match: Match) -> dict:
    """The master's budget for each of ``match``'s decisions, and its seed: the same
    analysis whoever makes it, at once or a decision at a time."""
    return {"playouts": settings.KOZEL_ANALYSIS_PLAYOUTS,
            "seconds": settings.KOZEL_ANALYSIS_SECONDS, "seed": match.pk}


# Errors of the game, not of the worker: stored as the analysis's failure.
UNANALYSABLE = (judging.NotOver, judging.Unsupported, rules.RulesError, ValueError)


def _mine(analysis_id: int, worker: str):
    return Analysis.objects.filter(pk=analysis_id, status=AnalysisStatus.RUNNING, worker=worker)


def claimed_match(analysis_id: int, worker: str) -> Match | None:
    """The game of an analysis ``worker`` claimed (None when it is not its own)."""
    analysis = _mine(analysis_id, worker).select_related("match").first()
    return analysis.match if analysis is not None else None


def decisions_of(match: Match) -> list[judging.Decision]:
    """The decisions an analysis of ``match`` judges (an UNANALYSABLE error for a game
    it cannot judge)."""
    return list(judging.decisions(record_of(match), stopped=_stopped(match)))


def _stopped(match: Match) -> bool:
    # A moderator's abort, which the record does not name: analysed up to the stop.
    return match.status == MatchStatus.ABORTED


def progress(analysis_id: int, worker: str, done: int, total: int) -> None:
    """Count the work done, which is also the worker's sign of life; Abandoned when the
    analysis is no longer this worker's."""
    if not _mine(analysis_id, worker).update(done=done, total=total,
                                             heartbeat=timezone.now()):
        raise Abandoned(analysis_id)


def fail(analysis_id: int, worker: str, error: str) -> None:
    _mine(analysis_id, worker).update(status=AnalysisStatus.FAILED, error=error[:500],
                                      finished_at=timezone.now())


def store(analysis_id: int, worker: str, result: dict) -> None:
    """The analysis is made: stored once, for good."""
    _mine(analysis_id, worker).update(
        status=AnalysisStatus.DONE, result=result, finished_at=timezone.now(),
        done=len(result["decisions"]), total=len(result["decisions"]))


def run(analysis_id: int, worker: str, judge=None) -> bool:
    """Make a claimed analysis (``claim``) here and store it; False when it is not this
    worker's (any more).  A failure is stored as such, with its reason."""
    match = claimed_match(analysis_id, worker)
    if match is None:
        return False
    try:
        result = judging.analyse(record_of(match), judge or judge_for(match),
                                 stopped=_stopped(match),
                                 progress=lambda done, total: progress(analysis_id, worker,
                                                                       done, total))
    except Abandoned:
        log.info("analysis %s: taken from %s", analysis_id, worker)
        return False
    except UNANALYSABLE as error:
        fail(analysis_id, worker, str(error))
        return True
    except Exception as error:  # noqa: BLE001 -- stored, then told to the worker's log
        fail(analysis_id, worker, repr(error))
        log.exception("analysis %s failed", analysis_id)
        return True
    store(analysis_id, worker, result)
    return True


def run_next(worker: str, judge=None) -> int | None:
    """Claim the oldest queued analysis and make it here; its id, or None."""
    analysis_id = claim(worker)
    if analysis_id is not None:
        run(analysis_id, worker, judge)
    return analysis_id
