"""A player's page at /players/<login>/.

It gathers what the contexts know of a person -- their rating history (ratings), their
games -- so it sits above them all, where no lower context needs to import it.
"""

from django.shortcuts import get_object_or_404, render

from accounts.models import User
from games.arena.present import podiums_of
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
        "games": games_page(person, request.GET.get("page"), viewer=request.user, kind=kind),
    })
