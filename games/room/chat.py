"""A table's chat: its players' and its spectators' (games.models.ChatRoom), apart.

While a game runs its players see their own chat only, and the people watching theirs:
a spectator, who may see every hand's size and the chain, cannot talk to a player.
After the game its players (and moderators) may read both on the game's page.

A line is never a move: nothing here touches the match or its version.  It goes over the
game room's WebSocket (games/room/consumer.py); the server checks who writes (a seat of
the match writes to the players' chat, anyone else logged in to the spectators'), the
length, the account's rate (django-ratelimit, counted in the shared cache) and a
moderator's mute.  The room's hub hands a new line to every room of the match, and each
room leaves out what its reader does not see (the other chat, the people they muted or
blocked, or who blocked them).  A mute or a block made or lifted is told to both people's
open rooms (``hidden_changed``), which read that list again and show their chat again
without those lines; a room never polls for it.  Text is escaped by the template engine;
a link stays text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_ratelimit.core import is_ratelimited

from accounts import friends
from games.models import CHAT_TEXT_MAX, ChatMessage, ChatMute, ChatReport, ChatRoom, ChatSilence
from games.play import notify

HISTORY = 50  # lines a room is sent on connecting

# The quick phrases a phone offers under the chat (one tap each).
QUICK_PHRASES = (gettext_lazy("Good game!"), gettext_lazy("Thank you"), gettext_lazy("Good luck"))


class ChatRefused(Exception):
    """A line that was not posted, with the words for its writer; ``until``: the end of a
    moderator's mute, which ``message`` names as %(time)s (``refusal_html`` fills it in)."""

    def __init__(self, message: str, until=None) -> None:
        super().__init__(message)
        self.message = message
        self.until = until


def _site_time(moment) -> str:
    return timezone.localtime(moment).strftime("%d.%m.%Y %H:%M %Z").strip()


@dataclass(frozen=True)
class Line:
    """A chat line as the rooms hear it (group messages carry this, never more)."""

    id: int
    room: str
    author_id: int
    author: str
    text: str
    at: str  # HH:MM, the server's time zone (the page shows it in the viewer's)
    when: str = ""  # the moment, ISO 8601 (static/js/localtime.js rewrites ``at`` from it)

    @classmethod
    def of(cls, message: ChatMessage) -> "Line":
        return cls(message.pk, message.room, message.author_id, message.author.username,
                   message.text, timezone.localtime(message.created_at).strftime("%H:%M"),
                   message.created_at.isoformat())


def room_for(seat: int | None) -> str:
    """The chat a reader at this seat (None: a spectator) reads and writes while the game
    runs."""
    return ChatRoom.PLAYERS if seat is not None else ChatRoom.SPECTATORS


def clean(text) -> str:
    if not isinstance(text, str):
        raise ChatRefused(_("That is not a chat message."))
    text = " ".join(text.split())  # no line breaks or runs of spaces
    if not text:
        raise ChatRefused(_("The message is empty."))
    if len(text) > CHAT_TEXT_MAX:
        raise ChatRefused(_("A message may have at most %(max)d characters.") % {"max": CHAT_TEXT_MAX})
    return text


def silenced_until(user):
    """Until when a moderator muted this account in chat, if that is still ahead."""
    # The ends alone, and the latest of them here: asked on every line written.
    return max(ChatSilence.objects.filter(person=user, until__gt=timezone.now())
               .values_list("until", flat=True), default=None)


def _rate_limited(user) -> bool:
    # No request: the key is the account, whatever socket or process it writes from.
    return is_ratelimited(None, group="chat", key=lambda _group, _request: str(user.pk),
                          rate=settings.KOZEL_CHAT_RATE, increment=True)


def post(match_id: int, user, seat: int | None, text) -> Line:
    """Write ``user``'s line to the chat of their place at the match (database thread);
    the match's rooms hear of it after commit."""
    if not user.is_authenticated or not user.is_active:
        raise ChatRefused(_("Log in to write in the chat."))
    text = clean(text)
    until = silenced_until(user)
    if until is not None:
        raise ChatRefused(_("A moderator has muted you in chat until %(time)s."), until=until)
    if _rate_limited(user):
        raise ChatRefused(_("You are writing too fast: wait a few seconds."))
    # One INSERT, a transaction of its own: the line's notice goes once it is committed.
    message = ChatMessage.objects.create(match_id=match_id, author=user,
                                         room=room_for(seat), text=text)
    line = Line.of(message)
    notify.after_commit(notify.match_group(match_id),
                        {"type": "chat.said", "match": match_id, "line": asdict(line)})
    return line


def history(match_id: int, room: str, limit: int = HISTORY) -> list[Line]:
    """The last lines of one chat of a match, oldest first (deleted ones left out)."""
    messages = (ChatMessage.objects.filter(match_id=match_id, room=room, deleted_at__isnull=True)
                .select_related("author").order_by("-created_at", "-id")[:limit])
    return [Line.of(m) for m in reversed(messages)]


def both_chats(match, with_deleted: bool = False, reader=None) -> list[dict]:
    """A game's two chats, whole, for its page after the game (moderators: with the
    deleted lines, marked); without the lines of people blocked between them and
    ``reader`` (accounts.friends)."""
    messages = ChatMessage.objects.filter(match=match).select_related("author")
    if not with_deleted:
        messages = messages.filter(deleted_at__isnull=True)
    if reader is not None and reader.is_authenticated:
        messages = messages.exclude(author_id__in=friends.hidden_chat_authors(reader.pk))
    return [{"room": room, "label": label,
             "messages": [m for m in messages if m.room == room]}
            for room, label in ChatRoom.choices]


