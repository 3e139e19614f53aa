"""``manage.py arena FILE...``: an arena's standings from its ``kozel-arena/1`` export
(RECORD.md), exactly as its page shows them (games/arena/export.py, standings.py).

Prints one JSON line per file, in order; ``-`` reads standard input.  Exits 1 if any
export was refused.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.arena.export import standings_of_text


class Command(BaseCommand):
    help = "Compute an arena's standings from its results (kozel-arena/1) and print them as JSON."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="an export file, or - for stdin")

    def handle(self, *args, files, **options):
        refused = False
        for name in files:
            try:
                if name == "-":
                    text = sys.stdin.buffer.read()
                else:
                    with open(name, "rb") as handle:
                        text = handle.read()
            except OSError as error:
                result = {"error": f"cannot read {name}: {error.strerror or error}"}
            else:
                result = standings_of_text(text)
            refused = refused or "error" in result
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        if refused:
            sys.exit(1)
