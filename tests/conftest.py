"""Fixtures shared by the whole suite.

Logging in: tests use `client.force_login(user)` (the `logged_in_client` fixture) or post
the real log-in form. `client.login()` does not work here: the log-in throttle
(django-axes) needs the request, which `client.login()` does not pass.
"""

import itertools

import pytest

PASSWORD = "Kozel-test-pass-42"


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

    A user in `players` takes that seat; None puts a bot there.
    """
    from games.models import Match, Seat

    def make(players=(), **fields):
        fields.setdefault("seats_count", max(2, len(players)))
        match = Match.objects.create(**fields)
        for number, person in enumerate(players):
            if person is None:
                Seat.objects.create(match=match, number=number, bot_name=f"Bot {number}")
            else:
                Seat.objects.create(match=match, number=number, user=person)
        return match

    return make


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
def daphne_server(transactional_db, tmp_path):
    """A started DaphneServer on this test's database; stopped (and its log shown, if the
    test failed) afterwards. Tests using it need django_db(transaction=True).

    Depending on transactional_db makes the server stop before the database is flushed.
    """
    from tests.daphne_server import DaphneServer

    server = DaphneServer(log_dir=tmp_path)
    server.start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")
