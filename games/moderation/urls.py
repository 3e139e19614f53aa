"""Staff pages under /moderation/ (games/moderation/views.py)."""

from django.urls import path

from games.moderation import views

app_name = "moderation"

urlpatterns = [
    path("moderation/", views.index, name="index"),
    path("moderation/suspicious/", views.suspicious, name="suspicious"),
    path("moderation/games/", views.find_game, name="find_game"),
    path("moderation/games/<int:match_id>/", views.game, name="game"),
    path("moderation/games/<int:match_id>/abort/", views.abort, name="abort"),
    path("moderation/games/<int:match_id>/annul/", views.annul, name="annul"),
    path("moderation/chat/", views.chat, name="chat"),
    path("moderation/chat/<int:message_id>/delete/", views.chat_delete, name="chat_delete"),
    path("moderation/chat/mute/<str:login>/", views.chat_mute, name="chat_mute"),
    path("moderation/players/", views.find_player, name="find_player"),
    path("moderation/players/<str:login>/", views.player, name="player"),
    path("moderation/players/<str:login>/lift-bar/", views.lift_bar, name="lift_bar"),
]
