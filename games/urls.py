from django.urls import path
from django.views.generic import TemplateView

from games.lobby import views as lobby_views
from games.room import views as room_views

app_name = "games"

urlpatterns = [
    path("", lobby_views.lobby, name="lobby"),
    # The rules for players (RULES.md) and how a game's deals follow from its seeds
    # (RECORD.md, kozel-fair/1), in the page's language.
    path("rules/", TemplateView.as_view(template_name="games/rules.html"), name="rules"),
    path("rules/fair/", TemplateView.as_view(template_name="games/fair.html"),
         name="fair-deals"),
    # The lobby's posts (games/lobby/views.py).
    path("games/new/", lobby_views.create_request, name="create_request"),
    path("games/bots/", lobby_views.play_with_bots, name="play_bots"),
    path("games/<int:match_id>/join/", lobby_views.join_request, name="join_request"),
    path("games/<int:match_id>/leave-request/", lobby_views.leave_request, name="leave_request"),
    path("games/invite/<str:token>/", lobby_views.invite, name="invite"),
    path("players/<str:login>/challenge/", lobby_views.challenge, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", lobby_views.accept_challenge,
         name="accept_challenge"),
    path("challenges/<int:challenge_id>/decline/", lobby_views.decline_challenge,
         name="decline_challenge"),
    path("games/<int:match_id>/", room_views.room, name="room"),
    path("games/<int:match_id>/leave/", room_views.room_leave, name="room_leave"),
    path("games/<int:match_id>/watching/", room_views.room_watching, name="room_watching"),
]
