"""The games in the admin: read-only, and blind to a running game's hidden tiles.

While a game is waiting or being played, its state (every hand and the bazaar in draw
order), its moves' payloads (the deals) and its server seed (which tells every deal,
RECORD.md kozel-fair/1) are shown to nobody, superusers included: a staff member may
sit at a table too.  Moderators watch a running game from its room, as
any spectator does; everything is shown once the game is over.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.models import RUNNING, Match, Move, RoundScore, Seat, match_number
from kozel_site.readonly_admin import ReadOnlyAdminMixin, ReadOnlyTabularInline
from ratings.models import RatingRecord

# What tells a running game's hidden tiles: the state and the server seed of a match, the
# payload of a move.
HIDDEN_MATCH_FIELDS = ("state", "server_seed")
HIDDEN_MOVE_FIELDS = ("payload",)


def is_running(match) -> bool:
    return match is not None and match.status in RUNNING


def without(fields, hidden):
    return [name for name in fields if name not in hidden]


def game_room_link(match):
    return format_html(
        '<a href="{}">{}</a>', reverse("games:room", args=[match.pk]),
        _("The game is running: watch it in the game room. Its tiles are shown here once it is over."),
    )


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    fields = ("number", "user", "bot_name", "client_seed", "joined_at")


class MoveInline(ReadOnlyTabularInline):
    model = Move
    fields = ("number", "seat", "kind", "payload", "created_at")

    def get_fields(self, request, obj=None):
        # obj is the match the moves belong to.
        fields = super().get_fields(request, obj)
        return without(fields, HIDDEN_MOVE_FIELDS) if is_running(obj) else fields


class RoundScoreInline(ReadOnlyTabularInline):
    model = RoundScore
    fields = (
        "round_number", "seat", "points", "credited", "score_after", "remembered_after",
        "opened", "result", "result_seat", "bank_after",
    )


class RatingRecordInline(ReadOnlyTabularInline):
    model = RatingRecord
    fields = ("player", "points", "rating_after", "created_at")


class NoFilterOnHiddenFieldsMixin:
    """The changelist filters by any of a model's own fields given in its address
    (``?payload__contains=...``), running games included: counting the rows found would
    tell the tiles.  So no address filters by a field that hides them."""

    hidden_fields: tuple = ()

    def lookup_allowed(self, lookup, value, request=None):
        if lookup.split("__", 1)[0] in self.hidden_fields:
            return False
        return super().lookup_allowed(lookup, value, request)


class SearchByIdMixin:
    """A search for a number also finds the match (or the moves of the match) with that id."""

    id_lookup = "pk"

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        number = match_number(search_term)
        if number is not None:
            results |= queryset.filter(**{self.id_lookup: number})
        return results, may_have_duplicates


@admin.register(Match)
class MatchAdmin(NoFilterOnHiddenFieldsMixin, SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    hidden_fields = HIDDEN_MATCH_FIELDS
    list_display = (
        "__str__", "status", "players", "seats_count", "fish", "pairs", "turn_seconds", "rated",
        "private", "created_at", "ended_at",
    )
    list_filter = ("status", "rated", "private", "fish", "pairs", "seats_count", "created_at")
    search_fields = ("seats__user__username", "seats__bot_name", "created_by__username")
    date_hierarchy = "created_at"
    # The newest first, as the list shows them; the autocomplete pages by it too.
    ordering = ("-pk",)
    inlines = [SeatInline, RoundScoreInline, RatingRecordInline, MoveInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if is_running(obj):
            return ["game_room", *without(fields, HIDDEN_MATCH_FIELDS)]
        # The raw seed, once it may be shown, in the hex a record gives it in.
        return ["revealed_seed" if name == "server_seed" else name for name in fields]

    def get_fields(self, request, obj=None):
        # Exactly the fields shown read-only: a hidden field must not come back as a form field.
        return self.get_readonly_fields(request, obj)

    @admin.display(description=_("game room"))
    def game_room(self, match):
        return game_room_link(match)

    @admin.display(description=_("server seed"))
    def revealed_seed(self, match):
        if is_running(match) or match.server_seed is None:
            return "—"
        return bytes(match.server_seed).hex()

    @admin.display(description=_("players"))
    def players(self, match):
        return ", ".join(
            str(seat.name) for seat in match.seats.all()
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("match", "number", "user", "bot_name", "joined_at")
    list_select_related = ("match", "user")
    search_fields = ("user__username", "bot_name")


@admin.register(Move)
class MoveAdmin(NoFilterOnHiddenFieldsMixin, SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    """Moves are found by a player's login name, a game's number, or what the move says
    (a tile such as "3-5"); the last only among games that are over."""

    hidden_fields = HIDDEN_MOVE_FIELDS
    id_lookup = "match_id"
    list_display = ("match", "number", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("match__seats__user__username",)

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term:
            over = queryset.exclude(match__status__in=RUNNING)
            results |= over.filter(payload__icontains=term)
        return results, may_have_duplicates

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and is_running(obj.match):
            return ["game_room", *without(fields, HIDDEN_MOVE_FIELDS)]
        return fields

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj)

    @admin.display(description=_("game room"))
    def game_room(self, move):
        return game_room_link(move.match)


@admin.register(RoundScore)
class RoundScoreAdmin(SearchByIdMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    id_lookup = "match_id"
    list_display = (
        "match", "round_number", "seat", "points", "credited", "score_after",
        "remembered_after", "opened", "result", "bank_after",
    )
    list_filter = ("result", "opened")
    search_fields = ("match__seats__user__username",)
