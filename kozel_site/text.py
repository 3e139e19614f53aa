"""A clean refusal (400) for a request whose path, query or form is not valid text.

Django decodes a URL or a form it cannot read as UTF-8 by replacing what it cannot read,
and lets NUL through: a view would then look a NUL up in PostgreSQL (which refuses it
with an error, a 500) or keep a replaced character nobody typed.  This middleware reads
the raw bytes first -- the path, the query string and an url-encoded body, each
percent-decoded -- and refuses the request unless they are UTF-8 without NUL and without
encoded surrogates.  (The sockets' messages are checked by games/live/base.py.)
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _

FORM = "application/x-www-form-urlencoded"


def is_valid_bytes(raw: bytes) -> bool:
    """Whether percent-decoded ``raw`` is UTF-8 text without NUL.  Python's strict UTF-8
    refuses encoded surrogates (ED A0 80 ...) and overlong forms."""
    data = unquote_to_bytes(raw.replace(b"+", b" "))
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_valid_str(text: str) -> bool:
    """Whether ``text`` (as a server already decoded it) is UTF-8 encodable, without NUL."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _raw_path(request) -> bytes | None:
    scope = getattr(request, "scope", None)
    if scope is not None and scope.get("raw_path"):
        return scope["raw_path"]
    return None


def _raw_query(request) -> bytes:
    scope = getattr(request, "scope", None)
    if scope is not None:  # ASGI: the bytes as they came
        query = scope.get("query_string", b"")
        return query if isinstance(query, bytes) else query.encode("utf-8", "surrogateescape")
    # WSGI keeps it as latin-1 text, byte for byte.
    return request.META.get("QUERY_STRING", "").encode("latin-1", "replace")


def request_is_valid_text(request) -> bool:
    raw_path = _raw_path(request)
    if raw_path is not None and not is_valid_bytes(raw_path):
        return False
    # Under WSGI Django keeps the bytes of a path it cannot decode percent-encoded.
    if not is_valid_str(request.path) or not is_valid_bytes(request.path.encode("utf-8")):
        return False
    if not is_valid_bytes(_raw_query(request)):
        return False
    if request.method == "POST" and request.content_type == FORM:
        if not is_valid_bytes(request.body):
            return False
    return True


class InvalidTextMiddleware:
    """Refuse, with 400, a request that is not valid text (module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request_is_valid_text(request):
            return HttpResponseBadRequest(_("The request is not valid text."),
                                          content_type="text/plain; charset=utf-8")
        return self.get_response(request)
