"""Verifiable deals, ``kozel-fair/1`` (RECORD.md): every deal follows from a secret server
seed, committed to by its SHA-256 before anyone joins, and the players' client seeds.

Pure standard library, so that anyone can redo it: docs/fair-deals.md has the same steps.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Sequence

from .deal import HAND_SIZE, Deal, needs_redeal
from .tiles import TILES

SCHEME = "kozel-fair/1"
SEED_BYTES = 32
MAX_CLIENT_SEED = 64


def commitment(server_seed: bytes) -> str:
    """SHA-256 of the raw seed, lower-case hex: public from the game request on."""
    return hashlib.sha256(server_seed).hexdigest()


def valid_client_seed(seed: object) -> bool:
    """1 to 64 printable ASCII characters (space to tilde)."""
    return isinstance(seed, str) and 0 < len(seed) <= MAX_CLIENT_SEED \
        and all(" " <= c <= "~" for c in seed)


def _context(round_number: int, attempt: int, client_seeds: Sequence[str]) -> bytes:
    return "\n".join([SCHEME, str(round_number), str(attempt), *client_seeds]).encode("utf-8")


class _Stream:
    """HMAC-SHA256(server_seed, context + "\\n" + i) for i = 0, 1, ..., read 4 bytes at a time."""

    def __init__(self, server_seed: bytes, context: bytes) -> None:
        self._key = server_seed
        self._context = context
        self._block = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:  # 32-byte blocks split evenly into words
            self._buffer += hmac.new(self._key, self._context + b"\n" + str(self._block).encode(),
                                     hashlib.sha256).digest()
            self._block += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def uniform(self, k: int) -> int:
        """Uniform in 0..k-1 by rejection: no value is likelier than another."""
        limit = 2**32 - (2**32 % k)
        while True:
            x = self._word()
            if x < limit:
                return x % k


def shuffled(server_seed: bytes, round_number: int, attempt: int,
             client_seeds: Sequence[str]) -> list:
    """The 28 tiles after the Fisher-Yates shuffle of attempt ``attempt`` of the round."""
    stream = _Stream(server_seed, _context(round_number, attempt, client_seeds))
    order = list(TILES)
    for i in range(len(order) - 1, 0, -1):
        j = stream.uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def attempt_deal(server_seed: bytes, round_number: int, attempt: int,
                 client_seeds: Sequence[str]) -> Deal:
    """The deal of one attempt, whether or not a hand of it must be redealt."""
    order = shuffled(server_seed, round_number, attempt, client_seeds)
    dealt = HAND_SIZE * len(client_seeds)
    hands = tuple(tuple(order[s:s + HAND_SIZE]) for s in range(0, dealt, HAND_SIZE))
    return Deal(hands, tuple(order[dealt:]))


def fair_deal(server_seed: bytes, round_number: int, client_seeds: Sequence[str]) -> tuple[Deal, int]:
    """The deal of round ``round_number`` (1 first) and the attempt it took (0 first)."""
    attempt = 0
    while True:
        deal = attempt_deal(server_seed, round_number, attempt, client_seeds)
        if not any(needs_redeal(hand) for hand in deal.hands):
            return deal, attempt
        attempt += 1


def same_deal(a: Deal, b: Deal) -> bool:
    """Hands equal as sets, bazaars equal in order (RECORD.md, kozel-fair/1 step 5)."""
    return len(a.hands) == len(b.hands) \
        and all(set(x) == set(y) for x, y in zip(a.hands, b.hands)) \
        and tuple(a.bazaar) == tuple(b.bazaar)
