"""Limits on what one client may do: sign-ups, password-reset mails, failed log-ins.

Hostile: the red team's runs (15 sign-ups in 10 s, 20 resets to one address, 12 names
x 4 wrong passwords from one address), and a forged X-Forwarded-For, which must not give
a client a new address unless the site is told it stands behind proxies of its own.
"""

import pytest
from django.core import mail

from accounts.models import User
from tests.conftest import PASSWORD

SIGNUP = "/accounts/signup/"
RESET = "/accounts/password/reset/"
LOGIN = "/accounts/login/"


def sign_up(client, username, **extra):
    client.logout()  # a signed-up client is logged in, and the sign-up page sends it away
    return client.post(SIGNUP, {"username": username, "password1": PASSWORD, "password2": PASSWORD},
                       **extra)


def ask_reset(client, email, **extra):
    return client.post(RESET, {"email": email}, **extra)


def log_in(client, username, password="wrong-password", **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


# -- sign-ups: 5 an hour from one address (SIGNUP_RATE's default) -------------------------

def test_a_burst_of_sign_ups_from_one_address_is_refused_after_five(client, db):
    answers = [sign_up(client, f"bot{n}").status_code for n in range(15)]
    # The first five are accounts (302 to the lobby), the other ten "too many" (429).
    assert answers == [302] * 5 + [429] * 10
    assert User.objects.count() == 5
    refused = sign_up(client, "bot99")
    assert "Слишком много новых учётных записей с вашего сетевого адреса" in refused.content.decode()
    # Someone else, elsewhere, still signs up.
    assert sign_up(client, "olya", REMOTE_ADDR="10.9.9.9").status_code == 302


def test_the_refusal_speaks_english_too(client, db):
    for n in range(5):
        sign_up(client, f"bot{n}")
    page = sign_up(client, "bot5", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Too many new accounts from your network address" in page


def test_sign_ups_that_fail_for_a_mistake_cost_nothing(client, db):
    for n in range(10):
        client.post(SIGNUP, {"username": f"typo{n}", "password1": PASSWORD, "password2": "other"})
    assert [sign_up(client, f"real{n}").status_code for n in range(5)] == [302] * 5


def test_a_forged_forwarded_for_does_not_give_new_addresses(client, db):
    answers = [sign_up(client, f"bot{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
               for n in range(7)]
    assert answers == [302] * 5 + [429] * 2


def test_behind_a_trusted_proxy_the_address_it_saw_counts(client, db, settings):
    settings.TRUSTED_PROXIES = 1
    # Every request comes from the proxy's socket; its header names the client last,
    # after whatever the client wrote there itself.
    proxy = {"REMOTE_ADDR": "192.168.0.2"}
    for n in range(5):
        assert sign_up(client, f"bot{n}", HTTP_X_FORWARDED_FOR=f"6.6.6.{n}, 10.0.0.1", **proxy).status_code == 302
    assert sign_up(client, "bot5", HTTP_X_FORWARDED_FOR="7.7.7.7, 10.0.0.1", **proxy).status_code == 429
    assert sign_up(client, "olya", HTTP_X_FORWARDED_FOR="10.0.0.2", **proxy).status_code == 302


# -- password-reset mails: 3 an hour to an address or an account ---------------------------

def test_twenty_resets_to_one_address_send_three_mails(client, user):
    answers = {(r.status_code, r.url) for r in (ask_reset(client, "masha@example.com", REMOTE_ADDR=f"10.0.0.{n}")
                                                for n in range(20))}
    assert len(mail.outbox) == 3
    # Every answer was the same "sent" page, the refused ones too.
    assert answers == {(302, "/accounts/password/reset/sent/")}


def test_accounts_sharing_a_mailbox_get_three_mails_together(client, user, make_user):
    make_user("olya", email="Masha@Example.com")  # the same mailbox, spelt otherwise
    for n in range(20):
        ask_reset(client, "masha@example.com", REMOTE_ADDR=f"10.0.0.{n}")
    # Each request sends one mail per account with the address while the mailbox is
    # under its 3: masha's and olya's (2), then masha's (3); the rest are not sent.
    assert len(mail.outbox) == 3


def test_an_account_gets_three_mails_even_when_its_address_changes(client, user):
    for n in range(3):
        ask_reset(client, "masha@example.com")
    User.objects.filter(pk=user.pk).update(email="masha@other.example")
    ask_reset(client, "masha@other.example")
    assert len(mail.outbox) == 3


def test_the_answer_is_the_same_for_an_address_with_and_without_an_account(client, user):
    def answers(email):
        return [(r.status_code, r.url) for r in (ask_reset(client, email) for n in range(5))]

    assert answers("masha@example.com") == answers("nobody@example.com")


def test_one_client_asking_for_many_addresses_is_stopped(client, user):
    # PASSWORD_RESET_CLIENT_RATE, 10 an hour: the eleventh request is refused outright,
    # which says nothing about any account.
    answers = [ask_reset(client, f"person{n}@example.com").status_code for n in range(11)]
    assert answers == [302] * 10 + [429]
    refused = ask_reset(client, "masha@example.com")
    assert "Слишком много запросов сброса пароля с вашего сетевого адреса" in refused.content.decode()
    assert mail.outbox == []
    assert ask_reset(client, "masha@example.com", HTTP_X_FORWARDED_FOR="10.1.2.3").status_code == 429


# -- log-ins: 5 failures lock a name on an address, 20 under any names the address --------

def test_many_names_from_one_address_lock_the_address(client, make_user):
    make_user("masha")
    answers = [log_in(client, f"name{i}").status_code for i in range(12) for attempt in range(4)]
    # No name reaches its 5 failures; the address reaches 20 with the 20th attempt, and
    # every attempt after it (the 21st to the 48th) is refused.
    assert answers == [200] * 20 + [429] * 28
    refused = log_in(client, "masha", PASSWORD)
    assert refused.status_code == 429
    assert "Слишком много неудачных попыток входа с вашего сетевого адреса" in refused.content.decode()
    assert log_in(client, "masha", PASSWORD, REMOTE_ADDR="10.2.2.2").status_code == 302


def test_a_forged_forwarded_for_does_not_escape_the_log_in_locks(client, make_user):
    make_user("masha")
    answers = [log_in(client, "masha", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(6)]
    # The fifth failure locks the name on the one real address.
    assert answers == [200] * 4 + [429] * 2
    answers = [log_in(client, f"name{n}", HTTP_X_FORWARDED_FOR=f"10.0.1.{n}").status_code for n in range(20)]
    # 5 failures so far; the address lock comes with the 20th, so 15 more are answered.
    assert answers == [200] * 15 + [429] * 5


def test_behind_a_trusted_proxy_the_log_in_locks_follow_the_forwarded_address(client, make_user, settings):
    settings.TRUSTED_PROXIES = 1
    make_user("masha")
    proxy = {"REMOTE_ADDR": "192.168.0.2"}
    for attempt in range(5):
        log_in(client, "masha", HTTP_X_FORWARDED_FOR="10.0.0.1", **proxy)
    assert log_in(client, "masha", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.1", **proxy).status_code == 429
    assert log_in(client, "masha", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.2", **proxy).status_code == 302


@pytest.mark.parametrize("header, proxies, expected", [
    ("", 0, "192.168.0.2"),                       # no header: the socket
    ("6.6.6.6", 0, "192.168.0.2"),                # no proxy configured: the header is ignored
    ("6.6.6.6, 10.0.0.1", 1, "10.0.0.1"),         # one proxy: its entry, the last
    ("6.6.6.6, 10.0.0.1, 172.16.0.1", 2, "10.0.0.1"),  # two: the outer proxy's, second from the right
    ("10.0.0.1", 2, "10.0.0.1"),                  # fewer entries than proxies: the first
    ("not-an-address", 1, "192.168.0.2"),         # garbage: the socket
])
def test_the_client_address(rf, settings, header, proxies, expected):
    from kozel_site.clientaddress import client_address

    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR="192.168.0.2", HTTP_X_FORWARDED_FOR=header)
    assert client_address(request) == expected
