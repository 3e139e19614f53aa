"""The game room's pages: the room itself, and the form post that leaves the game."""

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from games.lobby import visits
from games.room import cache as snapshots, chat, watching
from games.play import service as services
from games.play.errors import PlayError
from games.models import CHAT_TEXT_MAX, Match


def _match_for(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if match.hidden_from(request.user, seat):
        raise Http404  # a private table shows itself to its players only
    return match, seat


def room_frame(match, seat) -> tuple[str, str]:
    """The ``#table`` and ``#room`` fragments (in the page's order: the table above the
    hand), and ``#round-table``, as the room's consumer sends them (games/room/html.py)."""
    snapshot, language = snapshots.load(match.pk), get_language()
    _key, score_table = snapshots.score_table(snapshot, language)
    room = snapshots.table(snapshot, language) + snapshots.seat_part(snapshot, seat, language)
    return room, score_table


def room(request, match_id):
    match, seat = _match_for(request, match_id)
    if seat is not None:
        visits.note_entered(request.session, match.pk)
    room_html, score_html = room_frame(match, seat)
    return render(request, "games/room.html", {
        "match": match, "seat": seat, "status": match.status,
        # The page sees the table from this seat (a spectator: from seat 0's side).
        "me": seat if seat is not None else 0,
        "room_html": mark_safe(room_html), "score_html": mark_safe(score_html),  # autoescaped
        # by their templates
        "chat_room": chat.room_for(seat), "quick_phrases": chat.QUICK_PHRASES,
        "chat_max": CHAT_TEXT_MAX,
    })


def room_watching(request, match_id):
    """Who watches the game (opened from the room's count of watchers): the logged-in
    spectators by login, the anonymous counted; from the shared cache, no query of who
    watches (games/room/watching.py)."""
    _match_for(request, match_id)
    return HttpResponse(watching.list_html(async_to_sync(watching.watchers)(match_id)))


@require_POST
@login_required
def room_leave(request, match_id):
    try:
        services.leave_game(match_id, request.user)
    except PlayError as refusal:
        messages.error(request, refusal.message)
    return redirect("games:room", match_id)
