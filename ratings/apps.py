from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        # A rated game's end writes its rating records (DESIGN.md: the game's end is an
        # event of games.play, which imports nothing of ratings).
        from games.play import events
        from ratings import services

        events.on_game_ended(services.record_ended_game)
