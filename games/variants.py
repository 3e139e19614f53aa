"""What the site calls a kind of game (games/rules/variant.py): its terms, in the
viewer's language, for every page that states a table's terms (the lobby's rows, the
invitation, the room's bar, the game's page)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import rules
from games.models import Game


def terms(variant: rules.Variant) -> list[tuple[str, str]]:
    """The game's terms as (what, words): the game when it is not Kozel, the fish rule
    where the game has one, and pairs."""
    said = []
    if variant.name != rules.KOZEL:
        said.append(("game", game_name(variant.name)))
    if variant.has_fish_rule:
        said.append(("fish", _("fish for one") if variant.fish == rules.FISH_ONE
                     else _("fish for all")))
    if variant.pairs:
        said.append(("pairs", _("pairs (2 against 2)")))
    return said


def terms_text(variant: rules.Variant) -> str:
    """``terms`` as one line: "fish for one, pairs (2 against 2)"."""
    return ", ".join(words for _what, words in terms(variant))


def game_name(name: str) -> str:
    """A game's name for people (the model's choices carry it, translated)."""
    return str(dict(Game.choices).get(name, name))
