"""What an arena's page shows, in the active language: the live part its socket pushes
(standings, tables, the viewer's own state, the podium) and the list of arenas."""

from __future__ import annotations

import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone

from games.arena import limits
from games.arena.results import arena_standings
from games.models import RUNNING, Arena, ArenaGame, ArenaPlayer, MatchStatus

STANDINGS_SHOWN = 100
JUST_STARTED = timedelta(seconds=6)


def live_context(arena: Arena, user) -> dict:
    now = timezone.now()
    ranked = arena_standings(arena)
    names = dict(get_user_model().objects.filter(pk__in=[s.player for s in ranked])
                 .values_list("pk", "username"))
    entries = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=arena)}
    rows = [{"rank": s.rank, "name": names.get(s.player, "?"), "points": s.points,
             "fire": s.on_fire, "games": s.games, "best": s.best, "user": s.player,
             "sheet": s.sheet[-12:], "paused": entries[s.player].paused
             if s.player in entries else False} for s in ranked]
    tables = []
    for game in (ArenaGame.objects.filter(arena=arena, ended=False,
                                          match__status__in=RUNNING)
                 .select_related("match").prefetch_related("match__seats__user")
                 .order_by("seated_at")):
        match = game.match
        tables.append({"number": match.pk, "playing": match.status == MatchStatus.PLAYING,
                       "started_at": match.started_at,
                       "commitment": match.commitment,
                       "users": [s.user_id for s in match.seats.all()],
                       "names": [s.name for s in sorted(match.seats.all(),
                                                        key=lambda s: s.number)]})
    waiting = sorted((p for p in entries.values()
                      if p.table_id is None and not p.paused and p.waiting_since),
                     key=lambda p: (p.waiting_since, p.id))
    me = None
    mine = entries.get(user.pk) if user.is_authenticated else None
    if mine is not None:
        me = {"paused": mine.paused, "table": mine.table_id,
              "waiting": mine.table_id is None and not mine.paused,
              "next": any(p.pk == mine.pk for p in waiting[:arena.table_size])
              and len(waiting) >= arena.table_size,
              "rank": next((r["rank"] for r in rows if r["user"] == user.pk), None)}
        if me["table"]:
            mine_table = next((t for t in tables if t["number"] == me["table"]), None)
            me["commitment"] = mine_table["commitment"] if mine_table else ""
            me["playing"] = mine_table is None or mine_table["playing"]
            me["unrated"] = "" if me["playing"] else \
                limits.unrated_again(arena, mine_table["users"])
            # A game that has just started takes its player's page there, from any view
            # of it: the notice of the start may have been lost (a reconnecting socket).
            me["go"] = mine_table is not None and mine_table["playing"] \
                and mine_table["started_at"] >= now - JUST_STARTED
    phase = arena.phase(now)
    return {"arena": arena, "user": user, "phase": phase, "rows": rows[:STANDINGS_SHOWN],
            "more": max(0, len(rows) - STANDINGS_SHOWN), "tables": tables,
            "waiting": len(waiting), "me": me, "joined": len(rows),
            "podium": rows[:3] if phase == "over" else [],
            "now_ms": int(time.time() * 1000),
            "starts_ms": int(arena.starts_at.timestamp() * 1000),
            "ends_ms": int(arena.ends_at.timestamp() * 1000)}


def live_fragment(arena: Arena, user) -> str:
    return render_to_string("games/arena/_live.html", live_context(arena, user))


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
