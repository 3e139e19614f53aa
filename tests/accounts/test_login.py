import time
from datetime import timedelta

import pytest
from django.db import connections

from accounts.models import User
from tests.conftest import PASSWORD
from tests.waiting import wait_for

LOGIN = "/accounts/login/"


def log_in(client, username, password=PASSWORD, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def logged_in_as(client):
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).username if user_id else None


def test_log_in_and_out(client, user):
    response = log_in(client, "masha")
    assert response.status_code == 302 and response.url == "/"
    assert logged_in_as(client) == "masha"
    client.post("/accounts/logout/")
    assert logged_in_as(client) is None


def test_log_in_ignores_the_case_of_the_login_name(client, make_user):
    make_user("Маша")
    assert log_in(client, "мАША").status_code == 302
    assert logged_in_as(client) == "Маша"


def test_a_wrong_password_is_refused_with_a_message(client, user):
    response = log_in(client, "masha", "wrong-password")
    assert response.status_code == 200
    assert "Неверный логин или пароль. В пароле важен регистр букв." in response.content.decode()
    assert logged_in_as(client) is None


def test_log_in_returns_to_the_next_page(client, user):
    response = client.post(LOGIN + "?next=/rules/", {"username": "masha", "password": PASSWORD, "next": "/rules/"})
    assert response.url == "/rules/"


@pytest.fixture
def short_lock(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(seconds=1)


def test_repeated_failed_log_ins_lock_the_login_name_for_a_while(client, user, make_user, short_lock):
    for attempt in range(2):
        assert log_in(client, "masha", "wrong-password").status_code == 200
    # The third failure reaches the limit: refused, with a readable page.
    locked_at = time.monotonic()
    locked = log_in(client, "MASHA", "wrong-password")
    assert locked.status_code == 429

    # Now even the right password is refused, in any case of the name.
    refused = log_in(client, "masha")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Слишком много неудачных попыток входа" in page and "1 минуту" in page
    assert logged_in_as(client) is None

    # The lock is for that login name: another player on the same address logs in.
    make_user("olya")
    assert log_in(client, "olya").status_code == 302
    client.post("/accounts/logout/")

    # After the lock period the right password works again (a log-in refused meanwhile
    # does not make the lock longer: AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT).
    assert wait_for(lambda: log_in(client, "masha").status_code == 302, seconds=10, every=0.1)
    assert time.monotonic() - locked_at >= 1.0  # AXES_COOLOFF_TIME: not sooner
    assert logged_in_as(client) == "masha"


def test_the_lock_is_per_address(client, user, short_lock):
    for attempt in range(3):
        log_in(client, "masha", "wrong-password", REMOTE_ADDR="10.1.1.1")
    assert log_in(client, "masha", REMOTE_ADDR="10.1.1.1").status_code == 429
    assert log_in(client, "masha", REMOTE_ADDR="10.2.2.2").status_code == 302


def test_a_success_clears_earlier_failures(client, user, short_lock):
    for attempt in range(2):
        log_in(client, "masha", "wrong-password")
    assert log_in(client, "masha").status_code == 302
    client.post("/accounts/logout/")
    for attempt in range(2):
        log_in(client, "masha", "wrong-password")
    assert log_in(client, "masha").status_code == 302


def test_the_locked_page_speaks_english_too(client, user, short_lock):
    for attempt in range(3):
        log_in(client, "masha", "wrong-password", HTTP_ACCEPT_LANGUAGE="en")
    page = log_in(client, "masha", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Too many failed log-ins for this login name" in page and "1 minute;" in page


@pytest.mark.django_db(transaction=True)
async def test_the_lock_holds_when_served_over_asgi(async_client, short_lock):
    # daphne serves through Django's ASGI handler, where middleware runs in async mode.
    from asgiref.sync import sync_to_async

    await sync_to_async(User.objects.create_user)("masha", password=PASSWORD)
    for attempt in range(3):
        await async_client.post(LOGIN, {"username": "masha", "password": "wrong-password"})
    refused = await async_client.post(LOGIN, {"username": "masha", "password": PASSWORD})
    assert refused.status_code == 429
    assert "Слишком много неудачных попыток входа" in refused.content.decode()
    # The handler's worker thread keeps its own connection; close it so the test database
    # can be dropped at the end of the run.
    await sync_to_async(connections.close_all)()
