from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The contexts above games.play subscribe to what it tells (DESIGN.md): the lobby
        # offers one more game at a game's end and withdraws the offers whose time is up
        # with the clock's sweep.  (ratings subscribes in its own app.)
        from games.lobby import formseeds, rematch
        from games.play import clock, events

        events.on_game_ended(rematch.offer_after)
        clock.every_sweep(rematch.sweep)
        clock.every_sweep(formseeds.sweep)  # the seeds drawn for forms never sent
