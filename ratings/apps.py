from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        # A rated game's end writes its rating records (DESIGN.md: the game's end is an
        # event of games.play, which imports nothing of ratings).
        # It also decides, as a rated game starts, whether the same people have played
        # together too often for it to count, counts the leavers at a game's end, and
        # ends their bars with the clock's sweep (RULES.md 10; ratings/limits.py).
        from games.play import clock, events
        from ratings import limits, services

        events.on_game_ended(services.record_ended_game)
        events.on_game_starting(limits.unrated_why)
        events.on_game_ended(limits.departure_after)
        clock.every_sweep(limits.sweep)
