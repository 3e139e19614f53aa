"""``manage.py replay FILE...``: check game records against the rules (RECORD.md).

Prints one JSON line per record, in order; ``-`` reads standard input.  Exits 1 if any
record was invalid.  The rules replay a record (``games.rules.record``) and the ratings
give its rating points (``ratings.formulas``); this joins the two.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.rules.record import replay_text
from ratings.formulas import game_points


class Command(BaseCommand):
    help = "Replay Kozel game records (kozel-record/1) and print each one's results as JSON."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="a record file, or - for stdin")

    def handle(self, *args, files, **options):
        invalid = False
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
                result = replay_text(text, rate=game_points)
            invalid = invalid or "error" in result
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        if invalid:
            sys.exit(1)
