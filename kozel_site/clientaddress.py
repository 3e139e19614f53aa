"""The client's address, as every limit of the site counts it (log-ins, sign-ups, resets).

By default it is the socket's own address (REMOTE_ADDR): a header such as X-Forwarded-For
is written by whoever sends the request, so trusting it would let anyone pick a new
address for every attempt. Behind reverse proxies, TRUSTED_PROXIES (the number of them in
front of the site) says how many of the header's last entries were written by proxies of
our own; the entry before those is the address the outermost proxy saw, which the client
cannot forge (anything a client puts in the header stands further left).
"""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The client's IP address: REMOTE_ADDR, or with TRUSTED_PROXIES = n the n-th entry of
    X-Forwarded-For counted from its right end."""
    return address_behind_proxies(request.META.get("REMOTE_ADDR", ""),
                                  request.META.get("HTTP_X_FORWARDED_FOR", ""))


def scope_address(scope) -> str:
    """The same address for a WebSocket (or any ASGI connection), from its scope."""
    client = scope.get("client") or ("", 0)
    forwarded = b",".join(value for name, value in scope.get("headers") or ()
                          if name.lower() == b"x-forwarded-for")
    return address_behind_proxies(str(client[0] or ""), forwarded.decode("latin-1"))


def address_behind_proxies(socket_address: str, forwarded_header: str) -> str:
    """The socket's address, or the one TRUSTED_PROXIES of our own vouch for in the header."""
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return socket_address
    forwarded = [entry.strip() for entry in forwarded_header.split(",")]
    forwarded = [entry for entry in forwarded if entry]
    if not forwarded:
        return socket_address
    # Fewer entries than proxies: the first proxy wrote the whole header itself.
    candidate = forwarded[-proxies] if len(forwarded) >= proxies else forwarded[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return socket_address
