from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The contexts above games.play subscribe to what it tells (DESIGN.md): the lobby
        # offers one more game at a game's end and withdraws the offers whose time is up
        # with the clock's sweep; an arena frees a game's players at its end, and seats
        # its waiting players and makes the site's scheduled arenas with the sweep.
        # (ratings subscribes in its own app.)  A block made or lifted hides or shows
        # chat lines in the rooms open for either person.
        from accounts import friends
        from games.arena import schedule, scoring, seating
        from games.lobby import formseeds, rematch
        from games.play import clock, events
        from games.records import analysing
        from games.live import fanout
        from games.room import cache, chat

        events.on_game_ended(rematch.offer_after)
        events.on_game_ended(scoring.on_game_ended)
        clock.every_sweep(rematch.sweep)
        clock.every_sweep(formseeds.sweep)  # the seeds drawn for forms never sent
        clock.every_sweep(schedule.sweep)
        clock.every_sweep(seating.sweep)
        clock.every_sweep(analysing.sweep)  # the analyses, made in the clock's workers
        friends.blocks_changed.connect(chat.on_blocks_changed, dispatch_uid="chat-blocks")
        # The game rooms keep what their process commits: shown without reading it back.
        fanout.keep_committed_with(cache.prime_here)
