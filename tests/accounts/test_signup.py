import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import Player, User
from tests.conftest import PASSWORD

SIGNUP = "/accounts/signup/"


def sign_up(client, username, password=PASSWORD, **extra):
    return client.post(SIGNUP, {"username": username, "password1": password, "password2": password, **extra})


def test_the_signup_form_has_the_standard_fields(client, db):
    page = client.get(SIGNUP).content.decode()
    for name in ("username", "password1", "password2", "email"):
        assert f'name="{name}"' in page


def test_signing_up_creates_a_player_and_logs_in(client, db):
    response = sign_up(client, "Masha")
    assert response.status_code == 302 and response.url == "/"
    user = User.objects.get(username="Masha")
    assert user.email == ""
    assert Player.objects.get(user=user).rating == 0
    assert int(client.session["_auth_user_id"]) == user.pk
    assert "Masha" in client.get("/").content.decode()


def test_signing_up_keeps_an_optional_email(client, db):
    sign_up(client, "Olya", email="olya@example.com")
    assert User.objects.get(username="Olya").email == "olya@example.com"


def test_signing_up_returns_to_a_local_next_page_only(client, db):
    assert sign_up(client, "Serg", next="/rules/").url == "/rules/"
    client.logout()
    assert sign_up(client, "Alex", next="https://evil.example/").url == "/"


@pytest.mark.parametrize("taken, tried", [("Masha", "masha"), ("Маша", "МАША"), ("ёжик", "ЁЖИК")])
def test_login_names_are_unique_without_regard_to_case(client, make_user, taken, tried):
    make_user(taken)
    response = sign_up(client, tried)
    assert response.status_code == 200
    assert "Этот логин уже занят." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize("taken, tried", [("Masha", "MASHA"), ("Маша", "мАША")])
def test_the_database_refuses_a_login_name_differing_only_in_case(make_user, taken, tried):
    make_user(taken)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username=tried)


@pytest.mark.parametrize("name", ["ma", "x" * 31, "ma sha", "masha!", "маша@дом", "<b>", "Ω-omega"])
def test_login_names_are_limited_to_sensible_characters(client, db, name):
    response = sign_up(client, name)
    assert response.status_code == 200
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["Маша_99", "ab-c", "Ёлка", "x" * 30, "Alex_Kozlov", "Алекс_Козлов"])
def test_letters_digits_underscore_and_dash_are_fine(client, db, name):
    assert sign_up(client, name).status_code == 302
    assert User.objects.get(username=name)


def test_passwords_must_match_and_be_decent(client, db):
    response = client.post(SIGNUP, {"username": "masha", "password1": PASSWORD, "password2": "other-pass-42"})
    assert response.status_code == 200
    assert sign_up(client, "masha", password="12345678").status_code == 200
    assert not User.objects.exists()


def test_a_logged_in_player_is_sent_away_from_signup(logged_in_client):
    assert logged_in_client.get(SIGNUP).url == reverse("games:lobby")


def test_every_user_gets_a_player_even_a_superuser(db, monkeypatch):
    from django.core.management import call_command

    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", interactive=False, username="boss", email="boss@example.com", verbosity=0)
    boss = User.objects.get(username="boss")
    assert boss.is_superuser and boss.player.games_played == 0
