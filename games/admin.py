from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Match, Move, RoundScore, Seat
from kozel_site.readonly_admin import ReadOnlyAdminMixin, ReadOnlyTabularInline
from ratings.models import RatingRecord


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    fields = ("number", "user", "bot_name", "joined_at")


class MoveInline(ReadOnlyTabularInline):
    model = Move
    fields = ("number", "seat", "kind", "payload", "created_at")


class RoundScoreInline(ReadOnlyTabularInline):
    model = RoundScore
    fields = (
        "round_number", "seat", "points", "credited", "score_after", "remembered_after",
        "opened", "result", "result_seat", "bank_after",
    )


class RatingRecordInline(ReadOnlyTabularInline):
    model = RatingRecord
    fields = ("player", "points", "rating_after", "created_at")


class SearchByIdMixin:
    """A search for a number also finds the match (or the moves of the match) with that id."""

    id_lookup = "pk"

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            results |= queryset.filter(**{self.id_lookup: int(term)})
        return results, may_have_duplicates


@admin.register(Match)
class MatchAdmin(SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "__str__", "status", "players", "seats_count", "fish", "turn_seconds", "rated",
        "private", "created_at", "ended_at",
    )
    list_filter = ("status", "rated", "private", "fish", "seats_count", "created_at")
    search_fields = ("seats__user__username", "seats__bot_name", "created_by__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline, RoundScoreInline, RatingRecordInline, MoveInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=_("players"))
    def players(self, match):
        return ", ".join(
            seat.bot_name if seat.is_bot else seat.user.username for seat in match.seats.all()
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("match", "number", "user", "bot_name", "joined_at")
    list_select_related = ("match", "user")
    search_fields = ("user__username", "bot_name")


@admin.register(Move)
class MoveAdmin(SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    id_lookup = "match_id"
    list_display = ("match", "number", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("match__seats__user__username",)


@admin.register(RoundScore)
class RoundScoreAdmin(SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    id_lookup = "match_id"
    list_display = (
        "match", "round_number", "seat", "points", "credited", "score_after",
        "remembered_after", "opened", "result", "bank_after",
    )
    list_filter = ("result", "opened")
    search_fields = ("match__seats__user__username",)
