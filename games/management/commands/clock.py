"""``manage.py clock``: enforce turn deadlines, play bots and deal rounds, with nobody connected.

Run any number of copies next to the daphne processes when scaled out (DESIGN.md, Time);
the embedded setup runs the same sweep inside the server process.
"""

import asyncio

from django.core.management.base import BaseCommand

from games import clock


class Command(BaseCommand):
    help = "Run the turn clock: timeouts, bots' moves and the next deals, as deadlines pass."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=clock.SWEEP_INTERVAL,
                            help="seconds between sweeps (default %(default)s)")

    def handle(self, *args, interval, **options):
        self.stdout.write(f"Kozel clock: sweeping every {interval} s (Ctrl-C stops).")
        try:
            asyncio.run(clock.run(interval))
        except KeyboardInterrupt:
            pass
