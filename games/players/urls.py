from django.urls import path

from games.players import views

app_name = "players"

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("players/<str:login>/", views.profile, name="profile"),
]
