import re

from django.core import mail

from accounts.models import User
from tests.conftest import PASSWORD

NEW_PASSWORD = "Another-kozel-77"


def test_changing_the_password(logged_in_client, user):
    response = logged_in_client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302 and response.url == "/accounts/password/change/done/"
    assert logged_in_client.get(response.url).status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_changing_the_password_needs_a_log_in(client, db):
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_resetting_a_forgotten_password_by_email(client, user):
    response = client.post("/accounts/password/reset/", {"email": "MASHA@example.com"})
    assert response.status_code == 302 and response.url == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1
    letter = mail.outbox[0]
    assert letter.to == ["masha@example.com"] and "Козёл" in letter.subject
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", letter.body).group(1)

    # The link redirects to a one-time URL holding the token in the session.
    form_url = client.get(link).url
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
    assert User.objects.get(pk=user.pk).check_password(NEW_PASSWORD)

    # A used link is dead.
    assert "Ссылка больше не действует" in client.get(link, follow=True).content.decode()


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_nothing(client, user):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.url == "/accounts/password/reset/sent/"
    assert mail.outbox == []
