"""What the game room shows: a view of the rules service made ready for the templates --
the table every viewer sees alike (``table_context``), and each seat's own part
(``seat_context``: its hand and what it may do).

Everything here comes from ``rules.view_for`` (the only data that may leave the server),
the seats' names, the round score rows and the match's public fields.
"""

from __future__ import annotations

import time
from collections import namedtuple

from django.utils.translation import gettext as _

from games import rules
from games.rules.scoring import PAIRS, pair_of, pair_round_points
from games.models import Match, MatchStatus, RoundScore


_HALVES = {t.name: (t.low, t.high) for t in rules.TILES}


def tile_halves(name: str) -> tuple[int, int]:
    """A tile's two values from its name: "2-5" -> (2, 5) (rooms ask for every tile shown,
    so it is looked up rather than parsed)."""
    return _HALVES[name]


def seat_names(seats) -> dict[int, str]:
    """Seat number -> the login sitting there, or the bot's name."""
    return {s.number: s.name for s in seats}


def table_context(match: Match, state: rules.GameState | None, seats: list) -> dict:
    """What every viewer of this version sees alike -- the table (games/room/html.py
    ``table``): from the spectator's view, never a seat's own.  Rendered once per version
    and language for all the match's sockets in a process (games/room/cache.py)."""
    names = seat_names(seats)
    context = {
        "match": match, "version": match.version, "status": match.status, "names": names,
        "seats_count": match.seats_count, "now_ms": int(time.time() * 1000),
        "deadline_ms": int(match.deadline.timestamp() * 1000) if match.deadline else None,
        "result": match.result, "state": state, "view": None, "players": [],
    }
    if state is None:
        return context
    view = rules.spectator_view(state)
    bots = {s.number for s in seats if not s.user_id}
    turn = view["turn"]
    playing = match.status == MatchStatus.PLAYING and view["phase"] == rules.PLAYING
    moves = view["moves"]
    chain = [{"a": a, "b": b, "name": f"{min(a, b)}-{max(a, b)}", "double": a == b}
             for a, b in view["chain"]]
    last = moves[-1] if moves else None
    played = next((m for m in reversed(moves) if "play" in m), None)
    if chain and played is not None:
        # The last tile played is at the end it went to (the lead is the only tile).
        chain[0 if played.get("end") == rules.LEFT else -1]["last"] = True
    context.update(
        view=view, phase=view["phase"], round=view["round"], fish=view["fish"],
        bank=view["bank"], bazaar=view["bazaar"], turn=turn if playing else None,
        turn_name=names.get(turn) if turn is not None else None,
        # A bot moves in its own short pause: its countdown would say nothing true.
        turn_bot=turn in bots and playing,
        players=[{
            "number": n, "name": names.get(n, "?"), "bot": n in bots,
            "tiles": view["hand_counts"][n], "score": view["scores"][n],
            "remembered": view["remembered"][n], "opened": view["opened"][n],
            "turn": playing and n == turn, "goat": n in view["goats"],
            "rating_points": match.result["rating_points"][n]
            if match.result and match.rated and match.result.get("rating_points") else None,
            # A pair game marks each player's pair (1: seats 0 and 2, 2: seats 1 and 3)
            # and shows the pair's score once, in ``pairs``, not on both partners' boxes.
            "pair": n % 2 + 1 if view["pairs"] else None,
        } for n in range(view["seats"])],
        pairs=_pairs(view, names) if view["pairs"] else None,
        chain=chain, ends=view["ends"] if playing else None,
        # Where the round's first tile lies in the chain: every tile played on the left
        # end went before it (the page lays the chain out from it, both ways).
        lead_index=sum(1 for m in moves if m.get("end") == rules.LEFT),
        moves=moves, last=last,
        summary=_summary(view, names) if view["last_round"] else None,
    )
    return context


def seat_context(table: dict, seat: int | None) -> dict:
    """What only ``seat`` sees (games/room/html.py ``seat``): its hand, which of its tiles
    it may play and on which ends (the server's legal actions: the page never works that
    out), whether it may draw, and the version its buttons send.  None: a spectator."""
    match = table["match"]
    context = {"version": table["version"], "status": table["status"], "seat": seat,
               "spectator": seat is None, "hand": (), "turn_mine": False, "can_draw": False}
    state = table["state"]
    if seat is None or state is None:
        return context
    own = rules.seat_view(state, seat)
    plays: dict[str, list[str | None]] = {}
    for action in own["legal"]:
        if "play" in action:
            plays.setdefault(action["play"], []).append(action.get("end"))
    context.update(
        hand=tuple((name, tuple(plays.get(name, ()))) for name in own["hand"]),
        can_draw=any("draw" in a for a in own["legal"]),
        turn_mine=(table["view"]["turn"] == seat and match.status == MatchStatus.PLAYING
                   and state.phase == rules.PLAYING),
    )
    return context


def _summary(view: dict, names: dict) -> dict:
    """The round just ended, with every hand shown (between rounds and at the end), and
    which rule credited what (``rules.explain_round``; words in games/room/words.py)."""
    last = view["last_round"]
    pairs = view["pairs"] and "pair_points" in last
    return {
        "result": last["result"], "seat": last["seat"], "seat_name": names.get(last["seat"]),
        "rows": [{"number": n, "name": names.get(n),
                  "hand": [tile_halves(t) + (t,) for t in last["hands"][n]],
                  "points": last["points"][n],
                  "credited": None if pairs else last["credited"][n]}
                 for n in range(view["seats"])],
        "bank": last["bank"],
        "pairs": [{"number": p + 1, "names": pair_names(names, p),
                   "points": last["pair_points"][p], "credited": last["pair_credited"][p]}
                  for p in (0, 1)] if pairs else None,
        "why": rules.explain_round(last, view["fish"]),
    }


