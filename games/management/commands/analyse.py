"""``manage.py analyse``: make the analyses people asked for (games/records/analysis.py).

Without arguments it is a worker: it takes queued analyses from the database, one at a
time, until stopped (any number of workers may run, beside the clocks' pools, which
make them too).  ``--match N`` asks for game N's analysis and makes it here, printing
how long it took.
"""

import os
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from games.models import Analysis, Match
from games.records import analysis


class Command(BaseCommand):
    help = "Make the analyses of finished games that people asked for."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, default=None,
                            help="ask for this game's analysis and make it now")
        parser.add_argument("--nice", type=int, default=None,
                            help="run at this niceness (the players' server comes first)")
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between looks for queued analyses")

    def handle(self, *args, match, nice, interval, **options):
        if nice is not None:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        if match is not None:
            return self.one_game(match)
        worker = analysis.worker_name()
        self.stdout.write(f"Kozel analysis worker {worker}: waiting for analyses (Ctrl-C stops).")
        try:
            while True:
                close_old_connections()
                analysis.requeue_stale()
                if analysis.run_next(worker) is None:
                    time.sleep(interval)
        except KeyboardInterrupt:
            pass

    def one_game(self, match_id: int):
        game = Match.objects.filter(pk=match_id).first()
        if game is None:
            raise CommandError(f"no game {match_id}")
        try:
            made = analysis.request(game)
        except analysis.NotAnalysable as error:
            raise CommandError(str(error))
        worker = analysis.worker_name()
        started = time.monotonic()
        if analysis.claim(worker, made.pk) is not None:
            analysis.run(made.pk, worker)
        made = Analysis.objects.get(pk=made.pk)
        self.stdout.write(f"game {match_id}: {made.status}, {made.total} decisions, "
                          f"{time.monotonic() - started:.1f} s")
