"""The game room's HTML (``<div id="room">``), built in Python from ``room_context``.

Why not a template: the room is rendered again for every seat and spectator on every
move, so a server renders four frames per action, hundreds of actions a second under
load.  With Django's template language this was half of a server's CPU (variable
lookups, localized number formatting; docs/performance.md); the same markup built here
costs a small fraction of that.  The score table, which the game page shows too, stays a
template (``games/_round_table.html``) and is rendered once per change of the table.

The markup keeps the stable hooks the browser tests and the page's script use: the hand
``[data-hand]`` of buttons ``[data-tile="a-b"]`` with ``data-playable`` on the tiles the
seat may play now, ``[data-end="left"|"right"]``, ``[data-action="draw"]``, the seats
``[data-seat]`` and the room's ``data-status``, ``data-turn-mine`` and ``data-version``.
Every text goes through gettext (the msgids are those of ``locale/``) and every name
through ``escape``.
"""

from __future__ import annotations

from html import escape

from django.urls import reverse
from django.utils.translation import gettext as _

from games.templatetags.dominoes import _tile, fish_icon, tile_back


def tile(a: int, b: int, vertical: bool = False) -> str:
    return _tile(a, b, vertical, "")


def room(context: dict, events=(), shared: dict | None = None) -> str:
    """The room frame: an htmx out-of-band swap of ``#room`` for ``context``'s seat.

    ``events`` are the announcement lines of what just happened.  ``shared`` keeps the
    parts that are the same for every seat (the chain, each player's line, the round
    summary) for the next seat rendered from the same version in the same language.
    """
    c = context
    shared = {} if shared is None else shared
    parts = [
        f'<div id="room" class="room" hx-swap-oob="true" data-game data-status="{c["status"]}"'
        f' data-turn-mine="{"true" if c["turn_mine"] else "false"}"'
        f' data-version="{c["version"]}">',
    ]
    if events:
        parts.append('<ul class="announcements" aria-live="polite">'
                     + "".join(f"<li>{escape(line)}</li>" for line in events) + "</ul>")
    chain = shared.get("chain") if c["chain"] else None
    if chain is None:
        chain = _chain(c)
        if c["chain"]:  # an empty chain says whose lead it is: not the same for all
            shared["chain"] = chain
    parts += [_shared(shared, ("bar", c["turn_mine"]), _bar, c), _players(c, shared), chain,
              _shared(shared, ("turn", c["turn_mine"], c["spectator"], c.get("can_draw")),
                      _turn_line, c)]
    if not c["spectator"]:
        parts.append(_hand(c))
    if "summary" not in shared:
        shared["summary"] = _summary(c)
    parts += [shared["summary"], _game_end(c)]
    parts.append("</div>")
    return "\n".join(p for p in parts if p)


def _shared(shared: dict, key: tuple, part, c: dict) -> str:
    """``part(c)``, built once for all the seats whose frames differ from it only in ``key``."""
    if key not in shared:
        shared[key] = part(c)
    return shared[key]


def _bar(c: dict) -> str:
    out = ['<div class="room-bar">',
           f'<span class="round">{_("Round %(round)s") % {"round": c["round"]} if c.get("round") else ""}</span>',
           f'<span class="variant">{_("fish for one") if c.get("fish") == "one" else _("fish for all")}</span>']
    if c["status"] == "playing" and c["deadline_ms"]:
        dealing = c.get("phase") == "deal"
        title = _("Next round in") if dealing else _("Time left for this turn")
        out.append(f'<span class="clock{" mine" if c["turn_mine"] else ""}" data-deadline="{c["deadline_ms"]}"'
                   f' data-now="{c["now_ms"]}" title="{escape(title)}">'
                   f'{_("next round") if dealing else ""} <b class="seconds"></b></span>')
    if c.get("bank"):
        out.append(f'<span class="bank" title="{escape(_("The fish bank"))}">'
                   f'{fish_icon(_("fish bank"))} +{c["bank"]}</span>')
    out.append(f'<span class="bazaar" title="{escape(_("Tiles in the bazaar"))}">'
               f'{_("bazaar")}: {c.get("bazaar") or 0}</span></div>')
    return "".join(out)


