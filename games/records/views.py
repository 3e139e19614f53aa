"""Pages of a game that is over: its page (players, result, ratings, the round table), its
record to download (RECORD.md), and the replay viewer.

While a game waits or runs these pages do not exist (they would show hands): they send
people to the game room instead.  A private table's pages are for its players and staff.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts.models import ModeratorAction
from accounts.moderators import is_moderator
from games.moderation.service import annulment_of
from games.records import analysis as analyses
from games.records import replayer
from games.records import shown as shown_analysis
from games.play import service as services
from games.models import OVER, Analysis, Match
from games.room import chat
from games.room.present import round_table, seat_names, shared_number, unit_names
from games.records.fair import fair_block
from games.records.log import record_of, state_after


def _over_match(request, match_id):
    """The match, if it is over and this viewer may see it; else a redirect or a 404."""
    match = get_object_or_404(Match, pk=match_id)
    seat = services.seat_of(match, request.user)
    if match.hidden_from(request.user, seat):
        raise Http404  # a private table shows itself to its players only
    if match.status not in OVER:
        return None, redirect("games:room", match.pk)
    return match, None


def _seating(match):
    seats = list(match.seats.select_related("user").order_by("number"))
    names = seat_names(seats)
    return seats, names


def game(request, match_id):
    match, elsewhere = _over_match(request, match_id)
    if elsewhere:
        return elsewhere
    seats, names = _seating(match)
    result = match.result or {}
    records = {}
    for record in match.rating_records.select_related("player"):
        if not record.annuls_id:
            records[record.player.user_id] = record
    annulment = annulment_of(match)
    aborted = (ModeratorAction.objects.filter(match=match, action=ModeratorAction.Kind.ABORT)
               .select_related("moderator").first())
    # The final standing: from the result when the game ended by the rules, else (an
    # aborted game) from the state it stopped in.
    scores = result.get("scores")
    if scores is None and match.state is not None:
        scores = list(state_after(match).scores)
    points = result.get("rating_points") or [None] * match.seats_count
    players = [{
        "number": s.number, "name": names[s.number], "login": s.user.username if s.user_id else None,
        "bot": not s.user_id, "score": scores[s.number] if scores else None,
        "goat": s.number in (result.get("goats") or []),
        "interrupter": result.get("interrupted_by") == s.number,
        "points": points[s.number] if match.rated else None,
        "record": records.get(s.user_id), "client_seed": s.client_seed,
        "unit": shared_number(match.variant, s.number),
        "winner": s.number in (result.get("winners") or []),  # sea goat (RULES.md 13)
    } for s in seats]
    staff = is_moderator(request.user)
    is_player = any(s.user_id == request.user.pk for s in seats if s.user_id)
    return render(request, "games/game.html", {
        "match": match, "players": players, "result": result,
        "winners": unit_names(names, result.get("winners") or ()),
        "table": round_table(match, names, match.seats_count),
        "annulment": annulment, "aborted": aborted, "moderator": staff,
        "fair": fair_block(match),
        "analysable": analyses.analysable(match),
        **({"analysis_part": shown_analysis.for_game_page(match, _analysis_of(match), names)}
           if analyses.analysable(match) else {}),
        # Both chats, once the game is over, for its players and moderators only.
        "chats": chat.both_chats(match, with_deleted=staff, reader=request.user) if is_player or staff else None,
    })


def download(request, match_id):
    """The game's record (RECORD.md), as a file ``manage.py replay`` reads."""
    match, elsewhere = _over_match(request, match_id)
    if elsewhere:
        return elsewhere
    response = HttpResponse(record_of(match).dumps() + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="kozel-{match.pk}.json"'
    return response


def replay(request, match_id):
    """Step through the move log, every hand shown; ``?step=n`` is after n moves."""
    match, elsewhere = _over_match(request, match_id)
    if elsewhere:
        return elsewhere
    seats, names = _seating(match)
    try:
        number = int(request.GET.get("step", 1))
    except ValueError:
        number = 1
    shown = replayer.step(match, number, names)
    context = {"match": match, "step": shown, "names": names,
               **replayer.table_of(shown, names, {s.number for s in seats if not s.user_id})}
    context["judged"] = shown_analysis.at_step(match, _analysis_of(match), names, shown.number)
    context["previous"] = shown.number - 1 if shown.number > 0 else None
    context["next"] = shown.number + 1 if shown.number < shown.total else None
    template = "games/_replay.html" if request.htmx else "games/replay.html"
    return render(request, template, context)


def _analysis_of(match):
    return Analysis.objects.filter(match=match).first()


@require_http_methods(["GET", "POST"])
def analysis_part(request, match_id):
    """The game page's analysis: asked for with a POST (anyone who may see the game),
    shown (its progress, then its result) with a GET, which the page repeats while it
    runs."""
    match, elsewhere = _over_match(request, match_id)
    if elsewhere:
        return elsewhere
    if not analyses.analysable(match):
        raise Http404
    if request.method == "POST":
        analyses.request(match)  # the clock's workers take it within a second or so
        if not request.htmx:
            return redirect(reverse("records:game", args=[match.pk]) + "#analysis")
    _seats, names = _seating(match)
    return render(request, "games/_analysis.html", {
        "match": match, "part": shown_analysis.for_game_page(match, _analysis_of(match), names)})
