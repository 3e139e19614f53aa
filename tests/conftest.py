"""Fixtures shared by the whole suite.

Logging in: tests use `client.force_login(user)` (the `logged_in_client` fixture) or post
the real log-in form. `client.login()` does not work here: the log-in throttle
(django-axes) needs the request, which `client.login()` does not pass.
"""

import gc
import itertools
import os
import random
from pathlib import Path

import pytest

from tests import seeding

PASSWORD = "Kozel-test-pass-42"
RULES_TESTS = Path(__file__).parent / "rules"
DEAL_SEED = pytest.StashKey[int]()


@pytest.fixture(autouse=True)
def _seeded_deals(request, monkeypatch):
    """Every game the test deals through the services (and every bot's choice) comes
    from one seed, shown in the report if the test fails (tests/seeding.py); a server
    process the test starts gets it too.  Not for tests/rules: the rules service is
    given its randomness, and its tests say which; nor for a test marked
    ``system_random``, which checks where a real game's deals come from."""
    if request.node.path.is_relative_to(RULES_TESTS) \
            or request.node.get_closest_marker("system_random"):
        return
    seed = seeding.test_seed()
    request.node.stash[DEAL_SEED] = seed
    monkeypatch.setenv(seeding.SEED_VARIABLE, str(seed))
    seeding.seed_deals(seed, setattr=monkeypatch.setattr)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Tests marked ``slow`` (whole games, real processes, the browser) start as early as
    they may, so that no long test is left at the end to keep one worker of the parallel
    run busy alone: pytest-xdist hands tests out a few at a time, in this order (a module
    of browser tests at once; tests/parallel.py), and the short tests that come last even
    out the workers.

    pytest-django has put the tests on the database's transactions before those that
    flush it (``transaction=True``), and those before the tests without a database;
    that order stays.  So: the slow tests that do not flush the database (with the slow
    ones that need none), the other such tests, the slow tests that flush it, then the
    rest."""
    def place(item):
        flushes = _flushes_the_database(item)
        if item.get_closest_marker("slow"):
            return 2 if flushes else 0
        return 3 if flushes or not _uses_the_database(item) else 1

    items.sort(key=place)


def _flushes_the_database(item) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))) \
        or not {"transactional_db", "live_server"}.isdisjoint(item.fixturenames)


def _uses_the_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or "db" in item.fixturenames


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    # In the failure's report whether or not the test's output is captured (-s).
    report = yield
    if report.failed and DEAL_SEED in item.stash:
        report.sections.append(("deal seed", seeding.report_line(item.stash[DEAL_SEED])))
    return report


@pytest.fixture(autouse=True)
def _connections_of_ended_threads_closed(request):
    """On PostgreSQL a test's database work on an event loop runs on the loop's threads
    (games/live/dbcall.py), which end with the loop; each connection they leave open
    waits in a cycle for the garbage collector, and the two workers' connections waiting
    so came near PostgreSQL's ``max_connections`` (100): "too many clients" in tests that
    changed from run to run.  Collected after each test of the database (a property test
    that runs a loop per example collects after each: tests/fresh_loop.py)."""
    yield
    if os.environ.get("DATABASE_URL") and _uses_the_database(request.node):
        gc.collect()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow on purpose; tests hash many passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The limits on sign-ups and reset mails count in the cache (the process's memory
    # here): each test starts with none counted.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db):
    """make_user("masha", email=...) -> a User (with its Player); password is PASSWORD."""
    from accounts.models import User

    numbers = itertools.count(1)

    def make(username=None, password=PASSWORD, **extra):
        return User.objects.create_user(
            username=username or f"player{next(numbers)}", password=password, **extra
        )

    return make


@pytest.fixture
def user(make_user):
    return make_user("masha", email="masha@example.com")


@pytest.fixture
def logged_in_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def make_match(db):
    """make_match(players=[user, None, ...], **fields) -> a Match with its seats.

    A user in `players` takes that seat; None puts a bot there.  The match gets its
    kozel-fair/1 seeds as the lobby gives them, made from the test's seed
    (tests/seeding.py); ``server_seed=None`` makes a match from before seeds existed.
    """
    from games.models import Match, Seat
    from games.play import seeds

    def make(players=(), **fields):
        fields.setdefault("seats_count", max(2, len(players)))
        if "server_seed" not in fields:
            fields.update(seeds.seed_fields())
        match = Match.objects.create(**fields)
        for number, person in enumerate(players):
            if person is None:
                Seat.objects.create(match=match, number=number, bot_name=f"Bot {number}",
                                    client_seed=seeds.bot_client_seed(number))
            else:
                Seat.objects.create(match=match, number=number, user=person,
                                    client_seed=seeds.new_client_seed())
        return match

    return make


@pytest.fixture
def os_random_draws(monkeypatch):
    """The names of the calls made on the operating system's generator during the test.

    ``random.SystemRandom`` (which ``secrets.SystemRandom`` is) still answers every call
    with the system's own random numbers; they are only counted.  A generator of Python's
    own (``random.Random``, seeded or not) never calls these.
    """
    calls = []
    for name in ("random", "getrandbits", "randbytes"):
        def counted(self, *args, _real=getattr(random.SystemRandom, name), _name=name):
            calls.append(_name)
            return _real(self, *args)
        monkeypatch.setattr(random.SystemRandom, name, counted)
    return calls


# -- a real server in a subprocess (tests/daphne_server.py) -----------------------------

@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """An SQLite test database is a file, not memory: a daphne subprocess (and channels'
    ChannelsLiveServerTestCase) can then open the very database the test writes."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture
def daphne_server(transactional_db, tmp_path, request):
    """A started DaphneServer on this test's database; stopped (and its log shown, if the
    test failed) afterwards. Tests using it need django_db(transaction=True).

    Depending on transactional_db makes the server stop before the database is flushed.
    In a module marked ``shared_server`` the module's tests share one server instead
    (``module_daphne_server``).
    """
    if request.node.get_closest_marker("shared_server"):
        server = request.getfixturevalue("module_daphne_server")
        yield server
    else:
        from tests.daphne_server import DaphneServer

        server = DaphneServer(log_dir=tmp_path)
        server.start()
        yield server
        server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


@pytest.fixture(scope="module")
def module_daphne_server(django_db_setup, tmp_path_factory):
    """One daphne for a module's tests (``pytest.mark.shared_server``), started by the
    first of them and stopped after the last: for tests that only look at what the server
    shows of what the test process made -- pages, a staged game -- and neither stop the
    server, nor have it deal a game, nor count on what it keeps in memory (rate limits,
    sockets): those start their own.  It deals, if ever, from the seed of the test that
    started it.  Its tests' data is flushed under it after each of them.  (In tests/e2e,
    whose modules run whole on one worker each: tests/parallel.py.)"""
    from tests.daphne_server import DaphneServer

    server = DaphneServer(log_dir=tmp_path_factory.mktemp("daphne"))
    server.start()
    yield server
    server.stop()
