"""The baseline of bench/render.py and tests/games/test_room_templates.py: the game room's
frames as games/room/html.py built them with f-strings and ``escape()`` before they came
from templates (templates/games/room/), kept unchanged to measure and compare against.

The module's text as it was:

The game room's HTML (``<div id="room">``), built in Python from ``room_context``.

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

from functools import lru_cache
from html import escape

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.templatetags.dominoes import _tile, fish_icon, tile_back


def tile(a: int, b: int, vertical: bool = False) -> str:
    return _tile(a, b, vertical, "")


def room(context: dict, events=(), shared: dict | None = None, language: str | None = None) -> str:
    """The room frame: an htmx out-of-band swap of ``#room`` for ``context``'s seat.

    ``events`` are the announcement lines of what just happened.  ``shared`` keeps the
    parts that are the same for every seat (the chain, the round summary) for the next
    seat rendered from the same version in the same language.  Smaller parts that recur
    from version to version (the players' lines, a waiting hand, the bar's words, the
    turn line) are kept across versions by everything they show (``lru_cache``).
    ``language`` is the active one (given when known: asking costs a context lookup).
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
    language = language or get_language()
    parts += [_bar(c, language), _players(c, language), chain, _turn_line(c, language)]
    if not c["spectator"]:
        parts.append(_hand(c, language))
    if "summary" not in shared:
        shared["summary"] = _summary(c)
    parts += [shared["summary"], _game_end(c)]
    parts.append("</div>")
    return "\n".join(p for p in parts if p)


def _bar(c: dict, language: str) -> str:
    clock = ""
    if c["status"] == "playing" and c.get("turn_bot"):
        clock = (f'<span class="clock thinking" data-bot-thinking'
                 f' title="{escape(_("A bot is thinking"))}">{_("thinking…")}</span>')
    elif c["status"] == "playing" and c["deadline_ms"]:
        words = _clock_words(language, c.get("phase") == "deal")
        clock = (f'<span class="clock{" mine" if c["turn_mine"] else ""}"'
                 f' data-deadline="{c["deadline_ms"]}" data-now="{c["now_ms"]}"{words}</span>')
    return (_bar_start(language, c.get("round"), c.get("fish")) + clock
            + _bar_end(language, c.get("bank"), c.get("bazaar") or 0))


# The bar's words change far less often than its clock: they are kept across versions and
# matches, by what they show and the language, as the players' lines below are.
@lru_cache(maxsize=256)
def _bar_start(language: str, round_number: int | None, fish: str | None) -> str:
    round_text = _("Round %(round)s") % {"round": round_number} if round_number else ""
    variant = _("fish for one") if fish == "one" else _("fish for all")
    return (f'<div class="room-bar"><span class="round">{round_text}</span>'
            f'<span class="variant">{variant}</span>')


@lru_cache(maxsize=8)
def _clock_words(language: str, dealing: bool) -> str:
    title = _("Next round in") if dealing else _("Time left for this turn")
    return f' title="{escape(title)}">{_("next round") if dealing else ""} <b class="seconds"></b>'


@lru_cache(maxsize=1024)
def _bar_end(language: str, bank: int | None, bazaar: int) -> str:
    out = ""
    if bank:
        out += (f'<span class="bank" title="{escape(_("The fish bank"))}">'
                f'{fish_icon(_("fish bank"))} +{bank}</span>')
    return out + (f'<span class="bazaar" title="{escape(_("Tiles in the bazaar"))}">'
                  f'{_("bazaar")}: {bazaar}</span></div>')


def _players(c: dict, language: str) -> str:
    to_move_shown = c["status"] == "playing" and c.get("phase") == "play"
    return ('<ol class="players">' + "".join(
        _player_line(language, to_move_shown, p["number"], p["name"], p["bot"], p["tiles"],
                     p["score"], p["remembered"], p["opened"], p["turn"], p["goat"],
                     p["rating_points"], p["me"]) for p in c["players"]) + "</ol>")