def pair_names(names: dict, pair: int) -> str:
    """A pair's two players, "Masha & Olya" (seats 0 and 2 are pair 0, 1 and 3 pair 1)."""
    return " & ".join(names.get(n, "?") for n in PAIRS[pair])


def _pairs(view: dict, names: dict) -> list[dict]:
    """A pair game's two pairs, each with its one score (both partners hold it)."""
    return [{"number": p + 1, "names": pair_names(names, p), "score": view["scores"][p],
             "remembered": view["remembered"][p], "opened": view["opened"][p],
             "goat": p in view["goats"]} for p in (0, 1)]


def round_table(match: Match, names: dict, seats: int, rows: list | None = None) -> dict:
    """The round table of RULES.md: per round and seat, the score before, this round's
    points (or a fish), and the total; open scores red, remembered points yellow.  A pair
    game has a column per pair instead (RULES.md 11)."""
    if rows is None:
        rows = round_rows(match)
    if match.pairs:
        return _pair_round_table(names, rows)
    rounds = []
    before = {n: {"score": 0, "remembered": 0, "opened": False} for n in range(seats)}
    for number in sorted({r.round_number for r in rows}):
        cells = []
        for r in (r for r in rows if r.round_number == number):
            cells.append({
                "before": before[r.seat], "points": r.points, "credited": r.credited,
                "fish": r.result == "fish", "out": r.result == "out" and r.result_seat == r.seat,
                "after": {"score": r.score_after, "remembered": r.remembered_after,
                          "opened": r.opened},
            })
            before[r.seat] = cells[-1]["after"]
        bank = next(r.bank_after for r in rows if r.round_number == number)
        rounds.append({"number": number, "cells": cells, "bank": bank})
    return {"names": [names.get(n) for n in range(seats)], "rounds": rounds}


def _pair_round_table(names: dict, rows: list) -> dict:
    """Per round and pair: its score before, its round points (0 for the pair that went
    out, shown "out"), and after.  Partners' rows hold the pair's tally alike, so the
    pair's is read from its first seat's row; its round points are the rules' reading
    of the four players' (RULES.md 11)."""
    rounds = []
    before = [{"score": 0, "remembered": 0, "opened": False} for _pair in (0, 1)]
    for number in sorted({r.round_number for r in rows}):
        by_seat = {r.seat: r for r in rows if r.round_number == number}
        first = by_seat[0]
        points = pair_round_points(first.result, first.result_seat,
                                   [by_seat[seat].points for seat in range(4)])
        cells = []
        for pair in (0, 1):
            row = by_seat[pair]
            out = first.result == "out" and pair_of(first.result_seat) == pair
            cells.append({
                "before": before[pair], "fish": first.result == "fish", "out": out,
                "points": points[pair],
                "credited": row.credited,
                "after": {"score": row.score_after, "remembered": row.remembered_after,
                          "opened": row.opened},
            })
            before[pair] = cells[-1]["after"]
        rounds.append({"number": number, "cells": cells, "bank": first.bank_after})
    return {"names": [pair_names(names, p) for p in (0, 1)], "rounds": rounds, "pairs": True}


ROUND_ROW_FIELDS = ("round_number", "seat", "points", "credited", "score_after",
                    "remembered_after", "opened", "result", "result_seat", "bank_after")


RoundRow = namedtuple("RoundRow", ROUND_ROW_FIELDS)


def round_rows(match: Match) -> list[tuple]:
    """The match's round score rows, in the order ``round_table`` reads them: named tuples
    of what it reads (a room snapshot keeps them for the whole game: tuples are far
    smaller than model instances)."""
    return [RoundRow(*row) for row in RoundScore.objects.filter(match=match)
            .order_by("round_number", "seat").values_list(*ROUND_ROW_FIELDS)]


def round_row(score: RoundScore) -> RoundRow:
    """The row of a RoundScore just written, as ``round_rows`` would read it back."""
    return RoundRow(*(getattr(score, name) for name in ROUND_ROW_FIELDS))


def announce(events, names) -> list[str]:
    """What the replay viewer says about what just happened: knocks, the end of a round,
an interrupt, the end of the game, a moderator's abort.  (The room tells the round in its
log instead: games/room/words.py.)"""
    said = []
    for event in events:
        kind = event["type"]
        name = names.get(event.get("seat"), "")
        if kind == "knocked":
            said.append(_("%(name)s knocks: nothing fits and the bazaar is empty.") % {"name": name}
                        if event.get("auto") else _("%(name)s knocks.") % {"name": name})
        elif kind == "round_ended":
            said.append(_("Round over: %(name)s went out.") % {"name": name}
                        if event["result"] == "out"
                        else _("Fish! %(name)s placed it.") % {"name": name})
        elif kind == "interrupted" and event.get("aborted"):
            said.append(_("Ran out of time: %(name)s. The first round did not end: the game is aborted.") % {"name": name}
                        if event["reason"] == "timeout"
                        else _("Left the game: %(name)s. The first round did not end: the game is aborted.") % {"name": name})
        elif kind == "interrupted":
            said.append(_("%(name)s ran out of time: the game is interrupted.") % {"name": name}
                        if event["reason"] == "timeout"
                        else _("%(name)s left: the game is interrupted.") % {"name": name})
        elif kind == "game_over":
            said.append(_("The game is over."))
        elif kind == "aborted":
            said.append(_("A moderator stopped the game."))
    return said
