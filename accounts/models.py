from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import MinLengthValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts.validators import LOGIN_MAX_LENGTH, LOGIN_MIN_LENGTH, LoginNameValidator


class UserManager(DjangoUserManager):
    def by_login(self, login):
        """Users whose login name is `login` without regard to case (at most one)."""
        return self.alias(login_lower=Lower("username")).filter(
            login_lower=Lower(models.Value(login))
        )

    def get_by_natural_key(self, username):
        # Login names are unique without regard to case, so logging in ignores case too.
        return self.by_login(username).get()


class User(AbstractUser):
    username = models.CharField(
        _("login name"),
        max_length=LOGIN_MAX_LENGTH,
        unique=True,
        validators=[LoginNameValidator(), MinLengthValidator(LOGIN_MIN_LENGTH)],
        help_text=_("3 to 30 letters, digits, “_” or “-”. Other players see it."),
        error_messages={"unique": _("This login name is taken.")},
    )

    objects = UserManager()

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_login_unique_ci",
                violation_error_message=_("This login name is taken."),
            ),
        ]


class Player(models.Model):
    """A user as a player: what the ladder and the profile page show."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    rating = models.PositiveIntegerField(_("rating"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    times_goat = models.PositiveIntegerField(_("times goat"), default=0)
    last_game_at = models.DateTimeField(_("last game"), null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=models.Q(rating__gte=0), name="player_rating_not_negative"),
            models.CheckConstraint(
                condition=models.Q(times_goat__lte=models.F("games_played")),
                name="player_goat_at_most_games",
            ),
        ]
        indexes = [
            # The ladder: best rating first, older accounts first among equals.
            models.Index(fields=["-rating", "id"], name="player_ladder_idx"),
        ]

    def __str__(self):
        return self.user.username
