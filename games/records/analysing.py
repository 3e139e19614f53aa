"""Analyses made in the clock's worker processes (games/play/workers.py), beside the
masters' searches, a decision at a time.

The clock's sweep (registered in games/apps.py) drives them: now and then it queues
again what a stopped worker left and claims a queued analysis (``analysis.claim``, a
compare-and-swap, so the clocks of a scaled-out site and any ``manage.py analyse``
workers share the work).  Each decision judged hands the pool the next one at once --
never more at once than the pool has workers, so that a master's search waits behind at
most one decision per worker -- and every sweep counts the progress (the analysis's
sign of life) and stores the analysis once its last decision is judged.  Each decision
is judged as the analysis made at once would judge it (``judging.judge_decision``), so
the result does not depend on who made it.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from games.bots import analysis as judging
from games.play import workers
from games.records import analysis

log = logging.getLogger(__name__)

# Seconds between the sweep's looks at the database for stale or queued analyses.
LOOK_EVERY = 1.0
# Analyses one process makes at once (each keeps up to the pool's size of decisions
# under way; a second would only share those workers).
AT_ONCE = 1
# Seconds between writes of an analysis's progress.
PROGRESS_EVERY = 1.0


@dataclass
class _Making:
    """An analysis this process claimed and is making."""
    analysis_id: int
    worker: str
    seats: int
    budget: dict
    decisions: list
    todo: list[int]                                # the decisions not yet handed over
    under_way: dict[int, Future] = field(default_factory=dict)
    judged: dict[int, dict] = field(default_factory=dict)
    failure: Exception | None = None               # a decision's judge failed
    written: tuple[int, float] = (-1, 0.0)         # progress written: (done, when)


_lock = threading.RLock()  # the sweep's thread and the pool's, where judgements come back
_making: dict[int, _Making] = {}
_last_look = 0.0


def sweep(now=None) -> None:
    """The clock's: queue again the analyses of stopped workers, and make analyses in
    this process's pool (the one of the process that runs the clock)."""
    global _last_look
    looking = time.monotonic() - _last_look >= LOOK_EVERY
    if looking:
        _last_look = time.monotonic()
        analysis.requeue_stale(now)
    if not workers.running():
        with _lock:
            _making.clear()  # the pool stopped: their rows are queued again once stale
        return
    while looking and len(_making) < AT_ONCE and _claim():
        pass
    for making in list(_making.values()):
        _advance(making)


def making_now() -> int:
    """How many analyses this process is making."""
    return len(_making)


def _claim() -> bool:
    """Take the oldest queued analysis, if any; whether one was taken."""
    worker = analysis.worker_name()
    analysis_id = analysis.claim(worker)
    if analysis_id is None:
        return False
    match = analysis.claimed_match(analysis_id, worker)
    if match is None:
        return True
    try:
        found = analysis.decisions_of(match)
    except analysis.UNANALYSABLE as error:
        analysis.fail(analysis_id, worker, str(error))
        return True
    with _lock:
        _making[analysis_id] = _Making(analysis_id, worker, match.seats_count,
                                       analysis.budget_of(match), found,
                                       list(range(len(found))))
    log.info("analysis %s: %d decisions, in %d worker process(es)", analysis_id,
             len(found), workers.size())
    return True


def _advance(making: _Making) -> None:
    with _lock:
        failure, complete = making.failure, len(making.judged) == len(making.decisions)
        if failure is not None or complete:
            _drop(making)
        else:
            _hand_over(making)  # what a callback could not hand over (the pool was replaced)
    if failure is not None:
        analysis.fail(making.analysis_id, making.worker, repr(failure))
        log.error("analysis %s failed: %r", making.analysis_id, failure)
    elif complete:
        judged = [making.judged[n] for n in range(len(making.decisions))]
        analysis.store(making.analysis_id, making.worker,
                       judging.result_of(judged, making.seats))
        log.info("analysis %s: made", making.analysis_id)
    else:
        try:
            _write_progress(making)
        except analysis.Abandoned:
            with _lock:
                _drop(making)
            log.info("analysis %s: taken from %s", making.analysis_id, making.worker)


def _hand_over(making: _Making) -> None:
    """Give the pool the next decisions, up to one per worker over all analyses here."""
    under_way = sum(len(m.under_way) for m in _making.values())
    while making.todo and under_way < workers.size() and making.failure is None:
        number = making.todo[0]
        future = workers.submit(judging.judge_decision, making.decisions[number], number,
                                **making.budget)
        if future is None:  # the pool has just been replaced: the next sweep hands it
            return
        making.todo.pop(0)
        making.under_way[number] = future
        under_way += 1
        future.add_done_callback(lambda done, n=number: _judged(making, n, done))


def _judged(making: _Making, number: int, future: Future) -> None:
    """A decision's judgement came back (on the pool's thread): kept, and the next one
    handed over at once rather than at the next sweep, so the worker never idles
    between two decisions of an analysis."""
    with _lock:
        if making.under_way.get(number) is not future:
            return  # dropped meanwhile
        del making.under_way[number]
        try:
            making.judged[number] = future.result()
        except (BrokenProcessPool, CancelledError):  # a worker process died: again
            making.todo.insert(0, number)
            return  # the next sweep hands it to the new pool
        except Exception as error:  # noqa: BLE001 -- a judge's failure: the sweep stores it
            making.failure = error
            return
        if _making.get(making.analysis_id) is making:
            _hand_over(making)


def _write_progress(making: _Making) -> None:
    done, now = len(making.judged), time.monotonic()
    last_done, last_at = making.written
    # A write when the count moved (at most once a PROGRESS_EVERY), and now and then
    # anyway: the sign of life that keeps the analysis from being queued again.
    if (done != last_done and now - last_at >= PROGRESS_EVERY) \
            or now - last_at >= PROGRESS_EVERY * 5:
        analysis.progress(making.analysis_id, making.worker, done, len(making.decisions))
        making.written = (done, now)


def _drop(making: _Making) -> None:
    _making.pop(making.analysis_id, None)
    under_way = list(making.under_way.values())
    making.under_way.clear()  # so that the cancelled ones' callbacks find nothing
    for future in under_way:
        future.cancel()
