"""The pages of games that are over (games/records/views.py), apart from the room's URLs."""

from django.urls import path

from games.records import views as record_views

app_name = "records"

urlpatterns = [
    path("games/<int:match_id>/record/", record_views.game, name="game"),
    path("games/<int:match_id>/record.json", record_views.download, name="download"),
    path("games/<int:match_id>/replay/", record_views.replay, name="replay"),
    path("games/<int:match_id>/analysis/", record_views.analysis_part, name="analysis"),
]
