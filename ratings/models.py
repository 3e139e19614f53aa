from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kozel_site.appendonly import AppendOnlyModel


class RatingRecord(AppendOnlyModel):
    """What one rated game gave one player (RULES.md 8-10): a line of their rating history."""

    # PROTECT both ways: a rating is the sum of its records, so neither side may vanish.
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="rating_records")
    player = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="rating_records")
    points = models.PositiveIntegerField(_("rating points"))
    rating_after = models.PositiveIntegerField(_("rating after"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("rating record")
        verbose_name_plural = _("rating records")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="ratingrecord_one_per_game_player"),
            # Ratings never fall, so the rating after a game includes that game's points.
            models.CheckConstraint(condition=Q(rating_after__gte=F("points")), name="ratingrecord_after_includes_points"),
        ]
        indexes = [
            # A player's history, newest first.
            models.Index(fields=["player", "-created_at"], name="ratingrecord_history_idx"),
            # Ladders over a period (week, month): records by time.
            models.Index(fields=["created_at"], name="ratingrecord_period_idx"),
        ]

    def __str__(self):
        return f"{self.player} +{self.points} (#{self.match_id})"
