"""The WebSocket handshake's origin check: only the site's own pages may open a socket.

A browser sends the page's origin with every WebSocket handshake, and the session cookie
along with it whatever page asks, so the origin is all that tells the player's own game
room from another site's page acting in their name. Channels' AllowedHostsOriginValidator
compares only the origin's host name with ALLOWED_HOSTS: a page of http://127.0.0.1:9999
(any other program on the player's machine) could open a socket to the site on :8000.
Here the origin must be the very site the handshake was made to: the scheme the site is
served with, and the host and port of the request's Host header, itself an allowed host.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
# What Django itself allows when DEBUG is on and ALLOWED_HOSTS is empty (HttpRequest.get_host).
DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]


def site_scheme(scope) -> str:
    """The scheme of the site's pages: https when the site is served over TLS, by
    daphne itself (wss) or by a proxy in front of it (the HTTPS setting)."""
    return "https" if settings.HTTPS or scope.get("scheme") == "wss" else "http"


def header(scope, name: bytes) -> str:
    values = [value for key, value in scope.get("headers", ()) if key == name]
    # None, or several (which no browser sends): no answer to trust.
    return values[0].decode("latin1") if len(values) == 1 else ""


def allowed_hosts() -> list[str]:
    if not settings.ALLOWED_HOSTS and settings.DEBUG:
        return DEBUG_HOSTS
    return settings.ALLOWED_HOSTS


def same_origin(scope) -> bool:
    """Whether the handshake's Origin is the site at its Host header, scheme and port too."""
    origin, host = header(scope, b"origin"), header(scope, b"host")
    domain, port = split_domain_port(host)
    if not origin or not domain or not validate_host(domain, allowed_hosts()):
        return False
    scheme = site_scheme(scope)
    try:
        parsed = urlsplit(origin)
        origin_port = parsed.port or DEFAULT_PORTS.get(parsed.scheme)
    except ValueError:  # a port out of range, a malformed address
        return False
    site_port = int(port) if port else DEFAULT_PORTS[scheme]
    return (parsed.scheme == scheme
            and parsed.hostname == domain.strip("[]")  # urlsplit drops an IPv6's brackets
            and origin_port == site_port
            and origin == f"{parsed.scheme}://{parsed.netloc}"  # no path or query
            and "@" not in parsed.netloc)  # nor a user name


class SameOriginValidator:
    """ASGI middleware for WebSockets: refuses a handshake from any other origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
