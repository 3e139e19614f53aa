from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminSignUpForm, AdminUserChangeForm
from accounts.models import ModeratorAction, Player, User
from kozel_site.readonly_admin import ReadOnlyAdminMixin

# A player's numbers are sums over their games' history: the admin shows them, and only
# the game and rating services change them.
PLAYER_STATS = ("rating", "games_played", "times_goat", "last_game_at")


class PlayerInline(admin.StackedInline):
    model = Player
    can_delete = False
    fields = PLAYER_STATS
    readonly_fields = PLAYER_STATS

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(User)
class KozelUserAdmin(UserAdmin):
    form = AdminUserChangeForm
    add_form = AdminSignUpForm
    inlines = [PlayerInline]
    list_display = ("username", "email", "rating", "is_active", "is_staff", "date_joined", "last_login")
    list_select_related = ("player",)
    search_fields = ("username", "email")
    ordering = ("username",)

    @admin.display(description=_("rating"), ordering="player__rating")
    def rating(self, user):
        return user.player.rating

    # Closing or reopening an account is a moderator action with a reason, a log entry and
    # consequences (a running game ends, the ladder drops the player): it is done on the
    # moderation pages (games.moderation), so here "active" is shown and linked, never
    # edited.  Anybody but a superuser sees everything read-only.
    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return [*super().get_readonly_fields(request, obj), "is_active", "moderation"]
        return [
            field
            for fieldset in self.get_fieldsets(request, obj)
            for field in fieldset[1]["fields"]
        ]

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        return [(name, dict(options, fields=[
            f for field in options["fields"] for f in ((field, "moderation") if field == "is_active" else (field,))
        ])) for name, options in fieldsets]

    @admin.display(description=_("moderation"))
    def moderation(self, user):
        return format_html('<a href="{}">{}</a>', reverse("moderation:player", args=[user.username]),
                           _("Close or reopen the account, with a reason"))

    def has_change_permission(self, request, obj=None):
        if obj is not None and not request.user.is_superuser and (obj.is_staff or obj.is_superuser):
            return False
        return super().has_change_permission(request, obj)

    def user_change_password(self, request, id, form_url=""):
        if not request.user.is_superuser:
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "games_played", "times_goat", "last_game_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    ordering = ("-rating", "id")
    fields = ("user",) + PLAYER_STATS
    readonly_fields = ("user",) + PLAYER_STATS

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ModeratorAction)
class ModeratorActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The moderation log: who did what to which game or account, when and why."""

    list_display = ("created_at", "moderator", "action", "match", "person", "reason")
    list_filter = ("action", "created_at")
    list_select_related = ("moderator", "match", "person")
    search_fields = ("moderator__username", "person__username", "reason")
    date_hierarchy = "created_at"
