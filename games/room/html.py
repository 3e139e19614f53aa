"""The game room's frames: ``#room`` and ``#round-table``, out-of-band swaps sent over the
WebSocket (games/consumers.py) and embedded in the room page (games/room_views.py).

The markup is in templates/games/room/, rendered by Jinja2 with autoescaping
(games/jinja2_env.py says why not Django's template language).  It keeps the stable
hooks the browser tests and the page's script (static/js/kozel.js) use: the hand
``[data-hand]`` of buttons ``[data-tile="a-b"]`` with ``data-playable`` on the tiles the
seat may play now, ``[data-end="left"|"right"]``, ``[data-action="draw"]``, the seats
``[data-seat]`` and the room's ``data-status``, ``data-turn-mine`` and ``data-version``.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

ENGINE = "jinja2"  # kozel_site/settings.py TEMPLATES


def room(context: dict, events=()) -> SafeString:
    """The room frame of ``context``'s seat (games.room.present.room_context), in the active
    language; ``events`` are the announcement lines of what just happened."""
    return mark_safe(render_to_string("games/room/room.html", dict(context, events=events),
                                      using=ENGINE))


def score_table(table_html: str, open_: bool) -> SafeString:
    """The score table beside the room (``#round-table``), an out-of-band swap of its own:
    it changes once a round, so a client gets it only when it changed, not with every
    move.  ``table_html`` is the rendered ``games/_round_table.html`` ("" before the
    first round ends); ``open_`` unfolds it (between rounds and at the end)."""
    return mark_safe(render_to_string("games/room/score_table.html",
                                      {"table_html": table_html, "open": open_}, using=ENGINE))
