"""The one way a game changes: lobby requests, moves, timeouts, bots and the next deal.

Every change runs in one transaction that locks the match row, checks who acts and on
which version, applies the action through the rules service, appends to the move log,
saves the new snapshot with its version, and only after commit tells the match's group
(DESIGN.md, a move end to end).  ``Match.version`` is the number of moves in the log,
so the snapshot is always the log replayed up to that version.

Most moves take a shorter way to the same result (``act_on_known``): checked on the
version the player's game room showed, and written in one transaction on condition that
the match row is still at that version -- the version is what the lock protects.
"""

from __future__ import annotations

import copy
import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rules
from games.play import notify, store as movesql
from games.models import (MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS, Match,
                          MatchStatus, Move, MoveKind, RoundScore, Seat)
from ratings.formulas import finished_game_points, interrupted_game_points

RUNNING = (MatchStatus.WAITING, MatchStatus.PLAYING)
BOT_NAMES = ("Бот Гоша", "Бот Петрович", "Бот Люба", "Бот Семёныч")


class PlayError(Exception):
    """A refusal, with a message for the player who caused it.  Nothing was changed."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# -- the lobby --------------------------------------------------------------------------

def current_match(user) -> Match | None:
    """The waiting or running table this person sits at, if any (one at a time)."""
    return (Match.objects.filter(seats__user=user, status__in=RUNNING)
            .order_by("-created_at").first())


def _lock_person(user) -> None:
    """Serialize one person's lobby actions, so two tabs cannot seat them twice."""
    from accounts.models import Player
    Player.objects.select_for_update().filter(user=user).first()


def _check_free(user) -> None:
    if current_match(user) is not None:
        raise PlayError(_("You already sit at a table: finish or leave it first."), "busy")


def _check_options(players, fish, turn_seconds) -> None:
    if players not in range(MIN_SEATS, MAX_SEATS + 1):
        raise PlayError(_("A table has 2, 3 or 4 players."), "invalid")
    if fish not in (rules.FISH_ALL, rules.FISH_ONE):
        raise PlayError(_("Choose fish for all or fish for one."), "invalid")
    if turn_seconds not in range(MIN_TURN_SECONDS, MAX_TURN_SECONDS + 1):
        raise PlayError(_("The turn time is 10 to 120 seconds."), "invalid")


@transaction.atomic
def create_request(user, *, players: int, fish: str = "all", turn_seconds: int = 30,
                   rated: bool = True, private: bool = False) -> Match:
    """Open a game request ("заявка") with its creator in seat 0."""
    _check_options(players, fish, turn_seconds)
    _lock_person(user)
    _check_free(user)
    match = Match.objects.create(seats_count=players, fish=fish, turn_seconds=turn_seconds,
                                 rated=rated, private=private, created_by=user)
    Seat.objects.create(match=match, number=0, user=user)
    if not private:
        notify.lobby_changed()
    return match


@transaction.atomic
def join_request(user, match_id: int, invite_token: str | None = None) -> Match:
    """Take the next free seat of a waiting request; the game starts when the table is full."""
    # The match first, then the person: the same order as a game's end (match, then its
    # players' ratings), so the two can never wait for each other.
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    _lock_person(user)
    if match is None or match.status != MatchStatus.WAITING:
        raise PlayError(_("This request is no longer open."), "gone")
    if match.private and not (invite_token and secrets.compare_digest(invite_token,
                                                                       match.invite_token)):
        raise PlayError(_("This table is private: you need its invitation link."), "private")
    _check_free(user)
    taken = set(match.seats.values_list("number", flat=True))
    number = min(set(range(match.seats_count)) - taken)
    Seat.objects.create(match=match, number=number, user=user)
    if len(taken) + 1 == match.seats_count:
        _start(match)
    if not match.private:
        notify.lobby_changed()
    return match


