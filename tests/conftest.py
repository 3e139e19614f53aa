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
