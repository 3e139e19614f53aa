from django.contrib import admin

from kozel_site.readonly_admin import ReadOnlyAdminMixin
from ratings.models import RatingRecord


@admin.register(RatingRecord)
class RatingRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("player", "match", "points", "rating_after", "created_at")
    list_select_related = ("player__user", "match")
    search_fields = ("player__user__username",)
    date_hierarchy = "created_at"
