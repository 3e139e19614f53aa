"""The game room's WebSocket: ``/ws/games/<id>/``, one seat's (or a spectator's) live room.

It never decides anything: it decodes a player's action and hands it to
``games.play.service.act`` off the event loop; the process's room hub (games/room/hub.py)
then shows the change to every room of the match here, the mover's first, and the
match's group tells the other processes.  A client that connects or reconnects gets its
full view at once.
"""

from __future__ import annotations

import json
import logging
import time

from channels.consumer import get_handler_name
from games.room.closing import ClosingOnce
from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from games.lobby import rematch
from games.models import Match
from games.play import notify, service
from games.play.dbcall import database_call, move_call
from games.play.errors import PlayError
from games.room import cache, chat, hub as hubs, rematch as rematch_html, socketcaps, watching
from kozel_site.clientaddress import scope_address

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048      # an action is a few dozen bytes; anything big is hostile

# Close codes (4000-4999 are the application's own).
CLOSE_NO_SUCH_GAME = 4404
CLOSE_PRIVATE = 4403
CLOSE_TOO_LARGE = 4413
CLOSE_FLOOD = 4429
CLOSE_NOT_A_MESSAGE = 4400
CHAT_KEYS = {"chat", "chat_mute", "chat_report"}

# Over a cap across sockets (games/room/socketcaps.py): too many open at once.  The page
# says so and does not reconnect (static/js/kozel.js), as for every 4xxx code.
CLOSE_TOO_MANY_SOCKETS = 4409


async def refuse(consumer, code: int, what: str, who: str, detail: str) -> None:
    """Accept, then close with ``code``: a refusal at the handshake reaches a browser as a
    bare 1006, which says nothing and is retried; one log line a minute at most."""
    await socketcaps.log_refusal_once(what, who, detail)
    await consumer.accept()
    await consumer.close(code=code)


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


