"""``manage.py clock``: enforce turn deadlines, play bots and deal rounds, with nobody connected.

Run any number of copies next to the daphne processes when scaled out (DESIGN.md, Time);
the embedded setup runs the same sweep inside the server process.
"""

import asyncio

from django.core.management.base import BaseCommand

from games.play import clock


class Command(BaseCommand):
    help = "Run the turn clock: timeouts, bots' moves and the next deals, as deadlines pass."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=None,
                            help="seconds between sweeps (default: KOZEL_CLOCK_INTERVAL, 0.25)")

    def handle(self, *args, interval, **options):
        self.stdout.write("Kozel clock: sweeping for due deadlines (Ctrl-C stops).")
        try:
            asyncio.run(clock.run(interval))
        except KeyboardInterrupt:
            pass
