"""What every WebSocket of the site shares (DESIGN.md, games/live): the base of the
lobby's, the game room's and the arena's sockets.

- **Admission**: an account's rate of connections and messages over all its sockets, and
  its places among a cap of open sockets (games/live/caps.py), checked before the
  database is touched.  A refusal accepts and then closes with a code of the site's own
  (4xxx), which the page shows and does not retry; a bare refusal at the handshake
  reaches a browser as 1006, which says nothing and is retried.
- **Messages**: a size cap, a flood limit per socket, and decoding -- a message that is
  not JSON, not an object, or not valid text (lone surrogates, NUL: what no database
  takes) is refused with a notice and the socket is kept.
- **The heartbeat**: a page beats when no view has come for a while, ``{"beat": <the
  version it shows>}`` (a page being sent views needs no beat).  The answer keeps the page's connection known to be alive -- without one it
  shows "no connection" and reconnects (static/js/kozel.js) -- and a page that is behind
  is sent its full view instead (``on_beat``).  That is the one way a lost notice is made
  good.  Beats have a rate of their own and do not count against the account's.
- **Groups**: a socket listens to its groups through its process's fan-out
  (games/live/fanout.py), and leaves them and gives back its place however it ends.
- **Closing once**: once a socket is closing nothing more is sent; a frame sent after the
  client went away is dropped (daphne raises for it: kozel_site/runtime/daphne.py).
"""

from __future__ import annotations

import json
import logging
import time

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from accounts import presence
from games.live import caps
from games.live.fanout import fanout
from kozel_site.runtime.daphne import SocketClosing

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048  # an action is a few dozen bytes; anything big is hostile

# Close codes (4000-4999 are the application's own; the page retries none of them).
CLOSE_NOT_A_MESSAGE = 4400
CLOSE_PRIVATE = 4403
CLOSE_NO_SUCH_PAGE = 4404
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_TOO_LARGE = 4413
CLOSE_FLOOD = 4429

# The heartbeat: a page beats once no view has come for BEAT_SECONDS (static/js/kozel.js
# has the same figure and says why), one beat awaiting its answer at a time; more than
# BEAT_BURST beats at once, or more than one a BEAT_FLOOR seconds on average, is a flood.
BEAT_SECONDS = 2.25
BEAT_FLOOR = 0.5
BEAT_BURST = 4
# The answer to a beat when the page is up to date: an empty frame (nothing to swap).
BEAT_ANSWER = ""


def scope_language(scope) -> str:
    """The language the person chose (the language cookie), else their browser's."""
    supported = {code for code, _name in settings.LANGUAGES}
    chosen = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in supported:
        return chosen
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in trans_real.parse_accept_lang_header(accept):
        code = code.split("-")[0].lower()
        if code in supported:
            return code
    return settings.LANGUAGE_CODE


