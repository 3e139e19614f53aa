"""The game room's pages: the room itself, and two form posts that work without WebSocket
(the htmx fallback for a move, and leaving the game)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from games.room import cache as snapshots
from games.play import service as services
from games.room.consumer import announce, parse_version
from games.models import Match


def _match_for(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if match.private and seat is None and not request.user.is_staff:
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
    return render(request, "games/room.html", {
        "match": match, "seat": seat, "status": match.status,
        "room_html": mark_safe(room_frame(match, seat)),  # autoescaped by its templates
    })


@require_POST
@login_required
def room_act(request, match_id):
    """A move posted as a form (htmx without WebSocket): the same service as the socket."""
    match, seat = _match_for(request, match_id)
    message = {}
    if request.POST.get("play"):
        message = {"play": request.POST["play"]}
        if request.POST.get("end"):
            message["end"] = request.POST["end"]
    elif request.POST.get("draw"):
        message = {"draw": True}
    error = None
    try:
        services.act(match.pk, request.user, message, parse_version(request.POST.get("version")))
    except services.PlayError as refusal:
        error = refusal.message
    if request.htmx:
        html = room_frame(match, seat)  # loaded afresh, after the move
        if error:
            html += render_to_string("games/_notice.html", {"text": error, "error": True})
        return HttpResponse(html)
    if error:
        messages.error(request, error)
    return redirect("games:room", match.pk)


@require_POST
@login_required
def room_leave(request, match_id):
    try:
        services.leave_game(match_id, request.user)
    except services.PlayError as refusal:
        messages.error(request, refusal.message)
    return redirect("games:room", match_id)
