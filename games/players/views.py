"""A player's page at /players/<login>/.

It gathers what the contexts know of a person -- their rating history (ratings), their
games -- so it sits above them all, where no lower context needs to import it.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from accounts import friends
from accounts.models import User
from games.arena.present import podiums_of
from games.lobby.listing import challenges_context
from games.players.friends import friend_rows
from ratings.history import KINDS, chart_for, game_counts, games_page


def profile(request, login):
    """A player's page (any case of the login name finds it): their numbers, their rating
    history as a chart, and their games, a page at a time (a private game only for its
    players and moderators); ``?games=alone`` or ``pairs`` lists only the games played
    alone or in pairs."""
    person = get_object_or_404(User.objects.by_login(login).select_related("player"))
    kind = request.GET.get("games")
    kind = kind if kind in KINDS else None
    return render(request, "games/players/profile.html", {
        "person": person, "player": person.player,
        "chart": chart_for(person.player, joined=person.date_joined, viewer=request.user),
        "counts": game_counts(person, viewer=request.user), "kind": kind,
        "podiums": podiums_of(person),
        **_relation(request.user, person),
        "games": games_page(person, request.GET.get("page"), viewer=request.user, kind=kind),
    })


def _relation(viewer, person) -> dict:
    """What the page's follow and block buttons say (for another person's page)."""
    if not viewer.is_authenticated or viewer.pk == person.pk:
        return {"relation": None}
    return {"relation": {
        "following": friends.is_following(viewer, person),
        "blocking": friends.is_blocked(viewer, person),
        "blocked": friends.is_blocked(person, viewer),
    }}


@require_safe
@login_required
def friends_page(request):
    """The players one follows: who is online and at which table; one's challenges, live."""
    return render(request, "games/players/friends.html", {
        "rows": friend_rows(request.user), **challenges_context(request.user),
        "viewer": request.user,
    })
