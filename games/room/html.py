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
(games/room/jinja2_env.py says why not Django's template language).
"""

from __future__ import annotations

from functools import lru_cache

from django.template import engines
from django.utils import translation
from django.utils.translation import trans_real
from django.utils.safestring import SafeString, mark_safe
from markupsafe import Markup

from games.room import words
from games.room.present import tile_halves

ENGINE = "jinja2"  # kozel_site/settings.py TEMPLATES

# Parts kept rendered, in bounded caches of the process: a hand that may not move now
# shows the same markup until its seat plays or draws, whatever the version (a cache a
# few times the hands in use at once), and so do the table's parts below.
HANDS_KEPT = 4096
PARTS_KEPT = 8192


def _template(name: str):
    # Looked up each time: Jinja2 keeps what it compiled, and with DEBUG on it notices a
    # changed file (the template is then a new object, and so are the keys below).
    return engines[ENGINE].env.get_template(name)


def table(context: dict) -> SafeString:
    """The ``#table`` fragment of ``context`` (games.room.present.table_context), in the
    active language."""
    extra = {}
    if context["view"] is not None:
        language = translation.get_language()
        parts = _template("games/room/parts.html")
        extra["seats_html"] = Markup("".join(
            _seat_box(parts, language, tuple(p.items())) for p in context["players"]))
        extra["chain_html"] = Markup("".join(
            _chain_tile(parts, t["a"], t["b"], "last" in t) for t in context["chain"]))
        # The whole round told (opened from the short log), its latest lines in sight.
        told = [_log_line(parts, language, line["kind"], line["seat"], line["text"])
                for line in words.round_log(context["moves"], context["names"],
                                            shown=len(context["moves"]),
                                            hundred=context["view"].get("hundred"),
                                            chain=context["view"]["chain"])]
        extra["log_html"] = Markup("".join(told[-words.LOG_SHOWN:]))
        extra["all_moves_html"] = Markup("".join(told))
        summary = context["summary"]
        if summary is not None and summary.get("writing_game"):
            extra["notes"] = words.writing_note(summary)
        elif summary is not None:
            extra["why"] = words.explanations(summary, context["names"])
    extra["_"] = _gettext(translation.get_language())
    return mark_safe(_template("games/room/table.html").render(dict(context, **extra)))


# A move changes one or two players' boxes, adds one tile to the chain and one line to
# the log: the rest is what the version before showed, kept rendered (a player's box and
# a log line change with a move; a chain tile is one of 28, plain or just played).
@lru_cache(maxsize=PARTS_KEPT)
def _seat_box(parts, language: str, items: tuple) -> Markup:
    return parts.module.seat_box(dict(items))


@lru_cache(maxsize=PARTS_KEPT)
def _chain_tile(parts, a: int, b: int, last: bool) -> Markup:
    return parts.module.chain_tile(a, b, last)


@lru_cache(maxsize=PARTS_KEPT)
def _log_line(parts, language: str, kind: str, seat: int, text: str) -> Markup:
    return parts.module.log_line(kind, seat, text)


def seat(context: dict) -> SafeString:
    """The ``#room`` fragment of one viewer (games.room.present.seat_context)."""
    hand = ""
    if not context["spectator"]:
        template, language = _template("games/room/hand.html"), translation.get_language()
        if context["turn_mine"]:  # its buttons carry the version: made for this frame
            hand = _hand(template, language, context["hand"], True, context["can_draw"],
                         context["version"], context["doubles"], context["open_ends"])
        else:
            hand = _idle_hand(template, language, context["hand"])
    # A plain (Django) safe string, as every fragment: a frame adds more markup to it.
    return mark_safe(str(_template("games/room/parts.html").module.seat_part(
        context["status"], context["turn_mine"], context["version"], hand, context["spectator"])))


def _hand(template, language: str, hand: tuple, turn_mine: bool, can_draw: bool,
          version: int | None, doubles: tuple = (), open_ends: tuple = ()) -> Markup:
    """A hand: ``hand`` is ((tile, the ends it may be played on), ...); an end is None for
    the lead (the table is empty).  ``doubles``: the two doubles it may play at once (sea
    goat), or ().  ``open_ends``: the chain's open ends' values (left, right), by which
    the buttons of a tile that fits both name its end, as the round's log does."""
    tiles = [{"name": name, "halves": tile_halves(name), "ends": ends,
              "playable": turn_mine and bool(ends),
              # Two ends to choose from: the tile is chosen, then a lit end on the table;
              # one of two doubles to play at once: chosen, then the other double (or its
              # own lit end, to play it alone).
              "choose": turn_mine and (len(ends) == 2 or name in doubles),
              "with": next((other for other in doubles if other != name), None)
              if name in doubles else None} for name, ends in hand]
    values = dict(zip(("left", "right"), open_ends))
    return Markup(template.render(hand=tiles, turn_mine=turn_mine, can_draw=can_draw,
                                  version=version, doubles=doubles, values=values,
                                  _=_gettext(language)))


@lru_cache(maxsize=HANDS_KEPT)
def _idle_hand(template, language: str, hand: tuple) -> Markup:
    """The hand of a seat not to move: nothing in it changes with the version."""
    return _hand(template, language, hand, False, False, None)


def _gettext(language: str):
    """The words of ``language``, looked up without Django's per-call search for the
    active language (a frame has a score of them)."""
    return trans_real.translation(language).gettext


def score_table(table_html: str, open_: bool) -> SafeString:
    """The score table beside the room (``#round-table``), an out-of-band swap of its own:
    it changes once a round, so a client gets it only when it changed, not with every
    move.  ``table_html`` is the rendered ``games/_round_table.html`` ("" before the
    first round ends); ``open_`` unfolds it (between rounds and at the end)."""
    return mark_safe(_template("games/room/score_table.html").render(
        {"table_html": table_html, "open": open_}))
