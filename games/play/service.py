"""The one way a running game changes: a move, a timeout, a bot's move, the next deal,
leaving, a moderator's abort (DESIGN.md, a change end to end).

Each is the same three steps: check who acts, on which version; apply the action through
the rules service (which also makes the knocks of whoever can only knock); and write the
result with ``store.commit``, which succeeds only if the match is still at the version
the change was computed from.  A refusal is a PlayError and changes nothing.
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rules
from games.models import RUNNING, Match, MatchStatus, MoveKind
from games.play import bots, events, finish, store
from games.play.errors import PlayError
from games.rules import fair

# How often the clock, a leaver or a moderator decides afresh when the game moved on
# while they decided: each try reads the match anew, so one is almost always enough.
TRIES = 5


def _stale() -> tuple[str, str]:
    return _("The game has moved on: your view was out of date."), "stale"


def deal_random() -> random.Random:
    """The generator every deal is shuffled with: the system's randomness, so that no
    deal can be foreseen.  The one place deals get it from, so that the tests can deal
    from a seed they show (tests/conftest.py)."""
    return secrets.SystemRandom()


def seat_of(match: Match, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((n for n, user_id in match.seat_users.items() if user_id == user.pk), None)


def _read(match_id: int) -> tuple[Match, rules.GameState | None]:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise PlayError(_("There is no such game."), "gone")
    state = rules.GameState.from_json(match.state) if match.state is not None else None
    return match, state


# -- a player's move ----------------------------------------------------------------------

def act(match_id: int, user, message: dict, version: object,
        known: tuple[Match, rules.GameState] | None = None) -> int:
    """Apply a player's action, given as ``{"play": "1-2", "end": "left"}``,
    ``{"draw": true}`` or ``{"knock": true}``, on the version they saw; the new version.

    ``known`` is the match and its state as the player's game room last had them (its
    cache, games/room/cache.py): used when they are at that version, which saves reading
    them; the commit's compare-and-swap makes that safe (a move that finds the match
    moved on is decided again on the match as it is now, so its refusal says why).
    Raises PlayError, changing nothing, when the sender does not sit at this table, acts
    on a stale view, out of turn or against the rules.
    """
    usable = known is not None and known[0].pk == match_id and known[0].version == version
    for given in ([known] if usable else []) + [None] * TRIES:
        try:
            return _move(*(given or _read(match_id)), user, message, version)
        except store.Stale:
            continue  # the match moved on meanwhile: decided again, as it is now
    raise PlayError(*_stale())


def _move(match: Match, state, user, message, version) -> int:
    seat, action = _checked(match, state, user, message, version)
    try:
        state, events, knocks = rules.apply_turn(state, action)
    except rules.RulesError as error:
        raise PlayError(_rule_message(error), "illegal") from None
    return store.commit(_turn(match, state, events, action, knocks))


def _checked(match: Match, state, user, message, version) -> tuple[int, rules.Action]:
    """The seat and action of ``message``; PlayError if it cannot be a move here now."""
    if match.status != MatchStatus.PLAYING:
        raise PlayError(_("The game is not being played."), "not-playing")
    seat = seat_of(match, user)
    if seat is None:
        raise PlayError(_("You do not sit at this table."), "not-seated")
    if type(version) is not int or version != match.version:
        raise PlayError(*_stale())
    if not isinstance(message, dict):
        raise PlayError(_("That is not a move."), "invalid")
    # The seat is the server's to say; a message that names another one is refused.
    if "seat" in message and message["seat"] != seat:
        raise PlayError(_("You can only move for your own seat."), "not-your-seat")
    fields = {k: message[k] for k in ("play", "end", "draw", "knock") if k in message}
    try:
        action = rules.action_from_json(dict(fields, seat=seat))
    except rules.RulesError as error:
        raise PlayError(_rule_message(error), "illegal") from None
    if state.phase != rules.PLAYING or state.turn != seat:
        raise PlayError(_("It is not your turn."), "illegal")
    return seat, action


def _rule_message(error: rules.RulesError) -> str:
    """The refusal in the player's language (the rules service words it in English)."""
    if isinstance(error, rules.MalformedAction):
        return _("That is not a valid move.")
    texts = {
        "not-your-turn": _("It is not your turn."),
        "not-held": _("You do not hold %(tile)s."),
        "lead": _("The first round opens with %(tile)s: play it."),
        "fits-neither": _("%(tile)s fits neither open end."),
        "wrong-end": _("%(tile)s does not fit that end."),
        "choose-end": _("%(tile)s fits both ends: choose one."),
        "must-play": _("You hold a tile that fits: play it."),
        "must-draw": _("Nothing of yours fits: draw from the bazaar."),
        "must-knock": _("Nothing fits and the bazaar is empty: you knock."),
        "round-over": _("The round is over: the next one is being dealt."),
        # Sea goat (RULES.md 13), and two doubles at once sent to a game of one tile a turn.
        "one-tile": _("This game plays one tile at a time."),
        "hundred-not-writing": _("Only the player who is writing may lead 6-6 (for a hundred)."),
        "two-doubles-lead": _("Two doubles at once are never a round's lead."),
        "two-doubles-ends": _("Two doubles at once need ends that show two different values."),
        "two-doubles-fit": _("These two doubles do not fit the two ends: each goes on the end "
                             "of its value."),
        "game-over": _("The game is over."),
    }
    code = getattr(error, "code", "")
    if code in texts:
        return texts[code] % getattr(error, "params", {})
    return _("That move is not allowed: %(why)s") % {"why": error}


