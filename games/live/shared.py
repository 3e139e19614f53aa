"""One read shared by every socket of a process that asks for it while it is fresh: what
a thousand pages' heartbeats compare their view with costs one query a second, not a
thousand."""

from __future__ import annotations

import asyncio
import time
from typing import Awaitable, Callable, Generic, TypeVar

T = TypeVar("T")


class SharedRead(Generic[T]):
    def __init__(self, read: Callable[[], Awaitable[T]], fresh: float) -> None:
        self.read, self.fresh = read, fresh
        self.value: T | None = None
        self.read_at = float("-inf")
        self.reading: asyncio.Future | None = None

    async def get(self) -> T:
        """The value read at most ``fresh`` seconds ago (a read under way is joined)."""
        if time.monotonic() - self.read_at < self.fresh:
            return self.value
        if self.reading is None or self.reading.done():
            self.reading = asyncio.ensure_future(self._read())
        return await asyncio.shield(self.reading)

    async def _read(self) -> T:
        value = await self.read()
        self.value, self.read_at = value, time.monotonic()
        return value
