"""Issue 39, point 6: a request whose path, query or form is not valid text -- encoded
lone surrogates, bytes that are not UTF-8, NUL -- gets a clean 400 (kozel_site/text.py),
never a 500 or a traceback; valid text, Russian included, passes.  Through Django's test
client (as WSGI gives it) and through the ASGI application daphne serves."""

import asyncio

import pytest
from channels.testing import HttpCommunicator
from django.urls import reverse

from kozel_site.asgi import application
from kozel_site.text import is_valid_bytes

pytestmark = pytest.mark.django_db

BAD = ["%ED%A0%80", "%ED%B0%80x", "%00", "a%00b", "%FF", "%C0%AF", "%E2%82"]


@pytest.mark.parametrize("bad", BAD)
def test_a_query_that_is_not_valid_text_is_refused_with_400(client, bad):
    response = client.get(f"/?q={bad}")
    assert response.status_code == 400
    assert "не текст" in response.content.decode()


@pytest.mark.parametrize("bad", BAD)
def test_a_path_that_is_not_valid_text_is_refused_with_400(client, bad):
    assert client.get(f"/players/{bad}/").status_code == 400


@pytest.mark.parametrize("bad", BAD)
def test_a_form_that_is_not_valid_text_is_refused_with_400(client, user, bad):
    client.force_login(user)
    response = client.post(reverse("games:create_request"),
                           f"players=2&fish=all&turn_seconds=30&client_seed={bad}",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400


def test_a_nul_in_a_moderators_search_is_a_400_not_a_database_error(client, make_user):
    from django.contrib.auth.models import Group

    from accounts.moderators import GROUP_NAME

    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(moderator)
    assert client.get(reverse("moderation:find_player"), {"q": "ma\x00sha"}).status_code == 400


def test_valid_text_passes(client, user):
    assert client.get("/", {"q": "Козёл — домино 🁣"}).status_code == 200
    assert client.get(f"/players/{user.username}/").status_code == 200
    assert is_valid_bytes("Маша+%D0%9C%D0%B0%D1%88%D0%B0&x=1%2B1".encode())


def asgi_get(path: bytes, query: bytes = b"") -> int:
    async def main():
        communicator = HttpCommunicator(application, "GET", "/", headers=[
            (b"host", b"127.0.0.1:8000")])
        communicator.scope["raw_path"] = path
        communicator.scope["path"] = path.decode("latin-1")
        communicator.scope["query_string"] = query
        response = await communicator.get_response()
        return response["status"]
    return asyncio.run(main())


@pytest.mark.django_db(transaction=True)
def test_through_asgi_an_encoded_surrogate_in_the_path_or_query_is_a_400():
    assert asgi_get(b"/players/%ED%A0%80/") == 400
    assert asgi_get(b"/", b"q=%ED%A0%80") == 400
    assert asgi_get(b"/", b"q=%00") == 400
    assert asgi_get(b"/", "q=Козёл".encode()) == 200
