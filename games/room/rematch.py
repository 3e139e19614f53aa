"""The offer of one more game in the ended game's room (games/lobby/rematch.py decides
it): an out-of-band fragment of its own, ``#rematch``, in the slot the game's end leaves
for it (templates/games/room/game_end.html).

A room sends it when the offer changes (the hub hands every room of the game the offer's
public view) and again after each frame of the ended game, which empties the slot; never
with the moves.  Answers come back over the room's socket (games/room/consumer.py).
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import shown_bot_name
from games.live.now import now_ms


def _why(offer: dict) -> str:
    """Why a withdrawn offer was withdrawn, naming whose answer or absence ended it."""
    texts = {
        "declined": _("Declined: %(name)s."),
        "away": _("Away from the game's page: %(name)s."),
        "elsewhere": _("At another table now: %(name)s."),
        "expired": _("Not everyone answered in time."),
        "left": _("Left the game: %(name)s."),
    }
    return texts.get(offer["reason"], "") % {"name": offer["by"]}


def html(offer: dict, reader_id: int | None) -> str:
    """The fragment for one reader (None: a visitor), in the active language: who sits
    where in the new game and who has accepted, the reader's own answer if they have yet
    to give one, and, for its people, the way to the new game while it is being played
    (the page follows ``data-redirect``: static/js/kozel.js)."""
    mine = next((p for p in offer["people"]
                 if reader_id is not None and p["user"] == reader_id), None)
    go = ""
    if mine is not None and offer["status"] == "started" and offer["playing"]:
        go = reverse("games:room", args=[offer["table"]])
    # Bots' names come as kept (a notice carries plain text): shown in the reader's language.
    offer = dict(offer, people=[dict(p, name=str(shown_bot_name(p["name"])))
                                for p in offer["people"]])
    context = {"offer": offer, "mine": mine, "go": go, "why": _why(offer),
               "now_ms": now_ms()}
    if offer["status"] == "open" and mine is not None and not mine["accepted"]:
        # The lobby's own field (Django's template language), filled by static/js/fair.js.
        context["client_seed_html"] = render_to_string("games/_client_seed.html",
                                                       {"seed_for": "rematch"})
    return render_to_string("games/room/rematch.html", context, using="jinja2")
