"""What an arena's page shows, in the active language: the live part its socket pushes
(standings, tables, the viewer's own state, the podium) and the list of arenas."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone

from games.arena import limits
from games.arena.results import arena_standings
from games.live.now import now_ms
from games.models import RUNNING, Arena, ArenaGame, ArenaPlayer, MatchStatus

STANDINGS_SHOWN = 100
JUST_STARTED = timedelta(seconds=6)


class Snapshot:
    """What every page of an arena shows alike, read once: the standings, the tables being
    played and who waits.  A process's sockets share one (games/arena/consumer.py) and
    add the viewer's own part (``mine_context``), which needs no query."""

    def __init__(self, arena: Arena) -> None:
        now = timezone.now()
        self.arena, self.version, self.phase = arena, arena.version, arena.phase(now)
        ranked = arena_standings(arena)
        names = dict(get_user_model().objects.filter(pk__in=[s.player for s in ranked])
                     .values_list("pk", "username"))
        self.entries = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=arena)}
        self.rows = [{"rank": s.rank, "name": names.get(s.player, "?"), "points": s.points,
                      "fire": s.on_fire, "games": s.games, "best": s.best, "user": s.player,
                      "sheet": s.sheet[-12:],
                      "paused": self.entries[s.player].paused
                      if s.player in self.entries else False} for s in ranked]
        self.tables = []
        for game in (ArenaGame.objects.filter(arena=arena, ended=False,
                                              match__status__in=RUNNING)
                     .select_related("match").prefetch_related("match__seats__user")
                     .order_by("seated_at")):
            match = game.match
            seats = sorted(match.seats.all(), key=lambda s: s.number)
            playing = match.status == MatchStatus.PLAYING
            self.tables.append({"number": match.pk, "playing": playing,
                                "started_at": match.started_at,
                                "commitment": match.commitment,
                                "users": [s.user_id for s in seats],
                                "names": [s.name for s in seats],
                                "unrated_again": not playing and limits.unrated_again(
                                    arena, [s.user_id for s in seats])})
        self.waiting = sorted((p for p in self.entries.values()
                               if p.table_id is None and not p.paused and p.waiting_since),
                              key=lambda p: (p.waiting_since, p.id))
        self.rendered: dict[str, str] = {}  # its shared fragment, by language
        self.rendered_mine: dict[tuple, str] = {}  # viewers' own parts (mine_fragment)

    def context(self) -> dict:
        rows, arena = self.rows, self.arena
        return {"arena": arena, "phase": self.phase, "rows": rows[:STANDINGS_SHOWN],
                "more": max(0, len(rows) - STANDINGS_SHOWN), "tables": self.tables,
                "waiting": len(self.waiting), "joined": len(rows),
                "podium": rows[:3] if self.phase == "over" else [],
                "starts_ms": int(arena.starts_at.timestamp() * 1000),
                "ends_ms": int(arena.ends_at.timestamp() * 1000)}

    def shared_fragment(self, language: str) -> str:
        """The part every page shows alike, rendered once per language."""
        if language not in self.rendered:
            self.rendered[language] = render_to_string("games/arena/_live_shared.html",
                                                       self.context())
        return self.rendered[language]


def mine_context(snapshot: Snapshot, user) -> dict:
    """The viewer's own part of the page: their place, table, pause or wait (no query:
    a process renders it for each of its pages at every change)."""
    arena, now = snapshot.arena, timezone.now()
    me = None
    mine = snapshot.entries.get(user.pk) if user.is_authenticated else None
    if mine is not None:
        waiting = snapshot.waiting
        me = {"paused": mine.paused, "table": mine.table_id,
              "waiting": mine.table_id is None and not mine.paused,
              "next": any(p.pk == mine.pk for p in waiting[:arena.table_size])
              and len(waiting) >= arena.table_size,
              "rank": next((r["rank"] for r in snapshot.rows if r["user"] == user.pk), None)}
        if me["table"]:
            mine_table = next((t for t in snapshot.tables if t["number"] == me["table"]), None)
            me["commitment"] = mine_table["commitment"] if mine_table else ""
            me["playing"] = mine_table is None or mine_table["playing"]
            me["unrated"] = limits.unrated_message() \
                if mine_table and mine_table["unrated_again"] else ""
            # A game that has just started takes its player's page there, from any view
            # of it: the notice of the start may have been lost (a reconnecting socket).
            me["go"] = mine_table is not None and mine_table["playing"] \
                and mine_table["started_at"] >= now - JUST_STARTED
    return {"arena": arena, "user": user, "phase": snapshot.phase, "me": me,
            "waiting": len(snapshot.waiting)}


def mine_fragment(snapshot: Snapshot, user, language: str) -> str:
    """The viewer's own part, rendered once per snapshot for all who see it alike (every
    watching page that has not joined, for one)."""
    context = mine_context(snapshot, user)
    key = (language, user.is_authenticated, repr(sorted((context["me"] or {}).items())))
    if key not in snapshot.rendered_mine:
        snapshot.rendered_mine[key] = render_to_string("games/arena/_live_mine.html", context)
    return snapshot.rendered_mine[key]


def clock_now() -> str:
    """The server's clock, from which a page counts down to the start or the end."""
    return (f'<div id="arena-now" hx-swap-oob="true" data-now="{now_ms()}" '
            f'hidden></div>')


def live_context(arena: Arena, user) -> dict:
    """The whole live part's context, for the page's first load."""
    snapshot = Snapshot(arena)
    return {**snapshot.context(), **mine_context(snapshot, user),
            "now_ms": now_ms()}


def listing(now=None) -> dict:
    """The arenas' list: about to start, running (with how many play), finished."""
    now = now or timezone.now()
    public = Arena.objects.filter(private=False, cancelled_at=None) \
        .annotate(people=Count("players", distinct=True),
                  playing=Count("players", filter=Q(players__table__isnull=False),
                                distinct=True))
    return {
        "upcoming": list(public.filter(over_at=None, starts_at__gt=now).order_by("starts_at")[:20]),
        "running": list(public.filter(over_at=None, starts_at__lte=now).order_by("ends_at")[:50]),
        "finished": list(public.filter(over_at__isnull=False).order_by("-over_at")[:20]),
    }


def podiums_of(user) -> list[dict]:
    """The podiums ``user`` reached (for their player page): arena, place."""
    found = []
    for entry in (ArenaPlayer.objects.filter(user=user, arena__over_at__isnull=False, arena__private=False,
                                             arena__cancelled_at=None)
                  .select_related("arena").order_by("-arena__over_at")[:50]):
        ranked = arena_standings(entry.arena)
        place = next((s.rank for s in ranked[:3] if s.player == user.pk), None)
        if place is not None:
            found.append({"arena": entry.arena, "place": place})
    return found