def _players(c: dict, shared: dict) -> str:
    return f'<ol class="players">{"".join(_player(c, p, shared) for p in c["players"])}</ol>'


def _player(c: dict, p: dict, shared: dict) -> str:
    return _shared(shared, ("player", p["number"], p["me"]), lambda c: _player_line(c, p), c)


def _player_line(c: dict, p: dict) -> str:
    """One player's line: the same for every seat but the one it is about ("me")."""
    to_move_shown = c["status"] == "playing" and c.get("phase") == "play"
    classes = "player"
    if p["turn"] and to_move_shown:
        classes += " to-move"
    if p["me"]:
        classes += " me"
    if p["goat"]:
        classes += " goat"
    name = escape(p["name"])
    if p["bot"]:
        name += f' <small class="bot">{_("bot")}</small>'
    if p["goat"]:
        name += f' <b class="goat-badge">{_("goat")}</b>'
    scores = ""
    if p["opened"] or p["score"]:
        scores += f'<b class="score" title="{escape(_("Open score"))}">{p["score"]}</b>'
    if p["remembered"]:
        scores += f'<b class="remembered" title="{escape(_("Remembered points"))}">+{p["remembered"]}</b>'
    if not scores:
        scores = '<span class="zero">0</span>'
    rating = ""
    if p["rating_points"] is not None:
        rating = (f'<span class="rating-points">'
                  f'{_("rating +%(points)s") % {"points": p["rating_points"]}}</span>')
    return (
        f'<li class="{classes}" data-seat="{p["number"]}"><span class="name">{name}</span>'
        f'<span class="count" title="{escape(_("Tiles in hand"))}">'
        f'{"" if p["me"] else tile_back()}× {p["tiles"]}</span>'
        f'<span class="scores">{scores}</span>{rating}</li>')


def _chain(c: dict) -> str:
    tiles = []
    for t in c["chain"]:
        a, b = t["halves"]
        double = a == b
        tiles.append(f'<span class="chain-tile{" double" if double else ""}" data-tile="{t["name"]}">'
                     f'{tile(a, b, double)}</span>')
    if not tiles and c["status"] == "playing" and c.get("phase") == "play":
        hint = _("Your lead.") if c["turn_mine"] else _("%(name)s leads.") % {"name": c["turn_name"]}
        tiles.append(f'<p class="hint">{escape(hint)}</p>')
    return f'<div class="chain" aria-label="{escape(_("The table"))}">{"".join(tiles)}</div>'


def _turn_line(c: dict) -> str:
    if not (c["status"] == "playing" and c.get("phase") == "play"):
        return ""
    if c["turn_mine"]:
        line = f'<b>{_("Your turn.")}</b>'
        if c["can_draw"]:
            line += " " + _("Nothing fits: draw from the bazaar.")
    elif c["spectator"]:
        line = escape(_("%(name)s to move.") % {"name": c["turn_name"]})
    else:
        line = escape(_("Waiting for %(name)s.") % {"name": c["turn_name"]})
    return f'<p class="turn-line">{line}</p>'


def _hand(c: dict) -> str:
    version = c["version"]
    buttons = []
    for t in c["hand"]:
        name, (a, b) = t["name"], t["halves"]
        drawing = tile(a, b, True)
        if not (t["playable"] and c["turn_mine"]):
            buttons.append(f'<button type="button" class="hand-tile" data-tile="{name}" disabled>'
                           f'{drawing}</button>')
        elif t["choose_end"]:
            buttons.append(
                f'<span class="choice"><button type="button" class="hand-tile playable"'
                f' data-tile="{name}" data-playable data-choose-end aria-expanded="false"'
                f' aria-controls="ends-{name}">{drawing}</button>'
                f'<span class="end-choice" id="ends-{name}" hidden>'
                f'<button type="button" class="button small" data-end="left" ws-send'
                f""" hx-vals='{{"play": "{name}", "end": "left", "version": {version}}}'>"""
                f'{_("← left")}</button> '
                f'<button type="button" class="button small" data-end="right" ws-send'
                f""" hx-vals='{{"play": "{name}", "end": "right", "version": {version}}}'>"""
                f'{_("right →")}</button></span></span>')
        else:
            end = f'"end": "{t["end"]}", ' if t["end"] else ""
            buttons.append(
                f'<button type="button" class="hand-tile playable" data-tile="{name}" data-playable'
                f""" ws-send hx-vals='{{"play": "{name}", {end}"version": {version}}}'>"""
                f'{drawing}</button>')
    out = f'<div class="hand" data-hand aria-label="{escape(_("Your tiles"))}">{"".join(buttons)}</div>'
    if c["turn_mine"] and c["can_draw"]:
        out += ('<div class="controls"><button type="button" class="button" data-action="draw"'
                f""" ws-send hx-vals='{{"draw": true, "version": {version}}}'>"""
                f'{_("Draw from the bazaar")}</button></div>')
    return out


