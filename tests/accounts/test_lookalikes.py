"""Look-alike login names: one alphabet per name, and no name that a
reader could take for a taken one (Unicode TR39 skeletons, accounts.logins).

The pairs below collide by the standard's table (confusables.txt), worked out by hand:
"соре" is Cyrillic с, о, р, е, whose prototypes are Latin c, o, p, e; Latin "m" has the
prototype "rn"; digit "0" has "O", which the final case folding makes "o".
"""

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from accounts.forms import AdminUserChangeForm
from accounts.logins import clash_key
from accounts.models import User
from tests.accounts.test_login import log_in, logged_in_as
from tests.accounts.test_signup import SIGNUP, sign_up
from tests.conftest import PASSWORD

def sign_up_in_english(client, username):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(SIGNUP, data, HTTP_ACCEPT_LANGUAGE="en")


LOOKALIKES = [("cope", "соре"), ("masha", "rnasha"), ("oleg", "0LEG"), ("Маша", "МАША")]


@pytest.mark.parametrize("name", ["аuthA", "Masha_Маша", "ёжиk", "Bоб"])   # а, о are Cyrillic
def test_a_login_name_mixing_alphabets_is_refused(client, db, name):
    response = sign_up(client, name)
    assert response.status_code == 200 and not User.objects.exists()
    assert "Используйте буквы одного алфавита: латиницу или кириллицу, но не вместе." in response.content.decode()


def test_the_mixed_alphabets_message_in_english(client, db):
    response = sign_up_in_english(client, "аuthA")
    assert "Use the letters of one alphabet: Latin or Cyrillic, not both." in response.content.decode()


@pytest.mark.parametrize("taken, tried", LOOKALIKES[:3])
def test_a_lookalike_of_a_taken_login_name_is_refused(client, make_user, taken, tried):
    make_user(taken)
    response = sign_up(client, tried)
    assert response.status_code == 200 and User.objects.count() == 1
    assert f"Этот логин слишком похож на занятый «{taken}». Выберите другой." in response.content.decode()
    english = sign_up_in_english(client, tried).content.decode()
    assert f"This login name looks too much like “{taken}”, which is taken. Choose another." in english


@pytest.mark.parametrize("taken, tried", LOOKALIKES)
def test_the_database_refuses_a_lookalike(make_user, taken, tried):
    make_user(taken)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username=tried)


@pytest.mark.parametrize("taken, other", [("masha", "misha"), ("ёжик", "ежик"), ("ilya", "llya"), ("Маша", "Masha")])
def test_names_that_look_different_are_free(client, make_user, taken, other):
    # ё keeps its dots ("ë"); "i" and "l" differ; Cyrillic "М" is "ʍ", not Latin "M" ("rn").
    make_user(taken)
    assert sign_up(client, other).status_code == 302


def test_log_in_takes_case_variants_but_not_lookalikes(client, make_user):
    make_user("cope")
    assert log_in(client, "COPE").status_code == 302 and logged_in_as(client) == "cope"
    client.post("/accounts/logout/")
    assert log_in(client, "соре").status_code == 200 and logged_in_as(client) is None


def test_a_player_page_is_found_by_case_variants_not_lookalikes(client, make_user):
    make_user("cope")
    assert client.get("/players/COPE/").status_code == 200
    assert client.get("/players/соре/").status_code == 404


def test_renaming_in_the_admin_refuses_a_lookalike_but_not_ones_own_case(make_user):
    make_user("cope")
    olya = make_user("olya")

    def rename(to):
        return AdminUserChangeForm(instance=olya, data={"username": to, "date_joined": olya.date_joined})

    assert "username" in rename("соре").errors
    assert rename("OLYA").is_valid(), rename("OLYA").errors


# -- accounts that collided before the key (kept by the migration, accounts 0003) --------

@pytest.fixture
def old_clash(make_user):
    """"cope", then "соре" registered beside it before look-alikes were refused."""
    cope = make_user("cope")
    cyrillic = User(username="соре", login_key=clash_key("соре"))
    cyrillic.set_password("Другой-пароль-42")
    cyrillic.save()
    return cope, cyrillic


def test_both_old_lookalikes_log_in_and_keep_their_pages(client, old_clash):
    cope, cyrillic = old_clash
    assert log_in(client, "СОРЕ", "Другой-пароль-42").status_code == 302
    assert logged_in_as(client) == "соре"
    client.post("/accounts/logout/")
    assert log_in(client, "cope").status_code == 302 and logged_in_as(client) == "cope"
    assert client.get("/players/соре/").context["person"] == cyrillic
    assert client.get("/players/cope/").context["person"] == cope
    cyrillic.refresh_from_db()
    assert cyrillic.login_key == clash_key("соре")   # a log-in's save keeps it


def test_the_command_lists_old_lookalikes(capsys, old_clash):
    cope, cyrillic = old_clash
    call_command("lookalike_logins")
    assert f"'соре' (#{cyrillic.pk}) looks like 'cope' (#{cope.pk})" in capsys.readouterr().out


def test_no_new_lookalike_joins_an_old_clash_after_a_rename(client, old_clash):
    cope, cyrillic = old_clash
    cope.username = "cope_old"
    cope.save()
    # The key "cope" is free again, but "соре" still looks like "cope".
    response = sign_up(client, "cope")
    assert "Этот логин слишком похож на занятый «соре»." in response.content.decode()
    call_command("lookalike_logins")
