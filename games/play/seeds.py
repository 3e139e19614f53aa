"""The seeds of a verifiable deal (RECORD.md, kozel-fair/1): the server's secret one,
drawn when a game request is made, and each seat's client seed.

The deals follow from these alone (games.rules.fair); the server seed stays on the match
row, shown to nobody until the game is over (games.records.fair).
"""

from __future__ import annotations

import secrets

from django.utils.translation import gettext as _

from games.rules import fair
from games.play.errors import PlayError

# What the browser makes (static/js/fair.js) and the server makes in its place: 16 bytes, hex.
CLIENT_SEED_BYTES = 16


def new_server_seed() -> bytes:
    """32 random bytes from the system: the one place a real game's seed comes from, so
    that the tests can draw it from a seed they show (tests/seeding.py)."""
    return secrets.token_bytes(fair.SEED_BYTES)


def new_client_seed() -> str:
    """A client seed for a player whose browser sent none (no JavaScript)."""
    return secrets.token_hex(CLIENT_SEED_BYTES)


def bot_client_seed(seat: int) -> str:
    return str(seat)


def seed_fields() -> dict:
    """A new request's seed and its commitment, as Match fields."""
    seed = new_server_seed()
    return {"server_seed": seed, "commitment": fair.commitment(seed)}


def invalid_client_seed_message() -> str:
    return _("The client seed must be 1 to 64 printable ASCII characters: Latin letters, "
             "digits, spaces and punctuation.")


def client_seed(given: object) -> str:
    """The seed a player gave, or one made for them if they gave none; PlayError if it is
    not a valid client seed (RECORD.md: up to 64 printable ASCII characters)."""
    if given is None or given == "":
        return new_client_seed()
    if not fair.valid_client_seed(given):
        raise PlayError(invalid_client_seed_message(), "invalid")
    return given
