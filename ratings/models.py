"""Rating records (the history a rating is the sum of) and the period totals the ladders read.

A player's rating is always the sum of their rating records (RULES.md 10).  Records are
append-only: a game a moderator annuls keeps its record, and gets a second, compensating
record with the opposite points, which names the record it cancels (``annuls``).  So the
sum still equals the rating, the history says honestly what happened and when, and
nothing is ever rewritten.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kozel_site.appendonly import AppendOnlyModel


class RatingRecord(AppendOnlyModel):
    """What one rated game gave one player (RULES.md 8-10): a line of their rating history.

    Or, when ``annuls`` is set, the cancelling of such a line by a moderator: the same
    game and player, minus the points, and the rating after that.
    """

    # PROTECT both ways: a rating is the sum of its records, so neither side may vanish.
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="rating_records",
                              verbose_name=_("match"))
    player = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="rating_records",
                               verbose_name=_("player"))
    # A game's points (0 or more); minus those points in an annulment.
    points = models.IntegerField(_("rating points"))
    rating_after = models.PositiveIntegerField(_("rating after"))
    # Whether the player was a goat in this game: the period ladders count goats too.
    goat = models.BooleanField(_("goat"), default=False)
    annuls = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="annulment",
        verbose_name=_("annuls"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("rating record")
        verbose_name_plural = _("rating records")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One game record per game and player; its annulment is the only other line.
            models.UniqueConstraint(
                fields=["match", "player"], condition=Q(annuls__isnull=True),
                name="ratingrecord_one_per_game_player",
            ),
            # Ratings never fall through play, so the rating after a game includes its points.
            models.CheckConstraint(condition=Q(rating_after__gte=F("points")), name="ratingrecord_after_includes_points"),
            # A game gives 0 or more; an annulment takes back, and is nobody's goat.
            models.CheckConstraint(
                condition=(Q(annuls__isnull=True) & Q(points__gte=0))
                | (Q(annuls__isnull=False) & Q(points__lte=0) & Q(goat=False)),
                name="ratingrecord_points_sign",
            ),
        ]
        indexes = [
            # A player's history in time order, with what the chart draws (PostgreSQL reads
            # a keen player's thousands of records from the index alone).
            # (rating_after is a key column rather than INCLUDEd: SQLite has no INCLUDE.)
            models.Index(fields=["player", "created_at", "id", "rating_after"],
                         name="ratingrecord_history_idx"),
            # Records by time (the admin's date drill-down, rebuilding period totals).
            models.Index(fields=["created_at"], name="ratingrecord_period_idx"),
        ]

    def __str__(self):
        sign = "+" if self.points >= 0 else "−"
        return f"{self.player} {sign}{abs(self.points)} (#{self.match_id})"


class Period(models.TextChoices):
    WEEK = "week", _("week")
    MONTH = "month", _("month")


class RatingTotal(models.Model):
    """A player's rated games in one calendar week or month (local time): the sum of their
    rating records of games that ended then.

    The ladders for "this week" and "this month" rank these rows, through one index, rather
    than adding up records on every page view.  ``ratings.services`` changes them in the
    same transaction as the records they sum (an annulment takes its game back out of the
    period the game was played in), and ``rebuild_totals`` recomputes them from the records.
    """

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="rating_totals",
                               verbose_name=_("player"))
    period = models.CharField(_("period"), max_length=5, choices=Period.choices)
    # The Monday of the week, or the first day of the month.
    start = models.DateField(_("from"))
    points = models.IntegerField(_("rating points"), default=0)
    games = models.PositiveIntegerField(_("games played"), default=0)
    goats = models.PositiveIntegerField(_("times goat"), default=0)
    pair_games = models.PositiveIntegerField(_("rated games in pairs"), default=0)
    # A copy of the player's account state: a closed account leaves the ladders.
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("rating total")
        verbose_name_plural = _("rating totals")
        constraints = [
            models.UniqueConstraint(fields=["player", "period", "start"], name="ratingtotal_one_per_period"),
            models.CheckConstraint(condition=Q(period__in=Period.values), name="ratingtotal_period_valid"),
            models.CheckConstraint(condition=Q(goats__lte=F("games")), name="ratingtotal_goats_at_most_games"),
            models.CheckConstraint(condition=Q(pair_games__lte=F("games")),
                                   name="ratingtotal_pair_games_at_most_games"),
        ]
        indexes = [
            # The period ladder: one period's listed players, most points first.
            models.Index(
                fields=["period", "start", "-points", "player"],
                condition=Q(active=True, games__gt=0),
                name="ratingtotal_ladder_idx",
            ),
        ]

    def __str__(self):
        return f"{self.player} {self.period} {self.start}: {self.points}"


class Departure(models.Model):
    """A person timed out of or left a rated game (aborted ones included): what the bar
    on leavers counts (RULES.md 10, ratings.limits).  Written with the game's end."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE,
                               related_name="departures", verbose_name=_("player"))
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="departure", verbose_name=_("match"))
    reason = models.CharField(_("reason"), max_length=16)  # the rules' "timeout" or "left"
    at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("departure from a rated game")
        verbose_name_plural = _("departures from rated games")
        indexes = [models.Index(fields=["player", "at"], name="departure_player_idx")]

    def __str__(self):
        return f"{self.player} #{self.match_id} {self.reason}"


class Bar(models.Model):
    """A leaver may not sit down at a rated table until ``until`` (RULES.md 10), unless a
    moderator lifts it before (the reason is in the moderation log)."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE,
                               related_name="bars", verbose_name=_("player"))
    since = models.DateTimeField(_("from"), default=timezone.now)
    until = models.DateTimeField(_("until"))
    # When it stopped holding: its time ran out (the clock's sweep notes it) or a
    # moderator lifted it (``lifted_by``).  Null while it holds.
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="+",
                                  verbose_name=_("lifted by"))

    class Meta:
        verbose_name = _("bar from rated tables")
        verbose_name_plural = _("bars from rated tables")
        ordering = ["-since", "-id"]
        indexes = [models.Index(fields=["player", "-until"], name="bar_player_idx")]
        constraints = [models.CheckConstraint(condition=Q(until__gt=F("since")),
                                              name="bar_ends_after_it_starts")]

    @property
    def length(self):
        return self.until - self.since

    def __str__(self):
        return f"{self.player} {self.since:%Y-%m-%d %H:%M} - {self.until:%Y-%m-%d %H:%M}"
