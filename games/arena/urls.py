from django.urls import path

from games.arena import views

app_name = "arenas"

urlpatterns = [
    path("arenas/", views.arena_list, name="list"),
    path("arenas/new/", views.arena_create, name="create"),
    path("arenas/<int:arena_id>/", views.arena_page, name="arena"),
    path("arenas/private/<str:token>/", views.private_arena, name="private"),
    path("arenas/<int:arena_id>/join/", views.arena_join, name="join"),
    path("arenas/<int:arena_id>/pause/", views.arena_pause, name="pause"),
    path("arenas/<int:arena_id>/export/", views.arena_export, name="export"),
    path("arenas/<int:arena_id>/cancel/", views.arena_cancel, name="cancel"),
]