@transaction.atomic
def leave_request(user, match_id: int) -> None:
    """Get up from a request that has not started; an empty request disappears."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.WAITING:
        raise PlayError(_("This request is no longer open."), "gone")
    deleted, _rows = Seat.objects.filter(match=match, user=user).delete()
    if not deleted:
        raise PlayError(_("You do not sit at this table."), "not-seated")
    if not match.seats.exists():
        match.delete()
    if not match.private:
        notify.lobby_changed()


@transaction.atomic
def play_with_bots(user, players: int, fish: str = "all", turn_seconds: int = 30) -> Match:
    """A table of ``players`` seats, the person in seat 0 and bots in the rest; never rated."""
    _check_options(players, fish, turn_seconds)
    _lock_person(user)
    _check_free(user)
    # Not private: anyone may watch it (it starts at once, so it never shows as a request).
    match = Match.objects.create(seats_count=players, fish=fish, turn_seconds=turn_seconds,
                                 rated=False, private=False, created_by=user)
    Seat.objects.create(match=match, number=0, user=user)
    names = random.sample(BOT_NAMES, players - 1)
    for number, name in enumerate(names, 1):
        Seat.objects.create(match=match, number=number, bot_name=name)
    _start(match)
    return match


def _start(match: Match) -> None:
    """Deal the first round of a full table (inside the caller's transaction)."""
    state = rules.new_game(match.seats_count, match.fish)
    match.status = MatchStatus.PLAYING
    match.started_at = timezone.now()
    _deal(match, state)
    notify.go_to_match(match.seats.exclude(user=None).values_list("user_id", flat=True),
                       match.pk)


# -- the move path ----------------------------------------------------------------------

def _locked_match(match_id: int) -> Match:
    match = movesql.locked_match(match_id)
    if match is None:
        raise PlayError(_("There is no such game."), "gone")
    return match


def seat_of(match: Match, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((n for n, user_id in match.seat_users.items() if user_id == user.pk), None)


def act(match_id: int, user, message: dict, version: object, known=None) -> int:
    """Apply a player's action, given as ``{"play": "1-2", "end": "left"}``,
    ``{"draw": true}`` or ``{"knock": true}``, on the version they saw.

    Returns the new version.  Raises PlayError, changing nothing, when the sender does
    not sit at this table, acts on a stale view, out of turn or against the rules.

    ``known`` is the match and its rules state as this process last saw them (its game
    room's snapshot, games/room/cache.py): a move on that version that does not end the
    game is then written without reading the match first (``act_on_known``).
    """
    if known is not None and known.match.pk == match_id and movesql.conditional_moves():
        moved = act_on_known(known.match, known.state, user, message, version)
        if moved is not None:
            return moved
    with transaction.atomic():
        match = _locked_match(match_id)
        seat, action, state, events = _checked_move(match, None, user, message, version)
        _log(match, MoveKind(action.kind), seat, action.to_json())
        _advance(match, state, events, drew=seat if action.kind == rules.DRAW else None)
        return match.version


def _checked_move(match: Match, state: rules.GameState | None, user, message, version):
    """The seat, action, new state and events of ``message`` on ``match`` (whose rules
    state is ``state``, or is read from the match); PlayError if it is refused."""
    if match.status != MatchStatus.PLAYING:
        raise PlayError(_("The game is not being played."), "not-playing")
    seat = seat_of(match, user)
    if seat is None:
        raise PlayError(_("You do not sit at this table."), "not-seated")
    if type(version) is not int or version != match.version:
        raise PlayError(_("The game has moved on: your view was out of date."), "stale")
    if not isinstance(message, dict):
        raise PlayError(_("That is not a move."), "invalid")
    # The seat is the server's to say; a message that names another one is refused.
    if "seat" in message and message["seat"] != seat:
        raise PlayError(_("You can only move for your own seat."), "not-your-seat")
    fields = {k: message[k] for k in ("play", "end", "draw", "knock") if k in message}
    try:
        action = rules.action_from_json(dict(fields, seat=seat))
        if state is None:
            state = rules.GameState.from_json(match.state)
        if state.phase != rules.PLAYING or state.turn != seat:
            raise rules.IllegalAction("it is not your turn", "5", "not-your-turn")
        state, events = rules.apply(state, action)
    except rules.RulesError as error:
        raise PlayError(_rule_message(error), "illegal") from None
    return seat, action, state, events


def act_on_known(known: Match, known_state: rules.GameState | None, user, message, version,
                 nowait: bool = False, meanwhile=None) -> int | None:
    """The move, written on condition that the match is still at the version it was
    checked on (in one statement on PostgreSQL: ``movesql.save_moves_if_at``); None
    when it must take the locked path instead.

    A move that does not end the game -- most of them, with the knocks then made for
    the players who can only knock, and the round's scores if it ends a round -- does
    not need the match read and locked first: the version this process last saw, with
    its state, says everything the move depends on, and the writes happen only if the
    row still has that version (and is still being played) -- the clock's timeout, or
    another move, changes the version under the row's lock, so a late move and a timeout
    still cannot both win (DESIGN.md, Time).  Any other case -- an older or newer
    version, a refusal, the game's end, a row changed meanwhile -- goes the locked way,
    which decides it afresh, so a player's refusal always comes from there.  With
    ``nowait``, a row another transaction holds is not waited for: None at once.

    ``meanwhile(match, state, round_scores, events)``, if given, is called with what the
    move is about to commit while the database answers (games/play/pgmeanwhile.py): what it
    prepares from them may be shown only once this has returned the new version.
    """
    if known_state is None or known.version != version or known.status != MatchStatus.PLAYING:
        return None
    try:
        seat, action, state, events = _checked_move(known, known_state, user, message, version)
    except PlayError:
        return None
    state, knocks = _knocks_made_for_players(state, events)
    if state.over:
        return None  # the game's end (its result, the rating points) is the locked way's
    match = copy.copy(known)  # the snapshot's own match is shared by the rooms: left alone
    moves = [Move(match=match, number=version + 1, seat=seat, kind=MoveKind(action.kind),
                  payload=action.to_json())]
    moves += [Move(match=match, number=version + 2 + n, seat=knock.seat, kind=MoveKind.KNOCK,
                   payload=_made_for_player(knock)) for n, knock in enumerate(knocks)]
    match.version = version + len(moves)
    match.state = state.to_json()
    changes = ("version", "state")
    if not _turn_goes_on(state, seat if action.kind == rules.DRAW else None):
        match.deadline = timezone.now() + _time_for(match, state)
        changes += ("deadline",)
    round_scores = _round_scores(match, events)
    prepare = None if meanwhile is None else (lambda: meanwhile(match, state, round_scores,
                                                                events))
    try:
        if not movesql.save_moves_if_at(match, changes, version, moves, round_scores, nowait,
                                        prepare):
            return None
    except OperationalError as error:
        if nowait and movesql.is_lock_refused(error):
            return None
        raise
    notify.match_changed(match.pk, match.version, events,
                         committed=(match, state, round_scores))
    return match.version


def _knocks_made_for_players(state: rules.GameState, events: list[dict]
                             ) -> tuple[rules.GameState, list[rules.Action]]:
    """After an action: the knocks of whoever can only knock, made for them and announced
    to everyone (RULES.md 5, rule 3), each added to ``events``; the state after them."""
    knocks = []
    while state.phase == rules.PLAYING and (knock := _forced_knock(state)) is not None:
        state, knocked = rules.apply(state, knock)
        knocked[0]["auto"] = True
        events += knocked
        knocks.append(knock)
    return state, knocks


def _made_for_player(knock: rules.Action) -> dict:
    """A knock's entry in the log says that the server made it."""
    return dict(knock.to_json(), auto=True)


def _forced_knock(state: rules.GameState) -> rules.Action | None:
    """The knock of the seat to move when knocking is all it can do (the server then
    knocks for it); None otherwise."""
    legal = rules.legal_actions(state)
    return legal[0] if len(legal) == 1 and legal[0].kind == rules.KNOCK else None


def _turn_goes_on(state: rules.GameState, drew: int | None) -> bool:
    """After a draw by ``drew``, its turn goes on, and so does its clock (RULES.md 5: the
    turn clock runs over the whole turn, draws included)."""
    return drew is not None and state.phase == rules.PLAYING and state.turn == drew


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
        "game-over": _("The game is over."),
    }
    code = getattr(error, "code", "")
    if code in texts:
        return texts[code] % getattr(error, "params", {})
    return _("That move is not allowed: %(why)s") % {"why": error}


def leave_game(match_id: int, user) -> None:
    """Leaving a running game counts as running out of time (RULES.md 9)."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = seat_of(match, user)
        if seat is None:
            raise PlayError(_("You do not sit at this table."), "not-seated")
        if match.status != MatchStatus.PLAYING:
            raise PlayError(_("The game is not being played."), "not-playing")
        _interrupt(match, seat, rules.LEFT_GAME)


# -- time: timeouts, bots and the next deal --------------------------------------------

def due_match_ids(now=None, limit: int = 200) -> list[int]:
    """Running matches whose deadline has passed (the clock's sweep)."""
    now = now or timezone.now()
    return list(Match.objects.filter(status=MatchStatus.PLAYING, deadline__lte=now)
                .order_by("deadline").values_list("pk", flat=True)[:limit])


def run_due(match_id: int, now=None) -> bool:
    """Do what a passed deadline calls for: the next deal after a round's pause, a bot's
    move, or a timeout.  Skips a match another process holds; returns whether it acted."""
    now = now or timezone.now()
    with transaction.atomic():
        match = (Match.objects.select_for_update(skip_locked=True)
                 .filter(pk=match_id, status=MatchStatus.PLAYING, deadline__lte=now).first())
        if match is None:
            return False
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.DEAL:
            _deal(match, state)
            return True
        if match.seat_users.get(state.turn, 0) is None:  # a bot's turn
            from games.play.bots import choose
            action = choose(state, state.turn)
            state, events = rules.apply(state, action)
            _log(match, MoveKind(action.kind), action.seat, action.to_json())
            _advance(match, state, events,
                     drew=action.seat if action.kind == rules.DRAW else None)
        else:
            _interrupt(match, state.turn, rules.TIMEOUT)
        return True


# -- inside the lock ----------------------------------------------------------------------

def _log(match: Match, kind: str, seat: int | None, payload: dict) -> None:
    match.version += 1
    movesql.insert_move(Move(match=match, number=match.version, seat=seat, kind=kind,
                             payload=payload))


def deal_random() -> random.Random:
    """The generator every deal is shuffled with: the system's randomness, so that no
    deal can be foreseen.  The one place deals get it from, so that the tests can deal
    from a seed they show (tests/conftest.py)."""
    return secrets.SystemRandom()


def _deal(match: Match, state: rules.GameState) -> None:
    deal = rules.random_deal(match.seats_count, deal_random())
    state, events = rules.start_round(state, deal)
    _log(match, MoveKind.DEAL, None, deal.to_json())
    _advance(match, state, events)


# What a move, a deal, a timeout or a game's start may change in the match row.
MOVE_CHANGES = ("version", "state", "deadline", "status", "started_at", "ended_at", "result")


def _advance(match: Match, state: rules.GameState, events: list[dict],
             drew: int | None = None) -> None:
    """After an action: knock for whoever can only knock, score an ended round, end the
    game or set the next deadline; save and notify after commit.

    ``drew`` is the seat that just drew a tile (``_turn_goes_on``).
    """
    state, knocks = _knocks_made_for_players(state, events)
    for knock in knocks:
        _log(match, MoveKind.KNOCK, knock.seat, _made_for_player(knock))
    round_scores = RoundScore.objects.bulk_create(_round_scores(match, events))
    match.state = state.to_json()
    if state.over:
        _end(match, state)
    elif not _turn_goes_on(state, drew):
        match.deadline = timezone.now() + _time_for(match, state)
    movesql.save_match(match, MOVE_CHANGES)
    notify.match_changed(match.pk, match.version, events,
                         committed=(match, state, round_scores))


def _time_for(match: Match, state: rules.GameState) -> timedelta:
    if state.phase == rules.DEAL:  # the pause between rounds: nobody's clock runs
        return timedelta(seconds=settings.KOZEL_ROUND_PAUSE)
    if match.seat_users.get(state.turn, 0) is None:  # a bot's seat
        low, high = settings.KOZEL_BOT_DELAY
        return timedelta(seconds=random.uniform(low, high))
    return timedelta(seconds=match.turn_seconds)


def _round_scores(match: Match, events: list[dict]) -> list[RoundScore]:
    """The score table's rows of a round these events ended (unsaved), one per seat."""
    return [RoundScore(match=match, round_number=ended["round"], seat=seat,
                       points=ended["points"][seat], credited=ended["credited"][seat],
                       score_after=ended["scores"][seat],
                       remembered_after=ended["remembered"][seat],
                       opened=ended["opened"][seat], result=ended["result"],
                       result_seat=ended["seat"], bank_after=ended["bank"])
            for ended in events if ended["type"] == "round_ended"
            for seat in range(match.seats_count)]


def _interrupt(match: Match, seat: int, reason: str) -> None:
    state = rules.GameState.from_json(match.state)
    state, events = rules.interrupt(state, seat, reason)
    _log(match, MoveKind.TIMEOUT if reason == rules.TIMEOUT else MoveKind.LEAVE, seat,
         {"seat": seat, "reason": reason})
    _advance(match, state, events)


def _end(match: Match, state: rules.GameState) -> None:
    """The game is over: its result, and the rating points of a rated game."""
    if state.phase == rules.FINISHED:
        match.status = MatchStatus.FINISHED
        points = finished_game_points(state.scores)
    else:
        match.status = MatchStatus.INTERRUPTED
        points = interrupted_game_points(state.scores, state.interrupted_by)
    match.ended_at = timezone.now()
    match.deadline = None
    match.result = {"goats": list(state.goats), "interrupted_by": state.interrupted_by,
                    "reason": state.interrupt_reason, "scores": list(state.scores),
                    "rating_points": points}
    from ratings.services import record_game
    record_game(match, points, state.goats)
    notify.lobby_changed()
