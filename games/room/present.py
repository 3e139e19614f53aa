"""What the game room shows: a view of the rules service made ready for the templates --
the table every viewer sees alike (``table_context``), and each seat's own part
(``seat_context``: its hand and what it may do).

Everything here comes from ``rules.view_for`` (the only data that may leave the server),
the seats' names, the round score rows and the match's public fields.
"""

from __future__ import annotations

from collections import namedtuple

from django.utils.translation import gettext as _

from games import rules
from games.live.now import now_ms
from games.models import BOT_LEVEL_WORDS, Match, MatchStatus, RoundScore
from games.play import seeds
from games.rules.scoring import round_units, unit_round_points


_HALVES = {t.name: (t.low, t.high) for t in rules.TILES}


def tile_halves(name: str) -> tuple[int, int]:
    """A tile's two values from its name: "2-5" -> (2, 5) (rooms ask for every tile shown,
    so it is looked up rather than parsed)."""
    return _HALVES[name]


def seat_names(seats) -> dict[int, str]:
    """Seat number -> the login sitting there, or the bot's name (its level is said
    beside it, ``bot_levels``)."""
    return {s.number: s.plain_name for s in seats}


def table_context(match: Match, state: rules.GameState | None, seats: list,
                  ratings: dict | None = None) -> dict:
    """What every viewer of this version sees alike -- the table (games/room/html.py
    ``table``): from the spectator's view, never a seat's own.  Rendered once per version
    and language for all the match's sockets in a process (games/room/cache.py).
    ``ratings``: seat number -> the rating its player brought (ratings.beside; None or
    missing: a bot, whose box shows none)."""
    ratings = ratings or {}
    names = seat_names(seats)
    variant = state.variant if state is not None else match.variant
    context = {
        "match": match, "version": match.version, "status": match.status, "names": names,
        "seats_count": match.seats_count, "now_ms": now_ms(),
        "deadline_ms": int(match.deadline.timestamp() * 1000) if match.deadline else None,
        "result": match.result, "state": state, "view": None, "players": [],
        "variant": variant, "arena_url": getattr(match, "arena_url", ""),
        # Once the game is over: its revealed seeds, to check every deal in the page.
        "fair": seeds.revealed(match, [s.client_seed for s in sorted(seats, key=lambda s: s.number)])
        if match.is_over else None,
    }
    if state is None:
        return context
    view = rules.spectator_view(state)
    bots = {s.number for s in seats if not s.user_id}
    # A bot's level, in words the table translates as it renders (empty: a bot seated
    # before levels).
    levels = {s.number: BOT_LEVEL_WORDS.get(s.bot_level, "") for s in seats if not s.user_id}
    turn = view["turn"]
    playing = match.status == MatchStatus.PLAYING and view["phase"] == rules.PLAYING
    moves = view["moves"]
    chain = [{"a": a, "b": b, "name": f"{min(a, b)}-{max(a, b)}", "double": a == b}
             for a, b in view["chain"]]
    last = moves[-1] if moves else None
    played = next((m for m in reversed(moves) if "play" in m), None)
    if chain and played is not None:
        # The last tile played is at the end it went to (the lead is the only tile); two
        # doubles at once went one to each end.
        if isinstance(played["play"], list):
            chain[0]["last"] = chain[-1]["last"] = True
        else:
            chain[0 if played.get("end") == rules.LEFT else -1]["last"] = True
    writing = view.get("writing")
    hundred = view.get("hundred")
    context.update(
        view=view, phase=view["phase"], round=view["round"], fish=view["fish"],
        bank=view["bank"], bazaar=view["bazaar"], turn=turn if playing else None,
        turn_name=names.get(turn) if turn is not None else None,
        # A bot moves in its own short pause: its countdown would say nothing true.
        turn_bot=turn in bots and playing,
        players=[{
            "number": n, "name": names.get(n, "?"), "bot": n in bots,
            "rating": None if n in bots else ratings.get(n),
            "level": levels.get(n, ""),
            "tiles": view["hand_counts"][n], "score": view["scores"][n],
            "remembered": view["remembered"][n], "opened": view["opened"][n],
            "turn": playing and n == turn, "goat": n in view["goats"],
            "rating_points": match.result["rating_points"][n]
            if match.result and match.rated and match.result.get("rating_points") else None,
            # A player who scores with another (a pair, RULES.md 11) is marked with their
            # unit's number, and the unit's score is shown once, in ``shared_units``, not
            # on both partners' boxes.
            "unit": shared_number(variant, n),
            # Sea goat (RULES.md 13): the one player (pair) writing, and the winners.
            "writing": writing is not None and variant.unit_of(n) == writing,
            "winner": n in view.get("winners", ()),
        } for n in range(view["seats"])],
        shared_units=[unit for unit in units(variant, view, names) if unit["shared"]],
        chain=chain, ends=view["ends"] if playing else None,
        # Where the round's first tile lies in the chain: every tile played on the left
        # end went before it (the page lays the chain out from it, both ways).
        lead_index=sum(1 for m in moves if left_of_lead(m)),
        moves=moves, last=last,
        summary=((writing_summary if variant.has_writing else _summary)(variant, view, names)
                 if view["last_round"] else None),
        writing=writing_of(variant, view, names),
        # Announced to the table while the round is played (RULES.md 13).
        hundred_name=names.get(hundred) if hundred is not None and playing else None,
        winners=unit_names(names, view.get("winners", ())) if view.get("winners") else None,
        how=view.get("how"),
    )
    return context


