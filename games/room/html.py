"""The game room's frames: ``#room`` and ``#round-table``, out-of-band swaps sent over the
WebSocket (games/room/consumer.py) and embedded in the room page (games/room/views.py).

The markup is in templates/games/room/, rendered by Jinja2 with autoescaping
(games/jinja2_env.py says why not Django's template language).  It keeps the stable
hooks the browser tests and the page's script (static/js/kozel.js) use: the hand
``[data-hand]`` of buttons ``[data-tile="a-b"]`` with ``data-playable`` on the tiles the
seat may play now, ``[data-end="left"|"right"]``, ``[data-action="draw"]``, the seats
``[data-seat]`` and the room's ``data-status``, ``data-turn-mine`` and ``data-version``.

A move makes every seat's and spectator's frame again, and most of each is what the
frame before showed too: a player's line changes only when that player moves or the
turn passes, the chain grows by a tile once for all seats, a hand of a seat not to move
carries no version and changes only when that seat plays.  Those parts are rendered once
(parts.html, hand.html) and kept, keyed by everything they show, in bounded caches of
the process: a frame is the same markup whether a part was rendered now or kept.
"""

from __future__ import annotations

from functools import lru_cache

from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from markupsafe import Markup

from games.room.present import tile_halves

ENGINE = "jinja2"  # kozel_site/settings.py TEMPLATES

# Bounds of the kept parts: a server's running games need a few lines and hands each
# (250 games: about 1,000 players' lines and hands in use); older ones fall out.
PARTS_KEPT = 8192


def _template(name: str):
    # Looked up each time: Jinja2 keeps what it compiled, and with DEBUG on it notices a
    # changed file (the template is then a new object, and so are the keys below).
    return engines[ENGINE].env.get_template(name)


def room(context: dict, events=()) -> SafeString:
    """The room frame of ``context``'s seat (games.room.present.room_context), in the active
    language; ``events`` are the announcement lines of what just happened."""
    language = translation.get_language()
    parts = _template("games/room/parts.html")
    status, phase = context["status"], context.get("phase")
    players_html = Markup("".join(
        _player(parts, language, status, phase, tuple(p.items())) for p in context["players"]))
    chain = context["chain"]
    chain_html = _chain(parts, tuple(t["halves"] for t in chain)) if chain else ""
    hand_html = ""
    if not context["spectator"]:
        if context["turn_mine"]:  # its buttons carry the version: made for this frame
            hand_html = Markup(_template("games/room/hand.html").render(context))
        else:
            hand_html = _idle_hand(_template("games/room/hand.html"), language,
                                   tuple(t["name"] for t in context["hand"]))
    return mark_safe(_template("games/room/room.html").render(dict(
        context, events=events, players_html=players_html, chain_html=chain_html,
        hand_html=hand_html)))


@lru_cache(maxsize=PARTS_KEPT)
def _player(parts, language: str, status: str, phase: str | None, items: tuple) -> Markup:
    return parts.module.player(dict(items), status, phase)


@lru_cache(maxsize=PARTS_KEPT)
def _chain(parts, halves: tuple) -> Markup:
    return parts.module.chain([{"halves": (a, b), "name": f"{min(a, b)}-{max(a, b)}"}
                               for a, b in halves])


@lru_cache(maxsize=PARTS_KEPT)
def _idle_hand(template, language: str, names: tuple) -> Markup:
    """The hand of a seat not to move: every tile disabled, nothing that changes with the
    version."""
    hand = [{"name": n, "halves": tile_halves(n), "playable": False} for n in names]
    return Markup(template.render(hand=hand, turn_mine=False, can_draw=False, version=None))


def score_table(table_html: str, open_: bool) -> SafeString:
    """The score table beside the room (``#round-table``), an out-of-band swap of its own:
    it changes once a round, so a client gets it only when it changed, not with every
    move.  ``table_html`` is the rendered ``games/_round_table.html`` ("" before the
    first round ends); ``open_`` unfolds it (between rounds and at the end)."""
    return mark_safe(_template("games/room/score_table.html").render(
        {"table_html": table_html, "open": open_}))
