"""Start a server process of the tests with its deals seeded (tests/seeding.py).

    python -m tests.seeded_server daphne <daphne's arguments>
    python -m tests.seeded_server manage.py <command> <arguments>

The seed comes from ``KOZEL_TEST_SEED``, which the test process sets for each test (and
tests/daphne_server.py passes on with the rest of its environment); without it the
process deals as the site does.  Only the tests start processes this way.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> None:
    program, arguments = argv[0], argv[1:]
    if program == "daphne":
        # First: daphne.server installs Twisted's asyncio reactor as it is imported, and
        # kozel_site/asgi.py looks for it to know it runs in a server.
        from daphne.cli import CommandLineInterface
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings")
    import django

    django.setup()
    from tests.seeding import SEED_VARIABLE, seed_deals, server_stream

    if os.environ.get(SEED_VARIABLE):
        seed_deals(int(os.environ[SEED_VARIABLE]), stream=server_stream(program))
    if program == "daphne":
        sys.argv = ["daphne", *arguments]
        sys.exit(CommandLineInterface.entrypoint())
    if program == "manage.py":
        from django.core.management import execute_from_command_line

        execute_from_command_line(["manage.py", *arguments])
        return
    raise SystemExit(f"seeded_server: no such program {program!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