# -- what every change shares ---------------------------------------------------------------

def _turn(match: Match, state: rules.GameState, events: list[dict], action: rules.Action,
          knocks: list[rules.Action]) -> store.Change:
    """The change of a player's (or a bot's) action and the knocks made after it."""
    # Two doubles at once are one play (RULES.md 13): a play move of two tiles.
    kind = rules.PLAY if action.kind == rules.DOUBLES else action.kind
    moves = [(MoveKind(kind), action.seat, action.to_json())]
    moves += [(MoveKind.KNOCK, k.seat, dict(k.to_json(), auto=True)) for k in knocks]
    return _after(match, state, events, moves,
                  drew=action.seat if action.kind == rules.DRAW else None)


def _after(match: Match, state: rules.GameState, events: list[dict], moves: list,
           drew: int | None = None, **fields) -> store.Change:
    """The change that takes ``match`` to ``state``: the game's end if it is over, else
    the next deadline -- except after a draw, whose turn (and clock) goes on (RULES.md 5:
    the turn clock runs over the whole turn, draws included)."""
    change = store.Change(match, state, moves, events, fields)
    if state.over:
        ended, change.ending = finish.ending_of(match, state)
        change.fields.update(ended)
    elif not (drew is not None and state.phase == rules.PLAYING and state.turn == drew):
        change.fields["deadline"] = timezone.now() + _time_for(match, state)
    return change


def _time_for(match: Match, state: rules.GameState) -> timedelta:
    if state.phase == rules.DEAL:  # the pause between rounds: nobody's clock runs
        return timedelta(seconds=settings.KOZEL_ROUND_PAUSE)
    if _is_bot(match, state.turn):
        low, high = settings.KOZEL_BOT_DELAY
        return timedelta(seconds=random.uniform(low, high))
    return timedelta(seconds=match.turn_seconds)


def _is_bot(match: Match, seat: int) -> bool:
    return match.seat_users.get(seat, 0) is None


def next_deal(match: Match, state: rules.GameState) -> rules.Deal:
    """The deal of the next round: from the match's kozel-fair/1 seeds (RECORD.md), the
    redeals included; a match without a seed (made before seeds existed) deals from
    ``deal_random``.  Stored seeds give the same deal in any process, after a restart too."""
    if match.server_seed is None:
        return rules.random_deal(match.seats_count, deal_random())
    deal, _attempt = fair.fair_deal(bytes(match.server_seed), state.round + 1,
                                    match.client_seeds)
    return deal


def _deal(match: Match, state: rules.GameState, deal: rules.Deal | None = None,
          **fields) -> store.Change:
    deal = deal or next_deal(match, state)
    state, events = rules.start_round(state, deal)
    return _after(match, state, events, [(MoveKind.DEAL, None, deal.to_json())], **fields)


@transaction.atomic  # the start's subscribers lock rows (the lobby's transaction, if any)
def start(match: Match) -> int:
    """Deal the first round of a full table (inside the lobby's transaction).  The
    subscribers of the start decide first whether a rated table may count (RULES.md 10:
    the same people again); if not, it is played unrated and says why."""
    now = timezone.now()
    fields = {"status": MatchStatus.PLAYING, "started_at": now}
    if match.rated:
        why = events.game_starting(events.GameStarting(match, now))
        if why:
            fields.update(rated=False, unrated_why=why)
    state = rules.new_game(match.variant)
    return store.commit(_deal(match, state, **fields))


