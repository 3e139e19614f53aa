"""One object per event loop: per server process, since daphne runs one loop; tests, which
run each on a loop of their own, never see another test's."""

from __future__ import annotations

import asyncio
import weakref
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """``make()``'s object for the running loop, made the first time it is asked for."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self.kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        found = self.kept.get(loop)
        if found is None:
            found = self.kept[loop] = self.make()
        return found
