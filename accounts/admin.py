from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminSignUpForm, AdminUserChangeForm
from accounts.models import Player, User

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

    # A moderator (staff with change_user, not a superuser) may open or close a player's
    # account and nothing else: no rights, no passwords, no staff accounts.
    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser or obj is None:
            return super().get_readonly_fields(request, obj)
        return [
            field
            for fieldset in self.get_fieldsets(request, obj)
            for field in fieldset[1]["fields"]
            if field != "is_active"
        ]

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