class GameConsumer(ClosingOnce):
    # No channel-layer channel of its own: the process's hub hears the match's group and
    # calls ``send_snapshot`` (games/room/hub.py).
    channel_layer_alias = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when a handler failed: the hub must not keep a dead room
            await self.leave_room()

    async def dispatch(self, message):
        # Channels closes stale database connections before every message, as a call of
        # its own on the database thread; this room reaches the database only through
        # database_call and move_call, which close them around each of their calls, so
        # that extra trip (one per message) is left out.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.language = scope_language(self.scope)
        self.bucket = TokenBucket(*settings.KOZEL_WS_FLOOD)
        self.sent_version = -1
        self.sent_table = None
        # The offer of one more game once the game is over (its public view), and whether
        # this room shows the game's end, which has the offer's slot.
        self.rematch = None
        self.shows_end = False
        self.owner = socketcaps.owner(self.scope)
        # Before the database: a reconnecting loop costs a full view each time.
        if await socketcaps.over_account_rate(self.owner):
            await refuse(self, CLOSE_FLOOD, "account-rate", self.owner,
                         f"connections to game {self.match_id}")
            return
        match, seat, hidden = await database_call(self._who_am_i)()
        if match is None:
            await self.close(code=CLOSE_NO_SUCH_GAME)
            return
        if hidden:
            await self.close(code=CLOSE_PRIVATE)  # a private table is for its players
            return
        self.slot = socketcaps.game_slot(self.owner, self.match_id)
        if not await self.slot.take():
            await refuse(self, CLOSE_TOO_MANY_SOCKETS, "game-sockets", self.owner,
                         f"game {self.match_id}")
            return
        self.seat = seat
        self.chat_room = chat.room_for(seat)
        self.snapshots = cache.snapshots()
        await self.accept()
        # Joined after accepting (a frame can be sent only then), before the first load.
        self.hub = hubs.hub()
        await self.hub.join(self, self.match_id)
        if seat is None:  # a spectator: counted until its room ends (leave_room)
            await watching.arrived(self.match_id)
            self.counted_watching = True
        if match.is_over:  # read after joining the hub, so that no later change goes unheard
            self.keep_rematch(await database_call(rematch.view_of)(self.match_id))
        # The chat and the count of watchers come in the same first frame as the room:
        # one frame per connection.
        await self.send_room(extra=await self.chat_frame()
                             + watching.html(await watching.count(self.match_id)))

    def _who_am_i(self):
        """The match, this socket's seat at it, and whether it is hidden from this user."""
        match = Match.objects.filter(pk=self.match_id).only("pk", "private", "status").first()
        if match is None:
            return None, None, True
        seat = service.seat_of(match, self.user)
        return match, seat, match.hidden_from(self.user, seat)

    async def disconnect(self, code):
        await self.leave_room()

    async def leave_room(self):
        """Once only, however the consumer ends; its socket's slot is free again."""
        hub, self.hub = getattr(self, "hub", None), None
        if hub is not None:
            await hub.leave(self, self.match_id)
            if getattr(self, "counted_watching", False):
                await watching.left(self.match_id)
        slot = getattr(self, "slot", None)
        if slot is not None:
            await slot.give_back()

    async def receive(self, text_data=None, bytes_data=None):
        # Refusals and notices in the player's language: the override holds on this task
        # and in the thread the move runs on (asgiref carries the context over).
        with translation.override(self.language):
            await self.handle_message(text_data)

    async def handle_message(self, text_data):
        if not self.bucket.allow():
            await self.send_notice(_("Too many messages: slow down."), error=True)
            await self.close(code=CLOSE_FLOOD)
            return
        if await socketcaps.over_account_rate(self.owner):  # over all its sockets
            await socketcaps.log_refusal_once("account-rate", self.owner,
                                              f"messages to game {self.match_id}")
            await self.send_notice(_("Too many messages: slow down."), error=True)
            await self.close(code=CLOSE_FLOOD)
            return
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_notice(_("That message is too large."), error=True)
            await self.close(code=CLOSE_TOO_LARGE)
            return
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nested too deep to decode
            await self.send_notice(_("That message is not JSON."), error=True)
            return
        if not isinstance(data, dict):
            await self.send_notice(_("That is not a move."), error=True)
            return
        if data.keys() & CHAT_KEYS:  # never a move: handled apart, the match untouched
            await self.handle_chat(data)
            return
        if "rematch" in data:  # an answer to the offer of one more game: no move either
            await self.handle_rematch(data)
            return
        if self.seat is None:
            await self.send_notice(_("You are watching this game: spectators cannot play."),
                                   error=True)
            return
        version = parse_version(data.get("version"))
        message = {k: data[k] for k in ("play", "end", "draw", "knock", "seat") if k in data}
        try:
            notices = await move_call(self._act, message, version,
                                      self.snapshots.known(self.match_id))
        except PlayError as refusal:
            await self.send_notice(refusal.message, error=True)
            if refusal.code == "stale":
                await self.send_room()
            return
        except DatabaseError as error:
            # Nothing was changed, or (a connection lost at COMMIT) the move went through
            # and a repeat of it is refused as stale: trying again is always safe.
            await self.database_unavailable("a move", error)
            return
        self.snapshots.prime(notices)  # shown here from what was written, not read back
        if self.hub is not None:  # this process's rooms at once, the mover's first
            self.hub.show_here(notices, first=self)
        await notify.send_collected(notices, shown_here=self.hub is not None)  # and the other processes'

    async def handle_chat(self, data):
        try:
            if "chat" in data:
                await notify.send_collected(await database_call(self._post)(data["chat"]))
            elif "chat_mute" in data:
                await database_call(chat.mute)(self.match_id, self.user, data["chat_mute"])
                await self.send(text_data=await self.chat_frame())  # their lines go at once; the hub leaves out new ones
            else:
                await database_call(chat.report)(self.match_id, self.user, data["chat_report"])
                await self.send_notice(_("The message is sent to the moderators."))
        except chat.ChatRefused as refusal:
            await self.send_notice(refusal.message, error=True)
        except DatabaseError as error:
            await self.database_unavailable("the chat", error)

    async def handle_rematch(self, data):
        try:
            notices = await database_call(self._answer_rematch)(data)
        except PlayError as refusal:
            await self.send_notice(refusal.message, error=True)
            return
        except DatabaseError as error:
            await self.database_unavailable("one more game", error)
            return
        await notify.send_collected(notices)  # every room of the game shows the answer

    async def database_unavailable(self, what: str, error: DatabaseError):
        """A message ``what`` was for (a move, the chat, ...) found no database: logged,
        and the sender told to try again."""
        log.warning("match %s: database unavailable for %s: %s", self.match_id, what, error)
        await self.send_notice(_("The game cannot reach its database just now: "
                                 "try again in a moment."), error=True)

    def _answer_rematch(self, data):
        with notify.collected() as notices:
            rematch.answer(self.match_id, self.user, data, scope_address(self.scope))
        return notices

    def keep_rematch(self, offer: dict | None) -> bool:
        """Keep ``offer`` unless this room knows a later state of it already (notices
        from several processes, and a load, may come in any order)."""
        if offer is None or (self.rematch is not None
                             and offer["step"] < self.rematch["step"]):
            return False
        self.rematch = offer
        return True

    async def show_rematch(self, offer: dict):
        """The offer of one more game changed (from the hub): shown once this room shows
        the game's end, which has its slot (until then it only waits for that frame)."""
        if self.keep_rematch(offer) and self.shows_end:
            await self.send(text_data=self._rematch_html())

    def _rematch_html(self) -> str:
        with translation.override(self.language):
            return rematch_html.html(self.rematch, self._reader_id())

    def _post(self, text):
        with notify.collected() as notices:
            chat.post(self.match_id, self.user, self.seat, text)
        # Sent from the loop, like a move's notices; every room (this one too) shows the
        # line when the match's group hands it to its hub.
        return notices

    async def chat_frame(self) -> str:
        """The chat this room shows, whole (on connecting, and after muting someone)."""
        lines, self.muted = await database_call(self._chat_now)()
        with translation.override(self.language):
            return chat.log_html([line for line in lines if line.author_id not in self.muted],
                                 self._reader_id())

    def _chat_now(self):
        return chat.history(self.match_id, self.chat_room), chat.muted_by(self.user)

    def _reader_id(self):
        return self.user.pk if self.user.is_authenticated else None

    async def show_chat_line(self, line: "chat.Line"):
        """A new line of this match (from the hub): shown if this reader reads its chat
        and has not muted its author."""
        if line.room != self.chat_room or line.author_id in getattr(self, "muted", ()):
            return
        with translation.override(self.language):
            await self.send(text_data=chat.line_html(line, self._reader_id()))

    async def show_watching(self, count: int):
        if self.sent_version < 0:
            return  # its first frame, still to come, carries the count
        await self.send(text_data=watching.html(count))

    async def drop_chat_line(self, message_id: int):
        await self.send(text_data=chat.deleted_html(message_id))

    def _act(self, message, version, known):
        with notify.collected() as notices:
            service.act(self.match_id, self.user, message, version, known)
        return notices

    async def resend_view(self, since: float):
        """After Redis came back (the hub is in the group again): a view loaded since."""
        await self.send_snapshot(await self.snapshots.at_least(self.match_id, 0, since))

    async def send_room(self, extra=""):
        """This seat's full view, loaded now (on connecting, or after a stale move);
        ``extra``, more markup, goes in the same frame."""
        self.sent_table = None  # the page may have been reloaded: everything again
        snapshot = await self.snapshots.fresh(self.match_id)
        if snapshot is None and extra:
            await self.send(text_data=extra)
        await self.send_snapshot(snapshot, extra)

    async def send_snapshot(self, snapshot, extra=""):
        if snapshot is not None and snapshot.version >= self.sent_version:
            self.sent_version = snapshot.version
            frame = cache.render(snapshot, self.seat, self.language)
            table_key, table = cache.score_table(snapshot, self.language)
            if table_key != self.sent_table:  # it changes once a round: sent only then
                self.sent_table = table_key
                frame += table
            self.shows_end = snapshot.match.is_over
            if self.shows_end and self.rematch is not None:  # into the slot just sent
                frame += self._rematch_html()
            await self.send(text_data=frame + extra)

    async def send_notice(self, text: str, error: bool = False):
        html = render_to_string("games/_notice.html", {"text": text, "error": error})
        await self.send(text_data=html)
