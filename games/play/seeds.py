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


def seed_fields(seed: bytes | None = None) -> dict:
    """A server seed (a new one unless ``seed`` is given) and its commitment, as Match
    fields."""
    seed = seed if seed is not None else new_server_seed()
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


def revealed(match, client_seeds: list[str] | None = None) -> dict | None:
    """The record's ``fair`` block of a game that is over (RECORD.md): its commitment,
    its server seed, now revealed, and every seat's client seed; None while it waits or
    runs -- the seed would tell every hand and the bazaar -- and for a match made before
    seeds existed.  Every page and record that shows a seed takes it from here."""
    if match.server_seed is None or not match.is_over:
        return None
    return {"scheme": fair.SCHEME, "commitment": match.commitment,
            "server_seed": bytes(match.server_seed).hex(),
            "client_seeds": list(client_seeds if client_seeds is not None
                                 else match.client_seeds)}