def deal_round(match_id: int, deal: rules.Deal) -> int:
    """Deal the next round of a running game from ``deal`` now, rather than when the clock
    ends the pause: how a game record is played through the site (tests, imports)."""
    def decide():
        match, state = _read(match_id)
        return _deal(match, state or rules.new_game(match.variant), deal)
    return _until_committed(decide)


def _interrupted(match: Match, state: rules.GameState, seat: int, reason: str) -> store.Change:
    state, events = rules.interrupt(state, seat, reason)
    kind = MoveKind.TIMEOUT if reason == rules.TIMEOUT else MoveKind.LEAVE
    return _after(match, state, events, [(kind, seat, {"seat": seat, "reason": reason})])


def _until_committed(decide) -> int | None:
    """Commit what ``decide()`` makes of the match as it is now (None: nothing to do),
    deciding afresh each time the match moved on meanwhile."""
    for _attempt in range(TRIES):
        change = decide()
        if change is None:
            return None
        try:
            return store.commit(change)
        except store.Stale:
            continue
    raise PlayError(_("The game is too busy just now: try again."), "busy")


# -- leaving, and a moderator's abort ----------------------------------------------------

def leave_game(match_id: int, user) -> int:
    """Leaving a running game counts as running out of time (RULES.md 9)."""
    def decide():
        match, state = _read(match_id)
        seat = seat_of(match, user)
        if seat is None:
            raise PlayError(_("You do not sit at this table."), "not-seated")
        if match.status != MatchStatus.PLAYING:
            raise PlayError(_("The game is not being played."), "not-playing")
        return _interrupted(match, state, seat, rules.LEFT_GAME)
    return _until_committed(decide)


def abort(match_id: int) -> int | None:
    """Stop a waiting or running game for good (a moderator's decision): no result, no
    ratings.  The log gets an "abort" move, so it still explains the match; None if the
    game is not waiting or running."""
    def decide():
        match, state = _read(match_id)
        if match.status not in RUNNING:
            return None
        return store.Change(match, state, [(MoveKind.ABORT, None, {})], [{"type": "aborted"}],
                            {"status": MatchStatus.ABORTED, "ended_at": timezone.now(),
                             "deadline": None})
    return _until_committed(decide)


# -- time: timeouts, bots and the next deal --------------------------------------------

def due_match_ids(now=None, limit: int = 200) -> list[int]:
    """Running matches whose deadline has passed (the clock's sweep)."""
    now = now or timezone.now()
    return list(Match.objects.filter(status=MatchStatus.PLAYING, deadline__lte=now)
                .order_by("deadline").values_list("pk", flat=True)[:limit])


def give_time_again(now=None) -> int:
    """After an outage of every clock (RULES.md 9, the site's own downtime): every running
    match gets its full time again, counted from ``now`` -- the player to move their
    turn time, a bot its delay, a pause its length -- whether or not it ran out: every
    turn running now was running while no clock kept time, and its player's page needs
    a moment to reconnect.  How many matches were given time."""
    now = now or timezone.now()
    given = 0
    for match in Match.objects.filter(status=MatchStatus.PLAYING, deadline__isnull=False):
        state = rules.GameState.from_json(match.state)
        given += store.move_deadline(match, now + _time_for(match, state))
    return given


def run_due(match_id: int, now=None) -> bool:
    """Do what a passed deadline calls for: the next deal after a round's pause, a bot's
    move, or a timeout; whether anything was done.  Any number of clocks may run this
    at once: one commits, the others find the deadline moved."""
    now = now or timezone.now()

    def decide():
        match = Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING,
                                     deadline__lte=now).first()
        if match is None:
            return None
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.DEAL:
            return _deal(match, state)
        if _is_bot(match, state.turn):  # bots never time out (RULES.md 9)
            action = bots.move_of(match.pk, match.version, state, state.turn,
                                  match.bot_levels.get(state.turn))
            if action is None:  # a master still thinks (games/play/thinking.py)
                return None
            state, events, knocks = rules.apply_turn(state, action)
            return _turn(match, state, events, action, knocks)
        return _interrupted(match, state, state.turn, rules.TIMEOUT)

    return _until_committed(decide) is not None
