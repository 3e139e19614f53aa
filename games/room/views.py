"""The game room's pages: the room itself, and the form post that leaves the game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from games.room import cache as snapshots, chat, visits
from games.play import service as services
from games.room.present import announce
from games.models import CHAT_TEXT_MAX, Match


def _match_for(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if match.hidden_from(request.user, seat):
        raise Http404  # a private table shows itself to its players only
    return match, seat


def room_frame(match, seat) -> str:
    """The ``#room`` and ``#round-table`` fragments, as the room's consumer sends them
    (games/room/html.py)."""
    snapshot, language = snapshots.load(match.pk), get_language()
    _key, table = snapshots.score_table(snapshot, language)
    return snapshots.render(snapshot, seat, language, announce) + table


def room(request, match_id):
    match, seat = _match_for(request, match_id)
    if seat is not None:
        visits.note_entered(request.session, match.pk)
    return render(request, "games/room.html", {
        "match": match, "seat": seat, "status": match.status,
        "room_html": mark_safe(room_frame(match, seat)),  # autoescaped by its templates
        "chat_room": chat.room_for(seat), "quick_phrases": chat.QUICK_PHRASES,
        "chat_max": CHAT_TEXT_MAX,
    })


@require_POST
@login_required
def room_leave(request, match_id):
    try:
        services.leave_game(match_id, request.user)
    except services.PlayError as refusal:
        messages.error(request, refusal.message)
    return redirect("games:room", match_id)
