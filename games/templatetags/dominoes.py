"""Domino tiles drawn as inline SVG with real pips, so the site needs no images for them."""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.variants import terms

register = template.Library()


@register.filter
def variant_terms(variant):
    """A table's terms, [(what, words)], for its ``Variant`` (games/variants.py)."""
    return terms(variant)

# Pip centres on a 3x3 grid for each value, as on real tiles.
_PIPS = {
    0: (), 1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
_STEP = 7.5  # one half is 30 x 30 units; pips sit 7.5 apart, clear of the edges


def _pips(value: int) -> str:
    return "".join(f'<circle cx="{_STEP + x * _STEP:g}" cy="{_STEP + y * _STEP:g}" r="2.9"/>'
                   for x, y in _PIPS[value])


# Each half's pips are drawn once per page, and every tile refers to them with <use>: a
# tile's markup shrinks, and with it every room frame (sent to every seat on every move).
PIP_DEFINITIONS = mark_safe(
    '<svg class="pip-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>'
    + "".join(f'<g id="pips-{value}">{_pips(value)}</g>' for value in range(1, 7))
    + "</defs></svg>")


@register.simple_tag
def pip_definitions():
    """Once per page (templates/base.html), before any tile."""
    return PIP_DEFINITIONS


def _half(value: int, dx: int, dy: int) -> str:
    if value == 0:
        return ""
    offset = f' x="{dx}"' if dx else f' y="{dy}"' if dy else ""
    return f'<use href="#pips-{value}"{offset}/>'


@register.simple_tag
def tile(first: int, second: int, vertical: bool = False, label: str = ""):
    """A tile showing ``first`` on the left (or top) and ``second`` on the right (bottom)."""
    return _tile(first, second, bool(vertical), str(label))


# A room frame draws dozens of tiles and every move sends a frame to each seat: there
# are only 28 tiles, so each drawing is kept.
@lru_cache(maxsize=1024)
def _tile(first: int, second: int, vertical: bool, label: str):
    if vertical:
        width, height = 30, 60
        pips = _half(first, 0, 0) + _half(second, 0, 30)
        line = '<line x1="3" y1="30" x2="27" y2="30"/>'
    else:
        width, height = 60, 30
        pips = _half(first, 0, 0) + _half(second, 30, 0)
        line = '<line x1="30" y1="3" x2="30" y2="27"/>'
    return format_html(
        '<svg class="tile-svg" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        '<rect x="0.5" y="0.5" width="{}" height="{}" rx="4"/>{}{}</svg>',
        width, height, label or f"{first}-{second}", width - 1, height - 1,
        mark_safe(line), mark_safe(pips))


@register.simple_tag
def tile_back(vertical: bool = True):
    """The back of a tile, for the tiles other players hold (only their number is known)."""
    return _tile_back(bool(vertical))


# Every player's line shows one, and a move changes a few lines of every seat's frame:
# made once, not again for every line.
@lru_cache(maxsize=2)
def _tile_back(vertical: bool):
    width, height = (30, 60) if vertical else (60, 30)
    return format_html('<svg class="tile-svg back" viewBox="0 0 {} {}" aria-hidden="true">'
                       '<rect x="0.5" y="0.5" width="{}" height="{}" rx="4"/></svg>',
                       width, height, width - 1, height - 1)


@register.simple_tag
def fish_icon(title: str = ""):
    """A fish (рыба): a fish round in the score table, and the fish bank."""
    return format_html(
        '<svg class="fish-icon" viewBox="0 0 26 16" role="img" aria-label="{}">'
        '<path d="M2 8c4-6 12-7 17-2l5-4v12l-5-4c-5 5-13 4-17-2z"/>'
        '<circle cx="7" cy="7" r="1.2" fill="#fff"/></svg>', title or "fish")
