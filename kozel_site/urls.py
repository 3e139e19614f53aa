from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Козёл"
admin.site.site_title = "Козёл"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("games.records.urls")),
    path("", include("games.players.urls")),
    path("", include("games.moderation.urls")),
    path("", include("games.arena.urls")),
    path("", include("ratings.urls")),
]