# A move changes one or two players' lines (the mover's count, whose turn it is): the
# others are the lines of the version before, so lines are kept across versions and
# matches, by everything they show and the language.
# Bounded: a few thousand lines cover every table of a busy process for seconds (250
# tables show 2,000 lines at a time), and all the kept parts together take about 9 MB
# at the most.  ``language`` is a part of the key only: gettext reads the active
# language, which it is.
@lru_cache(maxsize=4096)
def _player_line(language: str, to_move_shown: bool, number: int, name: str, bot: bool,
                 tiles: int, score: int, remembered: int, opened: bool, turn: bool, goat: bool,
                 rating_points: int | None, me: bool) -> str:
    """One player's line: the same for every seat but the one it is about ("me")."""
    classes = "player"
    if turn and to_move_shown:
        classes += " to-move"
    if me:
        classes += " me"
    if goat:
        classes += " goat"
    name = escape(name)
    if bot:
        name += f' <small class="bot">{_("bot")}</small>'
    if goat:
        name += f' <b class="goat-badge">{_("goat")}</b>'
    scores = ""
    if opened or score:
        scores += f'<b class="score" title="{escape(_("Open score"))}">{score}</b>'
    if remembered:
        scores += f'<b class="remembered" title="{escape(_("Remembered points"))}">+{remembered}</b>'
    if not scores:
        scores = '<span class="zero">0</span>'
    rating = ""
    if rating_points is not None:
        rating = (f'<span class="rating-points">'
                  f'{_("rating +%(points)s") % {"points": rating_points}}</span>')
    return (
        f'<li class="{classes}" data-seat="{number}"><span class="name">{name}</span>'
        f'<span class="count" title="{escape(_("Tiles in hand"))}">'
        f'{"" if me else tile_back()}× {tiles}</span>'
        f'<span class="scores">{scores}</span>{rating}</li>')


def _chain(c: dict) -> str:
    tiles = [_chain_tile(*t["halves"], t["name"]) for t in c["chain"]]
    if not tiles and c["status"] == "playing" and c.get("phase") == "play":
        hint = _("Your lead.") if c["turn_mine"] else _("%(name)s leads.") % {"name": c["turn_name"]}
        tiles.append(f'<p class="hint">{escape(hint)}</p>')
    return f'<div class="chain" aria-label="{escape(_("The table"))}">{"".join(tiles)}</div>'


@lru_cache(maxsize=64)
def _chain_tile(a: int, b: int, name: str) -> str:
    double = a == b
    return (f'<span class="chain-tile{" double" if double else ""}" data-tile="{name}">'
            f'{tile(a, b, double)}</span>')


def _turn_line(c: dict, language: str) -> str:
    if not (c["status"] == "playing" and c.get("phase") == "play"):
        return ""
    # (one's own turn does not name the player: one line for everybody's)
    return _turn_words(language, c["turn_mine"], c["spectator"], c.get("can_draw", False),
                       "" if c["turn_mine"] else c["turn_name"])


@lru_cache(maxsize=2048)
def _turn_words(language: str, turn_mine: bool, spectator: bool, can_draw: bool,
                turn_name: str) -> str:
    if turn_mine:
        line = f'<b>{_("Your turn.")}</b>'
        if can_draw:
            line += " " + _("Nothing fits: draw from the bazaar.")
    elif spectator:
        line = escape(_("%(name)s to move.") % {"name": turn_name})
    else:
        line = escape(_("Waiting for %(name)s.") % {"name": turn_name})
    return f'<p class="turn-line">{line}</p>'


def _hand(c: dict, language: str) -> str:
    if not c["turn_mine"]:
        return _hand_box(language, _waiting_tiles(tuple((t["name"], *t["halves"])
                                                         for t in c["hand"])))
    version = c["version"]
    buttons = []
    for t in c["hand"]:
        name, (a, b) = t["name"], t["halves"]
        drawing = tile(a, b, True)
        if not t["playable"]:
            buttons.append(_unplayable(name, a, b))
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
    out = _hand_box(language, "".join(buttons))
    if c["can_draw"]:
        out += ('<div class="controls"><button type="button" class="button" data-action="draw"'
                f""" ws-send hx-vals='{{"draw": true, "version": {version}}}'>"""
                f'{_("Draw from the bazaar")}</button></div>')
    return out


# A hand waiting for its turn changes only when its player plays or draws: its tiles
# are kept across versions (bounded like the players' lines: a thousand players wait
# with at most 750 hands at once; and words apart, so that they are kept as ASCII).
@lru_cache(maxsize=1024)
def _waiting_tiles(tiles: tuple) -> str:
    return "".join(_unplayable(name, a, b) for name, a, b in tiles)


def _unplayable(name: str, a: int, b: int) -> str:
    return (f'<button type="button" class="hand-tile" data-tile="{name}" disabled>'
            f'{tile(a, b, True)}</button>')


def _hand_box(language: str, buttons: str) -> str:
    return f'<div class="hand" data-hand aria-label="{_hand_label(language)}">{buttons}</div>'


@lru_cache(maxsize=8)
def _hand_label(language: str) -> str:
    return escape(_("Your tiles"))


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
            '<div id="rematch" class="rematch" aria-live="polite"></div>'
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


def forget_kept_parts() -> None:
    """Empty the parts kept across versions (for tests and bench/render.py's baseline)."""
    for part in (_player_line, _waiting_tiles, _hand_label, _bar_start, _clock_words, _bar_end,
                 _turn_words, _chain_tile):
        part.cache_clear()