def left_of_lead(move: dict) -> bool:
    """Whether a move put a tile on the left of the round's first tile: a play on the left
    end, or two doubles at once (one of them on each end)."""
    return move.get("end") == rules.LEFT or isinstance(move.get("play"), list)


def writing_of(variant: rules.Variant, view: dict, names: dict) -> dict | None:
    """Who is writing and their score, in a game of writing (sea goat); None if nobody
    is, or the game has no writing."""
    unit = view.get("writing")
    if unit is None:
        return None
    seats = variant.seats_of(unit)
    return {"names": unit_names(names, seats), "score": view["scores"][seats[0]],
            "seats": seats}


def seat_context(table: dict, seat: int | None) -> dict:
    """What only ``seat`` sees (games/room/html.py ``seat``): its hand, which of its tiles
    it may play and on which ends (the server's legal actions: the page never works that
    out), whether it may draw, and the version its buttons send.  None: a spectator."""
    match = table["match"]
    context = {"version": table["version"], "status": table["status"], "seat": seat,
               "spectator": seat is None, "hand": (), "turn_mine": False, "can_draw": False,
               "doubles": (), "open_ends": ()}
    state = table["state"]
    if seat is None or state is None:
        return context
    own = rules.seat_view(state, seat)
    plays: dict[str, list[str | None]] = {}
    doubles = ()  # two doubles at once (sea goat), if the rules offer it: at most one pair
    for action in own["legal"]:
        if isinstance(action.get("play"), list):
            doubles = tuple(action["play"])
        elif "play" in action:
            plays.setdefault(action["play"], []).append(action.get("end"))
    context.update(
        hand=tuple((name, tuple(plays.get(name, ()))) for name in own["hand"]),
        doubles=doubles,
        can_draw=any("draw" in a for a in own["legal"]),
        turn_mine=(table["view"]["turn"] == seat and match.status == MatchStatus.PLAYING
                   and state.phase == rules.PLAYING),
        # The chain's open ends' values (left, right): a tile that fits both names the
        # end by its value, as the round's log does.
        open_ends=tuple(table["view"].get("ends") or ()),
    )
    return context


def _summary(variant: rules.Variant, view: dict, names: dict) -> dict:
    """The round just ended, with every hand shown (between rounds and at the end), what
    each scoring unit was credited (``units``: on a player's own row when they score
    alone, on the unit's when they score with a partner) and which rule credited what
    (``rules.explain_round``; words in games/room/words.py)."""
    last = view["last_round"]
    units = round_units(variant, last)
    own_credit = {unit["seats"][0]: unit["credited"] for unit in units if len(unit["seats"]) == 1}
    return {
        "result": last["result"], "seat": last["seat"], "seat_name": names.get(last["seat"]),
        "rows": [{"number": n, "name": names.get(n),
                  "hand": [tile_halves(t) + (t,) for t in last["hands"][n]],
                  "points": last["points"][n], "credited": own_credit.get(n)}
                 for n in range(view["seats"])],
        "bank": last["bank"],
        "units": [dict(unit, number=number + 1, names=unit_names(names, unit["seats"]),
                       shared=len(unit["seats"]) > 1) for number, unit in enumerate(units)],
        "why": rules.explain_round(last, view["fish"]),
    }