def muted_by(user) -> frozenset[int]:
    """The authors whose lines ``user`` is not shown: those they muted, and those blocked
    between them either way (the blocker does not see the blocked person's lines, and the
    blocked person does not see the blocker's: accounts.friends)."""
    if not user.is_authenticated:
        return frozenset()
    muted = set(ChatMute.objects.filter(owner=user).values_list("muted_id", flat=True))
    return frozenset(muted | friends.hidden_chat_authors(user.pk))


def _message_in(match_id: int, message_id) -> ChatMessage:
    if type(message_id) is not int:
        raise ChatRefused(_("There is no such message."))
    message = ChatMessage.objects.filter(pk=message_id, match_id=match_id).first()
    if message is None:
        raise ChatRefused(_("There is no such message."))
    return message


def mute(match_id: int, owner, message_id) -> int:
    """``owner`` mutes the author of a line of this match, for themselves: their author."""
    if not owner.is_authenticated:
        raise ChatRefused(_("Log in to write in the chat."))
    message = _message_in(match_id, message_id)
    if message.author_id == owner.pk:
        raise ChatRefused(_("You cannot mute yourself."))
    _mute, created = ChatMute.objects.get_or_create(owner=owner, muted_id=message.author_id)
    if created:
        hidden_changed(owner.pk)
    return message.author_id


def hidden_changed(*user_ids: int) -> None:
    """Tell these people's open rooms that whose lines they are shown has changed
    (after commit): each reads ``muted_by`` again."""
    for user_id in user_ids:
        notify.after_commit(notify.user_group(user_id), {"type": "chat.hidden"})


def on_blocks_changed(sender, blocker_id: int, blocked_id: int, **kwargs) -> None:
    """A block made or lifted (accounts.friends.blocks_changed): it hides lines both ways."""
    hidden_changed(blocker_id, blocked_id)


def report(match_id: int, reporter, message_id) -> None:
    """File a line of this match for the moderators (once per person and line)."""
    if not reporter.is_authenticated:
        raise ChatRefused(_("Log in to write in the chat."))
    message = _message_in(match_id, message_id)
    try:
        with transaction.atomic():
            ChatReport.objects.create(message=message, reporter=reporter)
    except IntegrityError:
        pass  # reported already: once is enough


# -- the markup -------------------------------------------------------------------------

def reported_by(user, match_id: int) -> frozenset[int]:
    """The lines of this match that ``user`` reported (marked so in their room)."""
    if not user.is_authenticated:
        return frozenset()
    return frozenset(ChatReport.objects.filter(reporter=user, message__match_id=match_id)
                     .values_list("message_id", flat=True))


def line_html(line: Line, reader_id: int | None) -> str:
    """One line, appended to the room's chat (an out-of-band swap).  Its markup differs
    only by language and by whether its reader may mute and report it (someone logged
    in, not its author): every room of the match that shows the line shares those few,
    rendered once (the last lines' kept)."""
    key = (line, translation.get_language(), bool(reader_id) and reader_id != line.author_id)
    markup = _line_markups.get(key)
    if markup is None:
        markup = render_to_string("games/chat/new_line.html",
                                  {"line": line, "reader_id": reader_id, "reported": ()})
        if len(_line_markups) >= LINE_MARKUPS_KEPT:
            _line_markups.pop(next(iter(_line_markups)))  # the oldest
        _line_markups[key] = markup
    return markup


LINE_MARKUPS_KEPT = 512
_line_markups: dict = {}


def log_html(lines, reader_id: int | None, reported=frozenset()) -> str:
    """The whole chat a room shows, replacing what it showed (on connecting, after a mute);
    the lines its reader reported marked."""
    return render_to_string("games/chat/lines.html", {"lines": lines, "reader_id": reader_id,
                                                      "reported": reported})


def reported_html(message_id: int) -> str:
    """A line's buttons once its reader reported it: the mark in place of "Report"."""
    return render_to_string("games/chat/_line_actions.html", {
        "line": {"id": int(message_id)}, "reported": {int(message_id)}, "oob": True})


def notice_html(text="", error: bool = False, sent: bool = False, fleeting: bool = False) -> str:
    """What the chat says to its writer, beside the chat (not at the top of the page)."""
    return render_to_string("games/chat/_notice.html", {"text": text, "error": error,
                                                        "sent": sent, "fleeting": fleeting})


def refusal_html(refusal: ChatRefused) -> str:
    """Why a line was refused, for the room's notice; the end of a mute in the viewer's
    time zone (a <time> that static/js/localtime.js rewrites; the site's, named, without
    JavaScript)."""
    text = conditional_escape(refusal.message)
    if refusal.until is not None:
        moment = render_to_string("games/chat/_until.html", {"when": refusal.until,
                                                             "site_time": _site_time(refusal.until)})
        text = mark_safe(text % {"time": moment.strip()})
    return text


def deleted_html(message_id: int) -> str:
    return f'<li id="chat-{int(message_id)}" hx-swap-oob="delete"></li>'
