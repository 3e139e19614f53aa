"""A test player over a real WebSocket: reads the frames the room sends and clicks what a
person would, by sending exactly what the buttons' ``hx-vals`` say (as htmx does)."""

from __future__ import annotations

import html
import json
import random
import re

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from kozel_site.asgi import application
from tests.waiting import wait_until

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")  # as a browser sends it: the origin check compares both
ROOM = re.compile(r'<div id="room"[^>]*data-status="(\w+)"[^>]*data-turn-mine="(\w+)"'
                  r'[^>]*data-version="(\d+)"')
BUTTON = re.compile(r"<button[^>]*?(data-playable|data-end=\"\w+\"|data-action=\"draw\")"
                    r"[^>]*?hx-vals='([^']*)'")


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def communicator(path: str, cookie: bytes | None = None, origin=ORIGIN) -> WebsocketCommunicator:
    headers = [HOST, origin] if origin else [HOST]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, path, headers=headers)


async def logged_in(path: str, user=None, origin=ORIGIN) -> WebsocketCommunicator:
    """A communicator carrying ``user``'s session cookie (None: an anonymous visitor)."""
    cookie = await database_sync_to_async(session_cookie)(user) if user is not None else None
    return communicator(path, cookie, origin)


async def next_frame(seats: list[Seat], seconds: float = 10.0) -> None:
    """Wait until a frame is delivered to any of ``seats``; fail if none comes in time."""
    arrived = await wait_until(lambda: any(not seat.ws.output_queue.empty() for seat in seats),
                               seconds=seconds, every=0.002)
    assert arrived, f"no frame came to any seat within {seconds} s"


class Seat:
    """One connected browser tab at a game room."""

    def __init__(self, match_id: int, user=None, rng: random.Random | None = None) -> None:
        self.path, self.user = f"/ws/games/{match_id}/", user
        self.ws = None
        self.frames: list[str] = []
        self.rng = rng or random.Random(0)
        self.status = self.version = None
        self.turn_mine = False
        self.last_room = ""
        self.acted_on = None  # the version of the view the last move was made on

    async def connect(self) -> None:
        self.ws = await logged_in(self.path, self.user)
        # A connection reads the database before it answers: a busy machine takes more than
        # the communicator's one second.
        connected, _code = await self.ws.connect(timeout=10)
        assert connected
        await self.receive()

    async def receive(self, timeout: float = 5) -> str:
        frame = await self.ws.receive_from(timeout=timeout)
        self.frames.append(frame)
        found = ROOM.search(frame)
        if found:
            self.status, mine, version = found.groups()
            self.turn_mine, self.version = mine == "true", int(version)
            self.last_room = frame
        return frame

    async def drain(self) -> None:
        while not await self.ws.receive_nothing(timeout=0.01):
            await self.receive()

    async def take_arrived(self) -> None:
        """Read the frames already delivered, without waiting for more."""
        while not self.ws.output_queue.empty():
            await self.receive()

    def choices(self) -> list[dict]:
        """The messages the clickable buttons of the last room frame would send."""
        out = []
        for kind, vals in BUTTON.findall(self.last_room):
            data = json.loads(html.unescape(vals))
            if kind == "data-playable" and "end" not in data and "play" in data \
                    and re.search(rf'data-tile="{data["play"]}"[^>]*data-choose-end', self.last_room):
                continue  # this tile asks for an end: its data-end buttons carry the move
            out.append(data)
        return out

    def may_act(self) -> bool:
        """Whether the last view is this seat's turn, with something to click, and not
        acted on yet (its answer, the next view or a refusal, may still be on the way)."""
        return self.turn_mine and self.version != self.acted_on and bool(self.choices())

    async def move(self) -> dict:
        message = self.rng.choice(self.choices())
        self.acted_on = self.version
        await self.ws.send_to(text_data=json.dumps(message))
        return message
