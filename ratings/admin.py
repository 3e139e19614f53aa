from django.contrib import admin

from kozel_site.readonly_admin import ReadOnlyAdminMixin
from ratings.models import RatingRecord, RatingTotal


@admin.register(RatingRecord)
class RatingRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("player", "match", "points", "rating_after", "goat", "annuls", "created_at")
    list_select_related = ("player__user", "match", "annuls")
    list_filter = ("goat", ("annuls", admin.EmptyFieldListFilter))
    search_fields = ("player__user__username",)
    date_hierarchy = "created_at"


@admin.register(RatingTotal)
class RatingTotalAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Period sums of the records, kept by ratings.services: shown, never edited."""

    list_display = ("player", "period", "start", "points", "games", "goats", "active")
    list_select_related = ("player__user",)
    list_filter = ("period", "start", "active")
    search_fields = ("player__user__username",)