def writing_summary(variant: rules.Variant, view: dict, names: dict) -> dict:
    """The round just ended in a game of writing (sea goat, RULES.md 13): every hand shown
    with its round points (a special hand marked), the round's winner and W, the lead for
    a hundred, the write-off, who is writing after it; words in games/room/words.py."""
    last = view["last_round"]
    winner = last["winner"]
    before = last["before"]["writing"]
    return {
        "writing_game": True,
        "result": last["result"], "seat": last["seat"], "seat_name": names.get(last["seat"]),
        "rows": [{"number": n, "name": names.get(n),
                  "hand": [tile_halves(t) + (t,) for t in last["hands"][n]],
                  "points": last["points"][n], "special": last["special"][n],
                  "credited": None}
                 for n in range(view["seats"])],
        "units": [{"number": unit + 1, "names": unit_names(names, seats),
                   "shared": len(seats) > 1, "points": sum(last["points"][s] for s in seats),
                   "score": last["scores"][seats[0]]}
                  for unit, seats in enumerate(variant.units)],
        "winner": unit_names(names, variant.seats_of(winner)) if winner is not None else None,
        "won": last["won"],
        "hundred": names.get(last["hundred"]) if last["hundred"] is not None else None,
        "written_off": last["written_off"],
        "writer_before": (unit_names(names, variant.seats_of(before))
                          if before is not None else None),
        "writing": writing_of(variant, {"writing": last["writing"], "scores": last["scores"]},
                              names),
        "winner_writes": winner is not None and winner == last["writing"],
        "bank": 0, "why": None,
    }


def unit_names(names: dict, seats) -> str:
    """The players of a scoring unit: "Masha", or a pair's "Masha & Olya"."""
    return " & ".join(str(names.get(n, "?")) for n in seats)


def shared_number(variant: rules.Variant, seat: int) -> int | None:
    """The number (from 1) of the unit ``seat`` scores in when it shares it, else None."""
    unit = variant.unit_of(seat)
    return unit + 1 if len(variant.units[unit]) > 1 else None


def units(variant: rules.Variant, view: dict, names: dict) -> list[dict]:
    """Every scoring unit with its one score (each of its seats holds it), from a view or
    anything with its ``scores``, ``remembered``, ``opened`` and ``goats``."""
    return [{"number": unit + 1, "names": unit_names(names, seats),
             "shared": len(seats) > 1, "score": view["scores"][seats[0]],
             "remembered": view["remembered"][seats[0]], "opened": view["opened"][seats[0]],
             "goat": seats[0] in view["goats"]} for unit, seats in enumerate(variant.units)]


def round_table(match: Match, names: dict, seats: int, rows: list | None = None) -> dict:
    """The round table of RULES.md: per round and scoring unit (a player, or a pair:
    RULES.md 11), the score before, this round's points (or a fish), and the total; open
    scores red, remembered points yellow.  Every seat's row holds its unit's tally, so a
    unit's is read from its first seat's row; its round points are the rules' reading of
    the players' (``unit_round_points``)."""
    if rows is None:
        rows = round_rows(match)
    variant = match.variant
    units = variant.units
    rounds = []
    before = [{"score": 0, "remembered": 0, "opened": False} for _unit in units]
    for number in sorted({r.round_number for r in rows}):
        by_seat = {r.seat: r for r in rows if r.round_number == number}
        first = by_seat[0]
        hands = [by_seat[seat].points for seat in range(seats)]
        if variant.has_writing:  # sea goat: a pair's round points are its two hands' sum
            points = tuple(sum(hands[seat] for seat in members) for members in units)
        else:
            points = unit_round_points(variant, first.result, first.result_seat, hands)
        cells = []
        for unit, members in enumerate(units):
            row = by_seat[members[0]]
            cells.append({
                "before": before[unit], "fish": first.result == "fish",
                "out": first.result == "out" and variant.unit_of(first.result_seat) == unit,
                "points": points[unit], "credited": row.credited,
                "after": {"score": row.score_after, "remembered": row.remembered_after,
                          "opened": row.opened},
                # Sea goat: a score that was written (above 0) and is 0 after the round.
                "written_off": bool(before[unit]["score"]) and not row.score_after,
            })
            before[unit] = cells[-1]["after"]
        rounds.append({"number": number, "cells": cells, "bank": first.bank_after})
    return {"names": [unit_names(names, members) for members in units], "rounds": rounds,
            "shared": any(len(members) > 1 for members in units),
            "writing": variant.has_writing}


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
            if event.get("winners"):  # sea goat: the game has winners (RULES.md 13)
                said.append(_("Winner: %(name)s.") % {"name": unit_names(names, event["winners"])})
        elif kind == "aborted":
            said.append(_("A moderator stopped the game."))
    return said
