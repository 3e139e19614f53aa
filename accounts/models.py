from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import MinLengthValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.validators import LOGIN_MAX_LENGTH, LOGIN_MIN_LENGTH, LoginNameValidator
from kozel_site.appendonly import AppendOnlyModel


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
    # A copy of user.is_active, kept by games.moderation: the ladder leaves closed accounts
    # out through its own index, without a join to the users on every row it skips.
    active = models.BooleanField(_("active"), default=True)

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
            # The ladder: open accounts with rated games, best rating first, older accounts
            # first among equals.
            models.Index(fields=["-rating", "id"], name="player_ladder_idx",
                         condition=models.Q(active=True, games_played__gt=0)),
        ]

    def __str__(self):
        return self.user.username


class ModeratorAction(AppendOnlyModel):
    """One thing a moderator did, with who, when and why: the moderation log.

    Written by games.moderation in the same transaction as the action itself; never
    changed.  The annulment of a game is also what marks the game annulled.
    """

    class Kind(models.TextChoices):
        ABORT = "abort", _("abort a game")
        ANNUL = "annul", _("annul a game")
        DEACTIVATE = "deactivate", _("close an account")
        REACTIVATE = "reactivate", _("reopen an account")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderator_actions",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=10, choices=Kind.choices)
    match = models.ForeignKey(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True,
        related_name="moderator_actions", verbose_name=_("game"),
    )
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="moderated", verbose_name=_("player"),
    )
    reason = models.TextField(_("reason"), max_length=500)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("moderator action")
        verbose_name_plural = _("moderator actions")
        ordering = ["-created_at", "-id"]
        permissions = [("moderate", _("Can abort and annul games and close accounts"))]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(action__in=["abort", "annul"], match__isnull=False, person__isnull=True))
                | (models.Q(action__in=["deactivate", "reactivate"], match__isnull=True, person__isnull=False)),
                name="moderatoraction_target",
            ),
            # A game is annulled once: its rating records are taken back once.
            models.UniqueConstraint(fields=["match"], condition=models.Q(action="annul"),
                                    name="moderatoraction_annul_once"),
            models.CheckConstraint(condition=~models.Q(reason=""), name="moderatoraction_has_reason"),
        ]

    def __str__(self):
        target = f"#{self.match_id}" if self.match_id else str(self.person)
        return f"{self.moderator}: {self.get_action_display()} {target}"