def _summary(c: dict) -> str:
    summary = c.get("summary")
    if not summary or c["status"] == "waiting" or c.get("phase") == "play":
        return ""
    name = summary["seat_name"]
    if summary["result"] == "out":
        title = escape(_("%(name)s went out") % {"name": name})
    else:
        title = f'{fish_icon()} {escape(_("Fish, placed by %(name)s") % {"name": name})}'
    rows = []
    for row in summary["rows"]:
        left = "".join(f'<span class="mini" data-revealed="{t}">{tile(a, b)}</span>'
                       for a, b, t in row["hand"]) or "—"
        rows.append(f'<tr><td>{escape(row["name"])}</td><td class="left-tiles">{left}</td>'
                    f'<td>{row["points"]}</td><td>{row["credited"]}</td></tr>')
    bank = ""
    if summary["bank"]:
        bank = ('<p class="bank">'
                f'{_("The fish bank carries +%(bank)s to the next round.") % {"bank": summary["bank"]}}</p>')
    return (f'<section class="summary" aria-label="{escape(_("Round summary"))}"><h2>{title}</h2>'
            f'<table class="summary-table"><thead><tr><th>{_("Player")}</th><th>{_("Tiles left")}</th>'
            f'<th>{_("Points")}</th><th>{_("Credited")}</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{bank}</section>')


def _game_end(c: dict) -> str:
    status = c["status"]
    if status not in ("aborted", "finished", "interrupted"):
        return ""
    lobby = f'<a class="button" href="{reverse("games:lobby")}">{_("Back to the lobby")}</a>'
    if status == "aborted":
        return (f'<section class="game-end"><h2>{_("A moderator stopped this game")}</h2>'
                f'<p>{_("It counts for nobody: no rating points were given.")}</p><p>{lobby}</p></section>')
    players, match, result = c["players"], c["match"], c["result"] or {}
    if status == "finished":
        goats = "".join(f'<b class="goat-badge">{escape(p["name"])}</b> ' for p in players if p["goat"])
        head = f'<h2>{_("The game is over")}</h2><p>{_("Goat")}: {goats}</p>'
    else:
        said = ""
        for p in players:
            if p["number"] == result.get("interrupted_by"):
                text = (_("%(name)s ran out of time.") if result.get("reason") == "timeout"
                        else _("%(name)s left the game.")) % {"name": p["name"]}
                said = escape(text)
        head = f'<h2>{_("The game was interrupted")}</h2><p>{said}</p>'
    ratings = "".join(
        f'<li>{escape(p["name"])}: '
        f'{"+" + str(p["rating_points"]) if match.rated else _("unrated game")}</li>'
        for p in players)
    game_page = reverse("records:game", args=[match.pk])
    return (f'<section class="game-end">{head}<ul class="rating-list">{ratings}</ul>'
            f'<p>{lobby} <a class="button" href="{game_page}">{_("Game page: record and replay")}</a>'
            f'</p></section>')


def score_table(table_html: str, open_: bool) -> str:
    """The score table beside the room (``#round-table``), an out-of-band swap of its own:
    it changes once a round, so a client gets it only when it changed, not with every
    move.  ``table_html`` is the rendered ``games/_round_table.html`` ("" before the
    first round ends); ``open_`` unfolds it (between rounds and at the end)."""
    inner = ""
    if table_html:
        inner = (f'<details class="round-table"{" open" if open_ else ""}>'
                 f'<summary>{_("Score table")}</summary>{table_html}</details>')
    return f'<div id="round-table" class="round-table-box" hx-swap-oob="true">{inner}</div>'
