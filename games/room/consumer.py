"""The game room's WebSocket: ``/ws/games/<id>/``, one seat's (or a spectator's) live room.

It never decides anything: it decodes a player's action and hands it to
``games.play.service.act`` off the event loop; the process's fan-out (games/live/fanout.py)
then shows the change to every room of the match here, the mover's first, and the
match's group tells the other processes.  A client that connects or reconnects gets its
full view at once, and a page whose heartbeat shows it behind the committed version gets
it again (``on_beat``).  What every socket shares is games/live/base.py.
"""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from games.live import caps
from games.live.base import (BEAT_SECONDS, CLOSE_NO_SUCH_PAGE, CLOSE_PRIVATE, LiveConsumer,
                             parse_version)
from games.live.dbcall import database_call
from games.live.fanout import publish_committed
from games.lobby import rematch
from games.models import Match
from games.play import notify, service
from games.play.errors import PlayError
from games.room import cache, chat, rematch as rematch_html, versions, watching
from kozel_site.clientaddress import scope_address

log = logging.getLogger(__name__)

CHAT_KEYS = {"chat", "chat_mute", "chat_report"}
MOVE_KEYS = ("play", "end", "draw", "knock", "seat")


class GameConsumer(LiveConsumer):
    what = "game"

    async def admit(self) -> bool:
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.sent_version = -1
        self.sent_at = 0.0
        self.sent_table = None
        # The offer of one more game once the game is over (its public view), and whether
        # this room shows the game's end, which has the offer's slot.
        self.rematch = None
        self.shows_end = False
        match, seat, hidden = await database_call(self._who_am_i)()
        if match is None:
            await self.close(code=CLOSE_NO_SUCH_PAGE)
            return False
        if hidden:
            await self.close(code=CLOSE_PRIVATE)  # a private table is for its players
            return False
        self.seat = seat
        self.match = match
        return True

    def place(self):
        return caps.game_slot(self.owner, self.match_id)

    async def opened(self) -> None:
        self.chat_room = chat.room_for(self.seat)
        self.muted = frozenset()  # whose lines this reader is not shown: read with the chat
        self.snapshots = cache.snapshots()
        self.snapshots.watch(self.match_id)
        self.watched = True
        # Listening before the first load, so that no later change goes unheard: the
        # match's, and its reader's own (whose chat lines they are shown).
        await self.listen(notify.match_group(self.match_id))
        if self.user.is_authenticated:
            await self.listen(notify.user_group(self.user.pk))
        if self.seat is None:  # a spectator: counted until its room ends (``closed``)
            self.watching_as = self.user.get_username() if self.user.is_authenticated else ""
            await watching.arrived(self.match_id, self.watching_as)
            self.counted_watching = True
        if self.match.is_over:  # read after listening, so that no later change goes unheard
            self.keep_rematch(await database_call(rematch.view_of)(self.match_id))
        # The chat and the count of watchers come in the same first frame as the room:
        # one frame per connection.
        count = await watching.count(self.match_id)
        with translation.override(self.language):
            counted = watching.html(count, self.match_id)
        await self.send_room(extra=await self.chat_frame() + counted)

    def _who_am_i(self):
        """The match, this socket's seat at it, and whether it is hidden from this user."""
        match = Match.objects.filter(pk=self.match_id).only("pk", "private", "status").first()
        if match is None:
            return None, None, True
        seat = service.seat_of(match, self.user)
        return match, seat, match.hidden_from(self.user, seat)

    async def closed(self) -> None:
        if getattr(self, "watched", False):
            self.snapshots.unwatch(self.match_id)
        if getattr(self, "counted_watching", False):
            await watching.left(self.match_id, self.watching_as)

    async def on_message(self, data: dict) -> None:
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
        message = {k: data[k] for k in MOVE_KEYS if k in data}
        try:
            notices = await database_call(self._act)(message, version,
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
        # Shown here from what was written, not read back; the mover's room first.
        await publish_committed(notices, first=self)

    async def handle_chat(self, data):
        # What the chat answers is said beside it (#chat-notice), not at the top of the page.
        try:
            if "chat" in data:
                await notify.send_collected(await database_call(self._post)(data["chat"]))
                await self.send(text_data=chat.notice_html(sent=True))  # the field is emptied
            elif "chat_mute" in data:
                notices = await database_call(self._mute)(data["chat_mute"])
                await self.send(text_data=await self.chat_frame())  # their lines go at once; new ones are left out
                await notify.send_collected(notices)  # and from the reader's other rooms
            else:
                await database_call(chat.report)(self.match_id, self.user, data["chat_report"])
                with translation.override(self.language):
                    answer = (chat.reported_html(data["chat_report"])
                              + chat.notice_html(_("The message is sent to the moderators."),
                                                 fleeting=True))
                await self.send(text_data=answer)
        except chat.ChatRefused as refusal:
            with translation.override(self.language):
                answer = chat.notice_html(chat.refusal_html(refusal), error=True)
            await self.send(text_data=answer)
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
        """The offer of one more game changed (its group's notice): shown once this room shows
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
        # line when the match's group hands it to the process's fan-out.
        return notices

    def _mute(self, message_id):
        with notify.collected() as notices:
            chat.mute(self.match_id, self.user, message_id)
        return notices

    async def chat_frame(self) -> str:
        """The chat this room shows, whole (on connecting, and after muting someone)."""
        lines, self.muted, reported = await database_call(self._chat_now)()
        with translation.override(self.language):
            return chat.log_html([line for line in lines if line.author_id not in self.muted],
                                 self._reader_id(), reported)

    def _chat_now(self):
        return (chat.history(self.match_id, self.chat_room), chat.muted_by(self.user),
                chat.reported_by(self.user, self.match_id))

    def _reader_id(self):
        return self.user.pk if self.user.is_authenticated else None

    async def show_chat_line(self, line: "chat.Line"):
        """A new line of this match (its group's notice): shown if this reader reads its chat
        and has not muted its author, nor been blocked by them or blocked them."""
        if line.room != self.chat_room or line.author_id in self.muted:
            return
        with translation.override(self.language):
            await self.send(text_data=chat.line_html(line, self._reader_id()))

    async def chat_hidden(self, message: dict) -> None:
        """Whose lines this reader is shown has changed (a mute, a block made or lifted:
        its own group's notice): the chat again, if the change touches it -- the lines
        of a person blocked go from the screen at once."""
        shown_before = self.muted
        frame = await self.chat_frame()
        if self.muted != shown_before:
            await self.send(text_data=frame)

    async def show_watching(self, count: int):
        if self.sent_version < 0:
            return  # its first frame, still to come, carries the count
        with translation.override(self.language):
            counted = watching.html(count, self.match_id)
        await self.send(text_data=counted)

    async def drop_chat_line(self, message_id: int):
        await self.send(text_data=chat.deleted_html(message_id))

    def _act(self, message, version, known):
        with notify.collected() as notices:
            service.act(self.match_id, self.user, message, version, known)
        return notices

    async def send_room(self, extra=""):
        """This seat's full view, loaded now (on connecting, or after a stale move);
        ``extra``, more markup, goes in the same frame."""
        await self.send_whole(await self.snapshots.fresh(self.match_id), extra)

    async def send_whole(self, snapshot, extra=""):
        """This seat's full view of ``snapshot``, its score table included."""
        self.sent_table = None  # the page may have been reloaded: everything again
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
            self.sent_at = time.monotonic()

    # -- the heartbeat (games/live/base.py) ------------------------------------------------

    async def on_beat(self, shown: int | None) -> None:
        """The page shows version ``shown``: it gets its full view if the match has a
        later committed version than this room has sent (a notice was lost, or is still
        on its way to a busy server), or if it shows less than was sent to it a beat ago
        and more (a frame it did not take); else the answer that it is alive.

        The view comes from the snapshot the match's rooms here share, as a notice's
        does: the pages of a match that beat behind it share one load, and so does a
        notice still on its way.  (A load of its own for every page that beats behind
        would add most work to a server just when it is slow to send views.)"""
        committed = await versions.committed().of(self.match_id)
        behind_committed = committed is not None and committed > self.sent_version
        behind_sent = (shown is not None and shown < self.sent_version
                       and time.monotonic() - self.sent_at > BEAT_SECONDS)
        if behind_committed or behind_sent:
            if behind_committed:
                log.info("match %s: a room was behind (%s < %s); showing it its view",
                         self.match_id, self.sent_version, committed)
            await self.send_whole(await self.snapshots.at_least(
                self.match_id, committed if behind_committed else self.sent_version))
        else:
            await self.answer_beat()

    # -- what the match's group says (games/live/fanout.py) -------------------------------

    async def match_changed(self, message: dict) -> None:
        version = message.get("version")
        if not isinstance(version, int) or version <= self.sent_version:
            return  # shown already (a change made here comes back from the layer)
        snapshot = await self.snapshots.at_least(self.match_id, version)
        # Asked again: a later notice's delivery may have overtaken this one during the
        # load, and the same frame must not be sent twice.
        if version > self.sent_version:
            await self.send_snapshot(snapshot)

    async def match_retimed(self, message: dict) -> None:
        """The turn has a new deadline at the same version (games.play.store's
        ``move_deadline``): the new countdown."""
        # Loaded after the notice came: the rooms of the match here share that load.
        since = time.monotonic()
        await self.send_snapshot(await self.snapshots.at_least(self.match_id, 0, since))

    async def chat_said(self, message: dict) -> None:
        await self.show_chat_line(chat.Line(**message["line"]))

    async def chat_deleted(self, message: dict) -> None:
        await self.drop_chat_line(message["message"])

    async def room_watching(self, message: dict) -> None:
        await self.show_watching(message["count"])

    async def rematch_changed(self, message: dict) -> None:
        await self.show_rematch(message["offer"])
