from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.validators import MinLengthValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.logins import CLASH_MARK, LOGIN_KEY_MAX_LENGTH, keys_of, login_key
from accounts.validators import (
    LOGIN_MAX_LENGTH,
    LOGIN_MIN_LENGTH,
    LoginNameValidator,
    OneAlphabetValidator,
)
from kozel_site.appendonly import AppendOnlyModel


class UserManager(DjangoUserManager):
    def by_login(self, login):
        """The user whose login name is `login` without regard to case: a queryset of at
        most one.  A look-alike name (same key, other letters) does not find it."""
        folded = login.casefold()
        candidates = self.filter(login_key__in=keys_of(login)).values_list("pk", "username")
        return self.filter(pk__in=[pk for pk, name in candidates if name.casefold() == folded])

    def lookalikes(self, login):
        """Users whose login name a reader could take for `login` (its case variants too)."""
        key = login_key(login)
        # The LIKE scans the clash keys' few rows only where the database can tell; a
        # sign-up, the one caller, is rare.
        return self.filter(Q(login_key=key) | Q(login_key__startswith=key + CLASH_MARK))

    def get_by_natural_key(self, username):
        # Login names are unique without regard to case, so logging in ignores case too.
        return self.by_login(username).get()


class User(AbstractUser):
    username = models.CharField(
        _("login name"),
        max_length=LOGIN_MAX_LENGTH,
        unique=True,
        validators=[LoginNameValidator(), OneAlphabetValidator(), MinLengthValidator(LOGIN_MIN_LENGTH)],
        help_text=_("3 to 30 letters, digits, “_” or “-”. Other players see it."),
        error_messages={"unique": _("This login name is taken.")},
    )
    # Equal for login names that differ only in case or look alike (accounts.logins), so
    # no two accounts can be told apart only by letters that look the same.
    login_key = models.CharField(_("login key"), max_length=LOGIN_KEY_MAX_LENGTH, unique=True, editable=False)

    objects = UserManager()

    def save(self, *args, **kwargs):
        # A clash key, kept from before look-alikes were refused, stays while the name does.
        if self.login_key not in keys_of(self.username):
            self.login_key = login_key(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "login_key"}
        super().save(*args, **kwargs)


class Player(models.Model):
    """A user as a player: what the ladder and the profile page show."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player",
        verbose_name=_("user"),
    )
    rating = models.PositiveIntegerField(_("rating"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    times_goat = models.PositiveIntegerField(_("times goat"), default=0)
    # Of the rated games, those played in pairs (RULES.md 11): the ladder shows them apart.
    pair_games = models.PositiveIntegerField(_("rated games in pairs"), default=0)
    last_game_at = models.DateTimeField(_("last game"), null=True, blank=True)
    # A copy of user.is_active, kept by games.moderation: the ladder leaves closed accounts
    # out through its own index, without a join to the users on every row it skips.
    active = models.BooleanField(_("active"), default=True)
    # The terms of the last table this person asked for, by lobby form ("request",
    # "bots"): the lobby's forms start from them (games.lobby.remembered).
    table_terms = models.JSONField(_("last table terms"), default=dict, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=models.Q(rating__gte=0), name="player_rating_not_negative"),
            models.CheckConstraint(
                condition=models.Q(times_goat__lte=models.F("games_played")),
                name="player_goat_at_most_games",
            ),
            models.CheckConstraint(
                condition=models.Q(pair_games__lte=models.F("games_played")),
                name="player_pair_games_at_most_games",
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
        CHAT_DELETE = "chat_delete", _("delete a chat message")
        CHAT_MUTE = "chat_mute", _("mute in chat")
        LIFT_BAR = "lift_bar", _("lift a bar from rated tables")
        ARENA_CANCEL = "arena_cancel", _("cancel an arena")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderator_actions",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=12, choices=Kind.choices)
    match = models.ForeignKey(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True,
        related_name="moderator_actions", verbose_name=_("game"),
    )
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="moderated", verbose_name=_("player"),
    )
    arena = models.ForeignKey(
        "games.Arena", on_delete=models.PROTECT, null=True, blank=True,
        related_name="moderator_actions", verbose_name=_("arena"),
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
                | (models.Q(action__in=["deactivate", "reactivate", "chat_mute", "lift_bar"], match__isnull=True, person__isnull=False))
                # A deleted chat line: its game and its author.
                | (models.Q(action="chat_delete", match__isnull=False, person__isnull=False))
                | (models.Q(action="arena_cancel", arena__isnull=False, match__isnull=True,
                            person__isnull=True)),
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


class Follow(models.Model):
    """``follower`` follows ``followed``: the players one follows are one's friends list."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="following", verbose_name=_("follower"))
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="followers", verbose_name=_("followed player"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")),
                                   name="follow_not_oneself"),
        ]

    def __str__(self):
        return f"{self.follower_id} → {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: who cannot challenge them nor read their chat, and
    whose chat lines they no longer see."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocking", verbose_name=_("blocker"))
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocked_by", verbose_name=_("blocked player"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")),
                                   name="block_not_oneself"),
        ]

    def __str__(self):
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class Challenge(models.Model):
    """A direct challenge: ``challenger``'s private table ``match``, offered to
    ``challenged``, who accepts (takes a seat there) or declines with one click.  It is
    open while its match waits; games.lobby.challenges makes and answers it."""

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_made", verbose_name=_("challenger"))
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_received",
                                   verbose_name=_("challenged player"))
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="challenges",
                              verbose_name=_("game"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        constraints = [
            models.UniqueConstraint(fields=["match", "challenged"], name="challenge_once"),
        ]

    def __str__(self):
        return f"{self.challenger_id} → {self.challenged_id} (#{self.match_id})"
