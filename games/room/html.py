"""The game room's frames: out-of-band swaps sent over the WebSocket
(games/room/consumer.py) and embedded in the room page (games/room/views.py).

A frame is three fragments:

- ``#table`` (``table``): the seats around the table, the chain, the bazaar, the bank, the
  round's bar and clock, the round told in words, the summary between rounds and the
  game's end.  The same markup for every viewer of a version in a language -- it holds
  nothing of any seat's own -- so a process renders it once per version and language
  and every socket of the match shares it (games/room/cache.py).  Where a viewer sees
  the table differently (their seat at the bottom, their partner opposite, their clock),
  the page does it from ``data-me`` on the element around the fragments (views.py,
  static/css/room.css, static/js/kozel.js).
- ``#room`` (``seat``): the viewer's own part -- their hand, which tiles they may play on
  which ends, the draw button, the version their buttons send, and the hooks
  ``data-game``, ``data-status``, ``data-turn-mine``, ``data-version``.  Small, and
  first in a frame.
- ``#round-table`` (``score_table``): the score table, sent only when it changed.

The markup is in templates/games/room/, rendered by Jinja2 with autoescaping
(games/jinja2_env.py says why not Django's template language).
"""

from __future__ import annotations

from functools import lru_cache

from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from markupsafe import Markup

from games.room import words
from games.room.present import tile_halves

ENGINE = "jinja2"  # kozel_site/settings.py TEMPLATES

# Hands kept rendered: a hand that may not move now shows the same markup until its seat
# plays or draws, whatever the version (250 games: about 1,000 hands in use).
HANDS_KEPT = 4096


def _template(name: str):
    # Looked up each time: Jinja2 keeps what it compiled, and with DEBUG on it notices a
    # changed file (the template is then a new object, and so are the keys below).
    return engines[ENGINE].env.get_template(name)


def table(context: dict) -> SafeString:
    """The ``#table`` fragment of ``context`` (games.room.present.table_context), in the
    active language."""
    view = context["view"]
    extra = {}
    if view is not None:
        extra["log"] = words.round_log(context["moves"], context["names"])
        if context["summary"] is not None:
            extra["why"] = words.explanations(context["summary"], context["names"])
    return mark_safe(_template("games/room/table.html").render(dict(context, **extra)))


def seat(context: dict) -> SafeString:
    """The ``#room`` fragment of one viewer (games.room.present.seat_context)."""
    hand = ""
    if context["hand"]:
        template = _template("games/room/hand.html")
        if context["turn_mine"]:  # its buttons carry the version: made for this frame
            hand = _hand(template, context["hand"], True, context["can_draw"],
                         context["version"])
        else:
            hand = _idle_hand(template, translation.get_language(), context["hand"])
    choosing = context["turn_mine"] and any(len(ends) == 2 for _name, ends in context["hand"])
    return mark_safe(_template("games/room/seat.html").render(
        dict(context, hand_html=hand, choosing=choosing)))


def _hand(template, hand: tuple, turn_mine: bool, can_draw: bool, version: int | None) -> Markup:
    """A hand: ``hand`` is ((tile, the ends it may be played on), ...); an end is None for
    the lead (the table is empty)."""
    tiles = [{"name": name, "halves": tile_halves(name), "ends": ends,
              "playable": turn_mine and bool(ends),
              # Two ends to choose from: the tile is tapped, then a lit end on the table.
              "choose": turn_mine and len(ends) == 2} for name, ends in hand]
    return Markup(template.render(hand=tiles, turn_mine=turn_mine, can_draw=can_draw,
                                  version=version))


@lru_cache(maxsize=HANDS_KEPT)
def _idle_hand(template, language: str, hand: tuple) -> Markup:
    """The hand of a seat not to move: nothing in it changes with the version."""
    return _hand(template, hand, False, False, None)


def score_table(table_html: str, open_: bool) -> SafeString:
    """The score table beside the room (``#round-table``), an out-of-band swap of its own:
    it changes once a round, so a client gets it only when it changed, not with every
    move.  ``table_html`` is the rendered ``games/_round_table.html`` ("" before the
    first round ends); ``open_`` unfolds it (between rounds and at the end)."""
    return mark_safe(_template("games/room/score_table.html").render(
        {"table_html": table_html, "open": open_}))
