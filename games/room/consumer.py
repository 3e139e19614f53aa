"""WebSocket consumers: the game room (the lobby's, games/lobby/consumer.py, shares its base).

The room consumer never decides anything: it relays a player's action to
``games.play.service.act`` (on a database thread; on SQLite on the event loop's own connection,
games/play/loopdb.py) and, whenever the match's group says the
match changed, renders its own seat's view and pushes it as an htmx out-of-band swap.
A client that connects or reconnects gets its full view at once.
"""

from __future__ import annotations

import json
import logging
import time

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from games.room import cache as snapshots, hub as roomhub
from games.play import loopdb, notify, service as services
from games.play.dbcall import database_call, conditional_moves_on_loop, write_call
from games.models import Match

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048      # an action is a few dozen bytes; anything big is hostile

# Close codes (4000-4999 are the application's own).
CLOSE_NO_SUCH_GAME = 4404
CLOSE_PRIVATE = 4403
CLOSE_TOO_LARGE = 4413
CLOSE_FLOOD = 4429


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
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) <= 12:
        return int(value)
    return None


class LoopConsumer(AsyncWebsocketConsumer):
    """A consumer whose messages are handled on the event loop without a detour.

    Channels closes stale database connections before handling every message, as one
    more call on its single database thread (DESIGN.md, known traps): for a room that
    is one call per seat per move, queued behind the moves themselves.  These consumers
    reach the database only through ``database_call`` (games/play/dbcall.py), which closes stale
    connections around each of its own calls, so the detour is left out.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class GameConsumer(LoopConsumer):
    """``/ws/games/<id>/``: one seat's (or a spectator's) live game room.

    It has no channel-layer channel of its own: the process's room hub hears the match's
    group and calls ``send_snapshot`` (games/room/hub.py)."""

    channel_layer_alias = None

    async def __call__(self, scope, receive, send):
        # channels' own loop waits on the socket and the layer channel at once, with a
        # new task and an asyncio.wait per message; with only the socket to wait on,
        # a plain loop does.
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:  # also when a handler failed: the hub must not keep a dead room
            await self.leave_room()

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.language = scope_language(self.scope)
        self.bucket = TokenBucket(*settings.KOZEL_WS_FLOOD)
        self.sent_version = -1
        self.sent_table = None
        self.prepared = None  # the snapshot of the move being committed, if made meanwhile
        found, private, seat = await database_call(self._who_am_i)()
        if not found:
            await self.close(code=CLOSE_NO_SUCH_GAME)
            return
        if private and seat is None and not getattr(self.user, "is_staff", False):
            await self.close(code=CLOSE_PRIVATE)  # a private table is for its players
            return
        self.seat = seat
        self.snapshots = snapshots.snapshots()
        await self.accept()
        # Joined after accepting (a frame can be sent only then), before the first load.
        self.hub = roomhub.hub()
        await self.hub.join(self, self.match_id)
        await self.send_room()

    def _who_am_i(self):
        match = Match.objects.filter(pk=self.match_id).only("pk", "private").first()
        if match is None:
            return False, False, None
        return True, match.private, services.seat_of(match, self.user)

    async def disconnect(self, code):
        await self.leave_room()

    async def leave_room(self):
        """Once only, however the consumer ends."""
        hub, self.hub = getattr(self, "hub", None), None
        if hub is not None:
            await hub.leave(self, self.match_id)

    async def receive(self, text_data=None, bytes_data=None):
        # Refusals and notices in the player's language: the override holds on this task
        # and in the database thread the move runs on (channels carries the context over).
        with translation.override(self.language):
            await self.handle_message(text_data)

    async def handle_message(self, text_data):
        if not self.bucket.allow():
            await self.send_notice(_("Too many messages: slow down."), error=True)
            await self.close(code=CLOSE_FLOOD)
            return
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_notice(_("That message is too large."), error=True)
            await self.close(code=CLOSE_TOO_LARGE)
            return
        try:
            data = json.loads(text_data)
        except ValueError:
            await self.send_notice(_("That message is not JSON."), error=True)
            return
        if not isinstance(data, dict):
            await self.send_notice(_("That is not a move."), error=True)
            return
        if data.get("resync"):  # the page asks for its full view (after a hidden tab, say)
            await self.send_room()
            return
        if self.seat is None:
            await self.send_notice(_("You are watching this game: spectators cannot play."),
                                   error=True)
            return
        version = parse_version(data.get("version"))
        message = {k: data[k] for k in ("play", "end", "draw", "knock", "seat") if k in data}
        try:
            notices = await self.move(message, version)
            # Not kept here after: a thousand rooms would each hold an old snapshot.
            prepared, self.prepared = self.prepared, None
            self.snapshots.prime(notices, prepared)
            await self.show_own_move(notices)
            if self.hub is not None:  # the other rooms here: at once, not via Redis
                self.hub.show_here(notices)
            await notify.send_collected(notices)
        except services.PlayError as refusal:
            await self.send_notice(refusal.message, error=True)
            if refusal.code == "stale":
                await self.send_room()
        except DatabaseError as error:
            # Nothing was changed, or (a connection lost at COMMIT) the move went through
            # and a repeat of it is refused as stale: trying again is always safe.
            log.warning("match %s: database unavailable for a move: %s", self.match_id, error)
            await self.send_notice(_("The game cannot reach its database just now: "
                                     "try again in a moment."), error=True)
        # On success this seat has its new view (show_own_move) or gets it with the others
        # when the group hears of the change (games/room/hub.py).

    async def show_own_move(self, notices):
        """The player who moved sees it at once, from the snapshot just primed, before the
        group hears of it (the hub then passes this seat by: it is at that version)."""
        for notice in reversed(notices):
            change = notice.message
            if change.get("type") == "match.changed" and change.get("match") == self.match_id:
                snapshot = self.snapshots.latest.get(self.match_id)
                if snapshot is not None and snapshot.version == change["version"]:
                    try:
                        await self.send_snapshot(snapshot, change.get("events", ()))
                    except Exception:  # the group's notice is still sent: the hub tries again
                        log.exception("match %s: could not show a move to its player",
                                      self.match_id)
                return

    async def move(self, message, version):
        """Make the move; the notices it collected.

        The match as this process last showed it is passed along: a move on it may be
        written without reading the match first (games.play.service.act_on_known); on
        PostgreSQL that is one statement, made on the event loop itself when it needs no
        lock another transaction holds (games/play/loopdb.py, ``run_now``), and the frames of
        this process's rooms are rendered while PostgreSQL answers (``prepare_frames``)."""
        self.prepared = None
        known = self.snapshots.latest.get(self.match_id)
        if known is not None and conditional_moves_on_loop():
            try:
                notices = loopdb.run_now(self._act_on_known, message, version, known)
            except DatabaseError as error:
                # The loop's connection failed (PostgreSQL restarted, say): the locked way,
                # on a database thread whose connection is checked before use, decides.
                # Safe even if the statement did commit: the move is then refused as stale.
                log.warning("match %s: a move on the event loop failed (%s); taking the "
                            "locked way", self.match_id, type(error).__name__)
                notices = None
            if notices is not None:
                return notices
            known = self.prepared = None  # that move takes the locked way
        return await write_call(self._act, message, version, known)

    def _act_on_known(self, message, version, known):
        with notify.collected() as notices:
            if services.act_on_known(known.match, known.state, self.user, message, version,
                                     nowait=True, meanwhile=self.prepare_frames) is None:
                return None
        return notices

    def prepare_frames(self, match, state, round_scores, events):
        """While the move commits: the frames of the match's rooms in this process, the
        mover's first, rendered from the snapshot the move will have.  That snapshot is
        kept, and its frames sent, only once the move has committed (``prime``)."""
        snapshot = self.snapshots.prepared(match, state, round_scores)
        if snapshot is None:
            return
        public = notify.public_events(events)
        others = self.hub.rooms.get(self.match_id, ()) if self.hub is not None else ()
        for room in (self, *(c for c in others if c is not self)):
            snapshots.prepare_frame(snapshot, room.seat, room.language, announce, public)
        self.prepared = snapshot

    def _act(self, message, version, known):
        with notify.collected() as notices:
            services.act(self.match_id, self.user, message, version, known)
        return notices

    async def resend_view(self, since: float):
        """After Redis came back (the hub is in the group again): a view loaded since."""
        await self.send_snapshot(await self.snapshots.at_least(self.match_id, 0, since))

    async def send_room(self, events=()):
        """This seat's full view, loaded now (on connecting, resyncing, a stale move)."""
        self.sent_table = None  # the page may have been reloaded: everything again
        await self.send_snapshot(await self.snapshots.fresh(self.match_id), events)

    async def send_snapshot(self, snapshot, events=()):
        # Rendered here on the event loop: the snapshot holds all the room shows, so the
        # one database thread is left to moves and loads (docs/performance.md).
        if snapshot is not None and snapshot.version >= self.sent_version:
            self.sent_version = snapshot.version
            frame = snapshots.render(snapshot, self.seat, self.language, announce, events)
            table_key, table = snapshots.score_table(snapshot, self.language)
            if table_key != self.sent_table:  # it changes once a round: sent only then
                self.sent_table = table_key
                frame += table
            await self.send(text_data=frame)

    async def send_notice(self, text: str, error: bool = False):
        html = render_to_string("games/_notice.html", {"text": text, "error": error})
        await self.send(text_data=html)


def announce(events, names) -> list[str]:
    """What the room says about what just happened (knocks made for a player, round ends)."""
    said = []
    for event in events:
        kind = event["type"]
        name = names.get(event.get("seat"), "")
        if kind == "knocked":
            said.append(_("%(name)s knocks: nothing fits and the bazaar is empty.") % {"name": name}
                        if event.get("auto") else _("%(name)s knocks.") % {"name": name})
        elif kind == "round_ended":
            said.append(_("Round over: %(name)s went out.") % {"name": name}
                        if event["result"] == "out"
                        else _("Fish! %(name)s placed it.") % {"name": name})
        elif kind == "interrupted":
            said.append(_("%(name)s ran out of time: the game is interrupted.") % {"name": name}
                        if event["reason"] == "timeout"
                        else _("%(name)s left: the game is interrupted.") % {"name": name})
        elif kind == "game_over":
            said.append(_("The game is over."))
        elif kind == "aborted":
            said.append(_("A moderator stopped the game."))
    return said
