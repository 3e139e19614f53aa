"""The rules service: every rule of Kozel and of sea goat (RULES.md), in pure Python.

Nothing here imports Django or the database (a test enforces it).  The public API::

    state = new_game(4, fish="one")            # or new_game(Variant(4, "one", pairs=True))
    state, events = start_round(state, rng=secrets.SystemRandom())
    for action in legal_actions(state): ...
    state, events = apply(state, action)       # IllegalAction if the rules forbid it
    state, events, knocks = apply_turn(state, action)  # and the knocks made for players
    view_for(state, seat), spectator_view(state)  # all that ever leaves the server
    seat_view(state, seat)  # a seat's own part of its view: its hand and legal actions
    explain_round(view["last_round"], fish)  # which rule credited what in a round

Sea goat (RULES.md 13) is a variant: ``new_game(Variant(4, None, pairs=True,
name=SEA_GOAT))``; the same calls play it.  ``state.writing`` (the unit writing: a seat, or
in pairs a pair index; None), ``state.hundred`` (the seat leading this round for a
hundred), ``state.winners`` and ``state.how`` once it is finished; ``two_doubles(seat,
"2-2", "5-5")`` is the move of two doubles at once (kind DOUBLES), which ``legal_actions``
offers where it is allowed; a round's summary (``last_round``) carries its winner, W
(``won``), the hundred, the write-off and who is writing after it.
"""

from .actions import (DOUBLES, DRAW, KNOCK, LEFT, PLAY, RIGHT, Action, action_from_json, draw,
                      knock, play, two_doubles)
from .deal import Deal, deal_from_json, needs_redeal, random_deal
from .engine import (LEFT_GAME, TIMEOUT, apply, apply_turn, first_lead, interrupt, legal_actions,
                     new_game, start_round)
from .errors import (IllegalAction, InvalidDeal, InvalidRecord, InvalidState, MalformedAction,
                     RulesError)
from .players import HeuristicPlayer, RandomPlayer
from .record import Record, RecordRound, loads_record, read_record, replay, replay_text, summarize
from .scoring import explain_round
from .seagoat import WAYS_TO_WIN  # loads sea goat's rules (state.GAME_RULES)
from .state import DEAL, FINISHED, FISH_ALL, FISH_ONE, INTERRUPTED, GameState
from .state import PLAY as PLAYING  # the phase; PLAY is the action kind
from .tiles import TILES, Tile, tile
from .variant import GAMES, KOZEL, SEA_GOAT, Variant
from .views import seat_view, spectator_view, view_for

__all__ = [
    "Action", "DEAL", "PLAYING", "DOUBLES", "DRAW", "Deal", "FINISHED", "FISH_ALL", "FISH_ONE", "GAMES", "GameState",
    "HeuristicPlayer", "INTERRUPTED", "IllegalAction", "InvalidDeal", "InvalidRecord",
    "InvalidState", "KNOCK", "KOZEL", "LEFT", "LEFT_GAME", "MalformedAction", "PLAY", "RIGHT",
    "RandomPlayer", "Record", "RecordRound", "RulesError", "SEA_GOAT", "TILES", "TIMEOUT",
    "Tile", "Variant", "WAYS_TO_WIN",
    "action_from_json", "apply", "apply_turn", "deal_from_json", "draw", "explain_round", "first_lead", "interrupt", "knock",
    "legal_actions", "loads_record", "needs_redeal", "new_game", "play", "random_deal",
    "read_record", "replay", "replay_text", "seat_view", "spectator_view", "start_round",
    "summarize", "tile", "two_doubles", "view_for",
]