class TokenBucket:
    """Allows ``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def parse_version(value) -> int | None:
    """A version as the page sends it (a number, or its ASCII digits), else None.
    ``str.isdigit`` alone lets through digits ``int`` refuses ("²")."""
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    return None


def is_valid_text(data) -> bool:
    """Whether every string in decoded JSON (keys too) is text a database can keep:
    encodable as UTF-8 (no lone surrogates, which JSON's escapes can make) and free of NUL."""
    if isinstance(data, str):
        if "\x00" in data:
            return False
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(data, dict):
        return all(is_valid_text(k) and is_valid_text(v) for k, v in data.items())
    if isinstance(data, list):
        return all(is_valid_text(item) for item in data)
    return True


def decode(text_data: str) -> tuple[dict | None, str | None]:
    """A message as a JSON object of valid text, or None and why not (in the person's
    language)."""
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to decode
        return None, _("That message is not JSON.")
    if not isinstance(data, dict):
        return None, _("That is not a message of this page.")
    if not is_valid_text(data):
        return None, _("That message is not valid text.")
    return data, None


class LiveConsumer(AsyncWebsocketConsumer):
    """A page's socket.  A subclass says what it is for:

    - ``admit()``: whether this socket may open (it may close it with a code and say no);
    - ``place()``: its place among its owner's capped sockets (a ``caps.Slot``), or None;
    - ``opened()``: once accepted, join its groups (``listen``) and send the first view;
    - ``on_message(data)``: a decoded message other than a beat (``on_refused(why)``: one
      that could not be decoded; the default tells the page why and keeps the socket);
    - ``on_beat(version)``: a beat; the page shows ``version`` (None if it said none).
      The default answers that the page is alive;
    - ``closed()``: once, however the socket ended.
    """

    # No channel of its own on the layer: the process's fan-out hears the groups.
    channel_layer_alias = None
    closing = False
    what = "socket"  # in log lines: what kind of page this socket serves

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when a handler failed: no group keeps a dead socket
            await self._end()

    async def dispatch(self, message):
        # Channels closes stale database connections before every message, as a call of
        # its own on the database thread; these sockets reach the database only through
        # games.live.dbcall, which closes them around each of its calls, so that extra
        # trip (one per message) is left out.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # -- opening -----------------------------------------------------------------------

    async def connect(self):
        self.user = self.scope["user"]
        self.language = scope_language(self.scope)
        self.owner = caps.owner(self.scope)
        self.bucket = TokenBucket(*settings.KOZEL_WS_FLOOD)
        self.beats = TokenBucket(1 / BEAT_FLOOR, BEAT_BURST)
        self.listening: list[str] = []
        self.slot = None
        # Before the database: a reconnecting loop costs a full view each time.
        if await caps.over_account_rate(self.owner):
            await self.refuse(CLOSE_FLOOD, "account-rate", f"connections to {self.what}")
            return
        if not await self.admit():
            return
        slot = self.place()
        if slot is not None:
            if not await slot.take():
                await self.refuse(CLOSE_TOO_MANY_SOCKETS, f"{self.what}-sockets", self.what)
                return
            self.slot = slot
        await self.accept()
        await self._seen()
        await self.opened()

    async def admit(self) -> bool:
        return True

    async def _seen(self) -> None:
        """Its person is online (accounts.presence), marked at most every TOUCH_EVERY s."""
        if not getattr(self.user, "is_authenticated", False):
            return
        now = time.monotonic()
        if now - getattr(self, "seen_at", -presence.TOUCH_EVERY) >= presence.TOUCH_EVERY:
            self.seen_at = now
            try:  # on the loop in the embedded setup: not behind the moves' database thread
                await caps.cache_call(presence.touch)(self.user.pk)
            except Exception as error:  # the cache away (Redis restarting): only a mark missed
                log.warning("presence: the cache is unavailable: %s", error)

    def place(self):
        return None

    async def opened(self) -> None:
        pass

    async def refuse(self, code: int, what: str, detail: str) -> None:
        """Accept, then close with ``code`` (module docstring); one log line a minute at
        most per owner and kind of refusal."""
        await caps.log_refusal_once(what, self.owner, detail)
        await self.accept()
        await self.close(code=code)

    async def listen(self, group: str) -> None:
        """Hear every notice to ``group`` from now on (games/live/fanout.py)."""
        if group not in self.listening:
            self.listening.append(group)
            await fanout().join(group, self)

    # -- closing -----------------------------------------------------------------------

    async def disconnect(self, code):
        await self._end()

    async def websocket_disconnect(self, message):
        self.closing = True
        await super().websocket_disconnect(message)

    async def _end(self) -> None:
        """Once only, however the socket ends: its groups left, its place given back."""
        if getattr(self, "ended", False):
            return
        self.ended = True
        for group in getattr(self, "listening", ()):
            await fanout().leave(group, self)
        slot = getattr(self, "slot", None)
        if slot is not None:
            await slot.give_back()
        if hasattr(self, "listening"):  # it had opened
            await self.closed()

    async def closed(self) -> None:
        pass

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.closing:
            return
        self.closing = bool(close)
        try:
            await super().send(text_data, bytes_data, close)
        except SocketClosing:
            self.closing = True  # its disconnect is on the way

    async def close(self, code=None, reason=None):
        if self.closing:
            return
        self.closing = True
        await super().close(code, reason)

    # -- messages ----------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        # Refusals and notices in the person's language: the override holds on this task
        # and in the threads its database calls run on (asgiref carries the context).
        with translation.override(self.language):
            if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
                await self.send_notice(_("That message is too large."), error=True)
                await self.close(code=CLOSE_TOO_LARGE)
                return
            await self._seen()
            data, refusal = decode(text_data)
            if data is not None and data.keys() == {"beat"}:
                if not self.beats.allow():
                    await self._flood()
                    return
                await self.on_beat(parse_version(data["beat"]))
                return
            if not self.bucket.allow():
                await self._flood()
                return
            if await caps.over_account_rate(self.owner):  # over all its sockets
                await caps.log_refusal_once("account-rate", self.owner,
                                            f"messages to {self.what}")
                await self._flood()
                return
            if refusal is not None:
                await self.on_refused(refusal)
                return
            await self.on_message(data)

    async def _flood(self) -> None:
        await self.send_notice(_("Too many messages: slow down."), error=True)
        await self.close(code=CLOSE_FLOOD)

    async def on_message(self, data: dict) -> None:
        await self.send_notice(_("That is not a message of this page."), error=True)

    async def on_refused(self, refusal: str) -> None:
        """A message that could not be decoded; ``refusal`` says why."""
        await self.send_notice(refusal, error=True)

    async def on_beat(self, version: int | None) -> None:
        await self.answer_beat()

    async def answer_beat(self) -> None:
        await self.send(text_data=BEAT_ANSWER)

    async def send_notice(self, text: str, error: bool = False) -> None:
        html = render_to_string("games/_notice.html", {"text": text, "error": error})
        await self.send(text_data=html)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every WebSocket path the site does not serve: refused at the handshake (daphne
    answers HTTP 403), with no log line of its own -- rather than the router's
    "No route found" error, an HTTP 500 and a traceback."""

    async def connect(self):
        await self.close()
