"""The Jinja2 environment of the game room's frames (games/room/html.py): Django's
translations and URLs, and the drawings of games/templatetags/dominoes.py.

Jinja2 and not Django's template language because the room is rendered again for every
seat and spectator on every move, and Jinja2 compiles a template to Python, where
Django's template language walks its nodes on every render.  Autoescaping is on
(Django's Jinja2 backend sets it), and the drawings are Django's safe strings, which
Jinja2 takes as they are.

Texts are ``_("...")`` calls formatted with ``%`` (never ``{% trans %}`` blocks): that
is what ``makemessages`` finds in a template, so the msgids stay in locale/.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from jinja2 import Environment, Undefined

from games.templatetags.dominoes import fish_icon, tile, tile_back
from games.variants import terms_text


def environment(**options) -> Environment:
    # What the room's context lacks (a waiting table has no round, no phase) is nothing,
    # with DEBUG on as well: the backend would print its name there, in the page.
    options["undefined"] = Undefined
    env = Environment(**options)
    env.globals.update(_=gettext, url=_url, tile=tile, tile_back=tile_back, fish_icon=fish_icon,
                       variant_terms=terms_text)
    return env


def _url(name: str, *args) -> str:
    return reverse(name, args=args)
