"""The WebSocket origin check (kozel_site/origins.py): real handshakes with the site's
ASGI application, and the rule itself on the cases a browser or an attacker can send.

Hostile: a page of the same host on another port (any program on the player's machine),
the other scheme, no Origin at all, and a host name the site does not serve (DNS
rebinding), each of which would ride on the player's session cookie.
"""

import pytest
from channels.testing import WebsocketCommunicator
from django.db import connections

from kozel_site.asgi import application
from kozel_site.origins import same_origin

SITE = b"127.0.0.1:8000"


async def handshake(origin: bytes | None, host: bytes = SITE) -> bool:
    headers = [(b"host", host)] + ([(b"origin", origin)] if origin is not None else [])
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.fixture
def tidy_connections():
    yield
    # The lobby's consumer reads on database threads; their connections are closed so
    # that the test database can be dropped.
    connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin, connects", [
    (b"http://127.0.0.1:8000", True),    # the site's own page
    (b"http://127.0.0.1:9999", False),   # the same host, another port
    (b"https://127.0.0.1:8000", False),  # the other scheme
    (None, False),                       # no Origin
    (b"null", False),                    # a sandboxed frame or a file
    (b"http://evil.example", False),     # another site
])
async def test_a_handshake_is_accepted_from_the_sites_own_pages_only(origin, connects, tidy_connections):
    assert await handshake(origin) is connects


@pytest.mark.django_db(transaction=True)
async def test_a_host_the_site_does_not_serve_is_refused_even_with_its_own_origin(tidy_connections):
    # DNS rebinding: evil.example made to resolve to 127.0.0.1; its page's origin matches
    # the Host header its browser sends, but that host is not one the site serves.
    assert await handshake(b"http://evil.example:8000", host=b"evil.example:8000") is False
    assert await handshake(b"http://localhost:8000", host=b"localhost:8000") is True


def scope(origin, host, scheme="ws"):
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize("origin, host, expected", [
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("http://LOCALHOST:8000", "localhost:8000", True),   # host names have no case
    ("http://127.0.0.1", "127.0.0.1", True),             # port 80 either way
    ("http://127.0.0.1:80", "127.0.0.1", True),
    ("http://[::1]:8000", "[::1]:8000", True),           # IPv6, in brackets
    ("http://127.0.0.1:8001", "127.0.0.1:8000", False),
    ("http://127.0.0.1:8000", "127.0.0.1", False),       # :8000 is not :80
    ("http://localhost:8000", "127.0.0.1:8000", False),  # another host, though the same machine
    ("ws://127.0.0.1:8000", "127.0.0.1:8000", False),    # pages are http(s)
    ("http://127.0.0.1:8000/rules/", "127.0.0.1:8000", False),  # an origin has no path
    ("http://user@127.0.0.1:8000", "127.0.0.1:8000", False),
    ("http://127.0.0.1:99999", "127.0.0.1:8000", False),  # no such port
    ("http://127.0.0.1:8000", "", False),                 # no Host
])
def test_the_origin_must_be_the_host_the_handshake_names(origin, host, expected):
    assert same_origin(scope(origin, host)) is expected


def test_two_origin_headers_are_refused():
    twice = scope("http://127.0.0.1:8000", "127.0.0.1:8000")
    twice["headers"].append((b"origin", b"http://evil.example"))
    assert same_origin(twice) is False


def test_behind_https_only_https_pages_may_connect(settings):
    settings.HTTPS = True
    settings.ALLOWED_HOSTS = ["kozel.example.org"]
    # The proxy ends TLS and forwards a plain ws:// handshake with the browser's headers.
    assert same_origin(scope("https://kozel.example.org", "kozel.example.org")) is True
    assert same_origin(scope("http://kozel.example.org", "kozel.example.org")) is False
    assert same_origin(scope("https://kozel.example.org:8443", "kozel.example.org")) is False


def test_daphne_serving_tls_itself_expects_https_pages(settings):
    settings.HTTPS = False
    assert same_origin(scope("https://127.0.0.1:8443", "127.0.0.1:8443", scheme="wss")) is True
    assert same_origin(scope("http://127.0.0.1:8443", "127.0.0.1:8443", scheme="wss")) is False
