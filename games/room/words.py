"""What the game room says in words, in the active language: the round told move by move
(the round's log), and why a round's summary credited what it did.

Nothing here decides anything: the moves are the rules' (``view["moves"]``), and which rule
credited what is ``rules.explain_round``'s answer.  Russian never guesses a player's
gender: a name stands before a colon, or after one as in a heading.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

LOG_SHOWN = 8  # the round's latest moves the table tells (a seat's draws in a row: one)


def round_log(moves: list[dict], names: dict, shown: int = LOG_SHOWN,
              hundred: int | None = None, chain=()) -> list[dict]:
    """The round's latest moves (record moves, oldest first) as lines: ``kind`` (play,
    draw or knock), ``seat`` and ``text``; a seat's draws in a row are one line with
    their count.  Two doubles at once (sea goat) are one line; ``hundred``, the seat that
    leads this round for a hundred (RULES.md 13), has its lead said so.  ``chain``: the
    view's chain (pairs of halves, left to right), which tells the ends' values.

    A play names the end it went on by the value that end showed (``value``), never by
    "left" or "right": the chain is drawn as a snake whose rows turn, so its right end may
    lie on the left of the screen; the open ends are marked with their values on the
    board (templates/games/room/table.html)."""
    lines: list[dict] = []
    for move, value in zip(moves, placed_on(moves, chain)):
        seat = move["seat"]
        if "draw" in move and lines and lines[-1]["kind"] == "draw" \
                and lines[-1]["seat"] == seat:
            lines[-1]["count"] += 1
            continue
        kind = "play" if "play" in move else "draw" if "draw" in move else "knock"
        tile, end = move.get("play"), move.get("end")
        if isinstance(tile, list):
            tile, end = " ".join(tile), "both"
        elif kind == "play" and end is None and seat == hundred:
            end = "hundred"
        lines.append({"kind": kind, "seat": seat, "tile": tile, "end": end, "count": 1,
                      "value": value})
    lines = lines[-shown:]
    language = get_language()
    for line in lines:
        line["text"] = _log_text(language, line["kind"], names.get(line["seat"], "?"),
                                 line["tile"], line["end"], line["count"], line["value"])
    return lines


def placed_on(moves: list[dict], chain) -> list[int | None]:
    """For each of a round's moves (record moves, oldest first), the value of the open end
    a tile was played on; None for the lead, two doubles at once, a draw or a knock.
    Read from the public chain (its tiles' halves as they lie left to right, RECORD.md),
    from its ends inwards: the round's last play on the left lies first, the one before
    it second, and so on (two doubles at once took one place at each end)."""
    said: list[int | None] = [None] * len(moves)
    left, right = 0, len(chain) - 1
    for index in range(len(moves) - 1, -1, -1):
        move = moves[index]
        tile, end = move.get("play"), move.get("end")
        if isinstance(tile, list):
            left, right = left + 1, right - 1
        elif tile is not None and end == "left" and left <= right:
            said[index] = chain[left][1]  # its inner half: the end it went on showed it
            left += 1
        elif tile is not None and end == "right" and left <= right:
            said[index] = chain[right][0]
            right -= 1
    return said


# A line is told again with every move that follows it: worded once, and kept.
@lru_cache(maxsize=8192)
def _log_text(language: str, kind: str, name: str, tile: str | None, end: str | None,
              count: int, value: int | None = None) -> str:
    if kind == "play" and end == "both":
        first, second = tile.split()
        return _("%(name)s: %(first)s and %(second)s at once") % {
            "name": name, "first": first, "second": second}
    if kind == "play" and end == "hundred":
        return _("%(name)s: leads with %(tile)s — for a hundred!") % {"name": name, "tile": tile}
    if kind == "play" and value is not None:
        # The end named by the value it showed, as the board marks its open ends.
        return _("%(name)s: %(tile)s on the %(value)s") % {
            "name": name, "tile": tile, "value": value}
    if kind == "play":
        return _("%(name)s: leads with %(tile)s") % {"name": name, "tile": tile}
    if kind == "draw":
        if count > 1:
            return _("%(name)s: draws from the bazaar ×%(count)s") % {"name": name, "count": count}
        return _("%(name)s: draws from the bazaar") % {"name": name}
    return _("%(name)s: knocks") % {"name": name}


def explanations(summary: dict, names: dict) -> dict | None:
    """Why the round credited what it did, for each scoring unit (``units``: a player, or
    a pair), and what became of the fish bank (``bank``, or None); None for a round ended
    before the rules kept what it began with."""
    why = summary["why"]
    if why is None:
        return None
    pairs = any(unit["shared"] for unit in summary["units"])
    unit_names = [unit["names"] for unit in summary["units"]]
    taker = next((unit_names[u] for u, w in enumerate(why["why"]) if w["rule"] == "total"), "")
    fish = summary["result"] == "fish"
    out_name = summary["seat_name"] or "?"
    units = [_unit_text(w, fish, why["total"], taker, out_name if pairs else None)
             for w in why["why"]]
    bank = None
    if why["bank_rule"] in ("grew", "kept"):
        bank = (_("The fish bank +%(bank)s carries on to the next round.")
                if why["bank_rule"] == "grew" else
                _("The fish bank +%(bank)s carries on: the most points are shared.")) % {
            "bank": why["bank"]}
    elif why["bank_rule"] == "won":
        won = next(u for u, w in enumerate(why["why"]) if w["bank"])
        bank = _("The fish bank +%(bank)s goes to: %(name)s.") % {
            "bank": why["why"][won]["bank"], "name": unit_names[won]}
    return {"units": units, "bank": bank}


def _unit_text(w: dict, fish: bool, total: int, taker: str, pair_out: str | None) -> str:
    """One player's (or pair's) line: what the rule credited, then what the credit did."""
    own = w["credited"] - w["bank"]
    rule = w["rule"]
    if rule == "out":
        head = (_("0: %(name)s has no tiles left — nothing credited") % {"name": pair_out}
                if pair_out else _("0: no tiles left — nothing credited"))
    elif rule == "own" and pair_out is not None:  # a pair: its two hands
        head = (_("+%(points)s: fish for all — the points left in the pair's hands") if fish
                else _("+%(points)s: the points left in the pair's hands")) % {"points": own}
    elif rule == "own":
        head = (_("+%(points)s: fish for all — the points left in hand") if fish
                else _("+%(points)s: the points left in hand")) % {"points": own}
    elif rule == "total":
        head = _("+%(points)s: fish for one — the sum of everyone's points") % {"points": own}
    elif rule == "other":
        head = _("0: fish for one — everything goes to: %(name)s") % {"name": taker}
    else:
        head = _("0: fish for one, a draw — the points (%(total)s) go to the fish bank") % {
            "total": total}
    parts = [head]
    if w["bank"]:
        parts.append(_("and the fish bank +%(bank)s") % {"bank": w["bank"]})
    if w["tally"] == "opened":
        parts.append(_("score opened with the remembered +%(points)s") % {"points": w["added"]}
                     if w["added"] else _("score opened"))
    elif w["tally"] == "remembered":
        parts.append(_("kept as remembered points: 12 or less does not open the score"))
    if w["lost"]:
        parts.append(_("remembered points lost (+%(points)s)") % {"points": w["lost"]})
    return "; ".join(parts)


def writing_note(summary: dict) -> list[str]:
    """What a round of sea goat did to the scores (RULES.md 13), in order: a lead for a
    hundred that failed (its score written off first), the round's winner and W, then what
    was written -- a score grew, writing started, everyone written off, or nothing.  (A
    failed hundred is the round's only write-off: nobody is writing after it.)"""
    said = []
    winner, won, writer = summary["winner"], summary["won"], summary["writer_before"]
    hundred_lost = summary["hundred"] is not None and summary["written_off"]
    if hundred_lost:
        said.append(_("The lead for a hundred failed: the score of %(name)s is written off.")
                    % {"name": writer})
    if winner is None:
        said.append(_("Nobody wins the round: the fewest points are shared. Nothing is written."))
        return said
    said.append(_("The round is won by: %(name)s. The others hold %(won)s.")
                % {"name": winner, "won": won})
    if summary["winner_writes"] and writer == winner and not hundred_lost:
        said.append(_("+%(won)s written: %(score)s.") % {"won": won,
                                                         "score": summary["writing"]["score"]})
    elif summary["winner_writes"]:
        said.append(_("%(name)s starts writing with %(won)s.") % {"name": winner, "won": won})
    elif summary["written_off"] and not hundred_lost:
        said.append(_("%(won)s is 25 or more: the score of %(name)s is written off.")
                    % {"won": won, "name": writer})
    else:
        said.append(_("Less than 25: nothing is written."))
    return said
