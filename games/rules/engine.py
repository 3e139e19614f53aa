"""The moves of Kozel: ``legal_actions`` generates them, ``apply`` plays one.

``legal_actions(state)`` is the one move generator: ``apply`` accepts an action only if
it is one of them, and every refusal is explained by asking why it is not.

Another game's own rules (sea goat: seagoat.py) are asked where its game differs -- the
moves it may make, a move Kozel has not, the end of a round, a refusal -- through the
state's ``board.own_rules``; Kozel's own path asks that one field and no more.
"""

from __future__ import annotations

import random
import secrets

from . import scoring
from .actions import (DOUBLES, DRAW, KNOCK, LEFT, MAX_SEATS, PLAY, RIGHT, Action, _DRAWS, _KNOCKS,
                      _PLAYS)
from .deal import Deal, check_deal, random_deal_masks
from .errors import IllegalAction, InvalidState, MalformedAction
from .state import DEAL, FINISHED, INTERRUPTED, Board, GameState
from .state import PLAY as PHASE_PLAY
from .tiles import (FIRST_LEAD_DOUBLES, NON_DOUBLE_LEAD_ORDER, NON_DOUBLE_MASK, TILES, VALUE_MASK,
                    mask_of, names_of, tiles_of)
from .variant import Variant

__all__ = ["new_game", "start_round", "legal_actions", "apply", "interrupt", "first_lead"]

TIMEOUT, LEFT_GAME = "timeout", "left"


def new_game(seats: int | Variant, fish: str = "all", pairs: bool = False) -> GameState:
    """A game waiting for its first deal: of a ``Variant``, or of Kozel at ``seats`` with
    its fish rule, ``pairs`` for two pairs of four (RULES.md 11)."""
    if type(seats) is Variant:
        return GameState(seats)
    # A fresh game of each Kozel table, made once and copied (a simulation starts many):
    # only exact ints, strings and bools are looked up, so that 4.0 or 1 for True is
    # still refused by Variant as before.
    key = (seats, fish, pairs) if (type(seats) is int and type(pairs) is bool
                                   and type(fish) is str) else None
    fresh = _FRESH_GAMES.get(key)
    if fresh is None:
        fresh = GameState(Variant(seats, fish, pairs))
        if key is not None:
            _FRESH_GAMES[key] = fresh
    return fresh.copy()


_FRESH_GAMES: dict[tuple, GameState] = {}
_new_state = object.__new__
_new_board = tuple.__new__


_LEAD_ORDER = FIRST_LEAD_DOUBLES + NON_DOUBLE_LEAD_ORDER


def first_lead(hands) -> tuple[int, int]:
    """(seat, tile index) that must lead the first round of a game (RULES.md 4)."""
    held = 0
    for mask in hands:
        held |= mask
    for t in _LEAD_ORDER:
        if held & t.bit:
            for seat, mask in enumerate(hands):
                if mask & t.bit:
                    return seat, t.index
    raise InvalidState("no hand holds a tile")


def start_round(state: GameState, deal: Deal | None = None,
                rng: random.Random | None = None) -> tuple[GameState, list[dict]]:
    """Deal the next round: an explicit ``deal``, or a random one from ``rng``.

    A real game passes ``rng=secrets.SystemRandom()``; with neither, it uses one too.
    """
    if state.phase != DEAL:
        raise IllegalAction("a round can be dealt only at the start or after a round", "3")
    board = state.board
    if deal is None:
        hands, bazaar = random_deal_masks(board.seats, rng or secrets.SystemRandom())
    else:
        check_deal(deal, board.seats)
        hands = tuple(mask_of(hand) for hand in deal.hands)
        bazaar = tuple(t.index for t in deal.bazaar)
    # Built field by field (GameState.copy's fields), as every action's state is.
    new = _new_state(GameState)
    new.board = board = _new_board(Board, (board[0], board[1], board[2] + 1) + board[3:])
    new.phase = PHASE_PLAY
    new.hands = hands
    new.bazaar = bazaar
    new.chain = ()
    new.left = new.right = -1
    new.table = 0
    new.knocks = 0
    new.last_player = -1
    new.log = None
    new._legal = None
    if board.leader < 0:  # the first round: the lead goes by the tiles held (RULES.md 4)
        new.turn, new.lead = turn, lead = first_lead(hands)
    else:  # later rounds: who went out or placed the fish, with any tile
        new.turn = turn = board.leader
        new.lead = lead = -1
    event = {"type": "round_started", "round": board.round, "leader": turn,
             "lead": TILES[lead].name if lead >= 0 else None,
             "bazaar": len(bazaar)}
    return new, [event]


# -- the move generator ---------------------------------------------------------------

def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the seat to move may take now; empty when no round is being played."""
    legal = state._legal
    if legal is not None:
        return legal
    left = state.left
    if left < 0 or state.phase != PHASE_PLAY or state.board.own_rules is not None:
        legal = state._legal = _generate(state)
        return legal
    # Kozel's moves on a chain (_generate's own, inlined: every simulated move asks).
    # The plays on each end, memoized by the tiles that fit it and the seat (an action
    # names its end, not the end's value): at most 7 tiles fit an end, so there are few
    # keys and nearly every look-up hits.
    seat = state.turn
    hand = state.hands[seat]
    fit_left = hand & VALUE_MASK[left]
    fit_right = hand & VALUE_MASK[state.right]
    if fit_left:
        key = fit_left << 2 | seat
        legal = _LEFT_PLAYS.get(key)
        if legal is None:
            legal = _LEFT_PLAYS[key] = _plays(seat, fit_left, LEFT)
        if fit_right:
            key = fit_right << 2 | seat
            on_right = _RIGHT_PLAYS.get(key)
            if on_right is None:
                on_right = _RIGHT_PLAYS[key] = _plays(seat, fit_right, RIGHT)
            legal += on_right
    elif fit_right:
        key = fit_right << 2 | seat
        legal = _RIGHT_PLAYS.get(key)
        if legal is None:
            legal = _RIGHT_PLAYS[key] = _plays(seat, fit_right, RIGHT)
    else:
        legal = (_DRAWS[seat],) if state.bazaar else (_KNOCKS[seat],)
    state._legal = legal
    return legal


def _generate(state: GameState) -> tuple[Action, ...]:
    """``legal_actions`` where it does not inline it: no round, another game's rules, the
    lead."""
    if state.phase != PHASE_PLAY:
        return ()
    if state.board.own_rules is not None:
        return state.board.own_rules.legal_actions(state)
    seat = state.turn
    if state.lead >= 0:  # the first round's lead (RULES.md 4)
        return (_PLAYS[seat, state.lead, None],)
    hand = state.hands[seat]
    leads = _LEADS_BY_CHUNK[seat]  # any tile: four look-ups of 7 tiles each
    return (leads[0][hand & 127] + leads[1][hand >> 7 & 127]
            + leads[2][hand >> 14 & 127] + leads[3][hand >> 21])


def _plays(seat: int, fit: int, end: str) -> tuple[Action, ...]:
    return tuple(_PLAYS[seat, t.index, end] for t in tiles_of(fit))


_LEFT_PLAYS: dict[int, tuple[Action, ...]] = {}
_RIGHT_PLAYS: dict[int, tuple[Action, ...]] = {}
# A round's lead with any tile, by seat and 7-tile chunk of the hand, in tile order.
_LEADS_BY_CHUNK = tuple(
    tuple(tuple(tuple(_PLAYS[seat, chunk * 7 + i, None] for i in range(7) if bits >> i & 1)
                for bits in range(128))
          for chunk in range(4))
    for seat in range(MAX_SEATS))


# -- applying an action ---------------------------------------------------------------

def apply(state: GameState, action: Action) -> tuple[GameState, list[dict]]:
    """Play ``action``; return the new state and the events to show.  Raises IllegalAction."""
    if type(action) is not Action:
        raise MalformedAction("not an action: use play(), draw(), knock() or action_from_json()")
    legal = state._legal
    if legal is None:
        legal = legal_actions(state)
    if action not in legal:
        action = _resolve_end(state, action)
        if action not in legal:
            raise _why_illegal(state, action)
    kind, seat, t, end, _ = action
    if kind != PLAY:
        if kind == KNOCK:
            return _knock(state, action)
        if kind == DRAW:
            return _draw(state, action)
        return state.board.own_rules.apply(state, action)  # a move of its game's own
    # A play, built here (the hottest path: a call less).
    board = state.board
    new = _new_state(GameState)
    new.board = board
    new.phase = PHASE_PLAY
    hand = state.hands[seat] ^ t.bit
    new.hands = _SET_HAND[board.seats][seat](state.hands, hand)
    new.bazaar = state.bazaar
    new.table = table = state.table | t.bit
    left = state.left
    if left < 0:  # the first tile: lower half left, higher half right (RECORD.md)
        new.chain = ((t.low, t.high),)
        new.left = left = t.low
        new.right = right = t.high
    elif end == LEFT:
        right = new.right = state.right
        outer = t.high if t.low == left else t.low
        new.chain = ((outer, left),) + state.chain
        new.left = left = outer
    else:
        right = state.right
        outer = t.high if t.low == right else t.low
        new.chain = state.chain + ((right, outer),)
        new.left = left
        new.right = right = outer
    new.lead = -1
    new.knocks = 0
    new.last_player = seat
    new.log = (action, state.log)
    new._legal = None
    events = [{"type": "played", "seat": seat, "tile": t.name, "end": end}]
    if not hand:  # out (RULES.md 6); it wins over fish
        new.turn = seat
        return _end_round(new, scoring.OUT, seat, events)
    if left == right and table & NON_DOUBLE_MASK[left] == NON_DOUBLE_MASK[left]:
        new.turn = seat
        return _end_round(new, scoring.FISH, seat, events)  # fish, double or not
    new.turn = _NEXT_SEAT[board.seats][seat]
    return new, events


def apply_turn(state: GameState, action: Action) -> tuple[GameState, list[dict], list[Action]]:
    """``apply``, then the knocks the server makes for whoever can only knock (RULES.md 5,
    rule 3: nothing fits and the bazaar is empty), each announced with ``"auto": True``.

    Returns the state after them, all the events, and the knocks made (for the move log).
    Raises IllegalAction, as ``apply`` does, for the player's own action.
    """
    state, events = apply(state, action)
    knocks = []
    while state.phase == PHASE_PLAY:
        legal = legal_actions(state)
        if len(legal) != 1 or legal[0].kind != KNOCK:
            break
        state, knocked = apply(state, legal[0])
        knocked[0]["auto"] = True
        events += knocked
        knocks.append(legal[0])
    return state, events, knocks

# The hands with one seat's replaced, by the number of seats and the seat: one call that
# builds the tuple, where slicing and joining costs three times as much.
_SET_HAND = (
    (), (),
    (lambda h, x: (x, h[1]), lambda h, x: (h[0], x)),
    (lambda h, x: (x, h[1], h[2]), lambda h, x: (h[0], x, h[2]),
     lambda h, x: (h[0], h[1], x)),
    (lambda h, x: (x, h[1], h[2], h[3]), lambda h, x: (h[0], x, h[2], h[3]),
     lambda h, x: (h[0], h[1], x, h[3]), lambda h, x: (h[0], h[1], h[2], x)),
)
_NEXT_SEAT = tuple(tuple((seat + 1) % seats for seat in range(seats)) if seats else ()
                   for seats in range(MAX_SEATS + 1))


# ``apply`` (a play), ``_draw`` and ``_knock`` build the new state field by field (every
# slot of GameState, as ``copy`` does, without copying what they set anew): they are the
# hot path of every simulation.  ``apply`` has checked the action, so they trust it.

def _draw(state: GameState, action: Action):
    board = state.board
    seat = state.turn
    bazaar = state.bazaar
    new = _new_state(GameState)
    new.board = board
    new.phase = PHASE_PLAY
    new.hands = _SET_HAND[board.seats][seat](state.hands, state.hands[seat] | 1 << bazaar[0])
    new.bazaar = bazaar = bazaar[1:]
    new.chain = state.chain
    new.left = state.left
    new.right = state.right
    new.table = state.table
    new.turn = seat
    new.lead = state.lead
    new.knocks = state.knocks
    new.last_player = state.last_player
    new.log = (action, state.log)
    new._legal = None
    # The drawn tile is not in the event: events are public (see views.py).
    return new, [{"type": "drew", "seat": seat, "bazaar": len(bazaar)}]


def _knock(state: GameState, action: Action):
    board = state.board
    seat = state.turn
    new = _new_state(GameState)
    new.board = board
    new.phase = PHASE_PLAY
    new.hands = state.hands
    new.bazaar = state.bazaar
    new.chain = state.chain
    new.left = state.left
    new.right = state.right
    new.table = state.table
    new.lead = state.lead
    new.knocks = knocks = state.knocks + 1
    new.last_player = state.last_player
    new.log = (action, state.log)
    new._legal = None
    events = [{"type": "knocked", "seat": seat}]
    if knocks >= board.seats:  # the safety net of RULES.md 6: everyone knocked
        new.turn = seat
        return _end_round(new, scoring.FISH, state.last_player, events)
    new.turn = _NEXT_SEAT[board.seats][seat]
    return new, events


def _end_round(new: GameState, result: str, seat: int, events: list[dict]):
    board = new.board
    if board.own_rules is not None:
        return board.own_rules.end_round(new, result, seat, events)
    hands = new.hands
    points = list(map(scoring.round_points, hands))
    variant = board.variant
    if variant.pairs:
        tallies, pair_summary = _score_pairs(board, result, seat, points)
        credited = [pair_summary["pair_credited"][s % 2] for s in range(board.seats)]
        bank = pair_summary["bank"]
        scores = [t.score for t in tallies]
        remembered = [t.remembered for t in tallies]
        opened = [t.opened for t in tallies]
    else:  # scoring.score_round on the columns, without its Tally objects
        credited, scores, remembered, opened, bank = scoring.score_columns(
            result, seat, points, board.scores, board.remembered, board.opened, variant.fish,
            board.bank)
        pair_summary = None
    summary = {
        "round": board.round, "result": result, "seat": seat, "points": points,
        "credited": credited, "scores": scores, "remembered": remembered,
        "opened": opened, "bank": bank,
        # The round is over, so what is left in the hands is shown to all (not the bazaar).
        "hands": list(map(names_of, hands)),
        # What the round began with, so that a room can say which rule credited what
        # (scoring.explain_round).
        "before": {"scores": list(board.scores), "remembered": list(board.remembered),
                   "opened": list(board.opened)},
        "bank_in": board.bank,
    }
    if pair_summary is not None:
        summary.update(pair_summary)
    scores = tuple(scores)
    goats = scoring.goats(scores) if max(scores) >= scoring.GAME_OVER_SCORE else ()
    new.board = _new_board(Board, (board[0], board[1], board[2], seat, scores,
                                   tuple(remembered), tuple(opened), bank, summary, goats)
                           + board[10:])
    new.turn = seat
    event = summary.copy()
    event["type"] = "round_ended"
    events.append(event)
    if goats:
        new.phase = FINISHED
        events.append({"type": "game_over", "goats": list(goats), "scores": list(scores)})
    else:
        new.phase = DEAL
    return new, events


def _score_pairs(board, result: str, seat: int, points: tuple[int, ...]):
    """A pair game's round (RULES.md 11): the per-seat tallies (partners alike) and the
    summary's per-pair fields, indexed [seats 0 and 2, seats 1 and 3]."""
    pair_tallies = tuple(scoring.Tally(board.scores[p], board.remembered[p], board.opened[p])
                         for p in (0, 1))
    by_pair, scored = scoring.score_pairs_round(result, seat, points, pair_tallies,
                                                board.variant.fish, board.bank)
    tallies = tuple(scored.tallies[s % 2] for s in range(board.seats))
    return tallies, {
        "pairs": True, "pair_points": list(by_pair), "pair_credited": list(scored.credited),
        "pair_scores": [t.score for t in scored.tallies],
        "pair_remembered": [t.remembered for t in scored.tallies],
        "pair_opened": [t.opened for t in scored.tallies], "bank": scored.bank}


def interrupt(state: GameState, seat: int, reason: str = TIMEOUT) -> tuple[GameState, list[dict]]:
    """End the game because ``seat`` ran out of time or left (RULES.md 9).

    The round in progress is not scored.
    """
    if state.over:
        raise IllegalAction("the game is already over", "9")
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalAction("no such seat at this table", "2")
    if reason not in (TIMEOUT, LEFT_GAME):
        raise IllegalAction('the reason is "timeout" or "left"', "9")
    new = state.copy()
    new.phase = INTERRUPTED
    new.board = state.board._replace(interrupted_by=seat, interrupt_reason=reason)
    return new, [{"type": "interrupted", "seat": seat, "reason": reason,
                  "scores": list(new.scores), "aborted": new.aborted}]


# -- explaining a refusal --------------------------------------------------------------

def _resolve_end(state: GameState, action: Action) -> Action:
    """Fill in a missing end as RECORD.md says, when the choice is not the player's."""
    if action.kind != PLAY or action.end is not None or state.left < 0:
        return action
    fits_left = action.tile.has(state.left)
    fits_right = action.tile.has(state.right)
    if fits_left and fits_right and state.left != state.right:
        raise IllegalAction(f"{action.tile} fits both ends: say which end to play it on", "5.1",
                            "choose-end", tile=action.tile.name)
    end = RIGHT if fits_right else LEFT
    return _PLAYS[action.seat, action.tile.index, end]


def _why_illegal(state: GameState, action: Action) -> IllegalAction:
    if state.phase == DEAL:
        return IllegalAction("the round is over: wait for the next deal", "6", "round-over")
    if state.over:
        return IllegalAction("the game is over", "8", "game-over")
    if action.seat >= state.seats:
        return IllegalAction(f"there is no seat {action.seat} at this table", "2", "no-seat")
    if action.seat != state.turn:
        return IllegalAction(f"it is not your turn: seat {state.turn} is to move", "5",
                             "not-your-turn")
    if state.board.own_rules is not None:
        refusal = state.board.own_rules.why_illegal(state, action)
        if refusal is not None:
            return refusal
    if action.kind == DOUBLES:
        return IllegalAction("this game plays one tile at a time", "5", "one-tile")
    legal = legal_actions(state)
    must = legal[0].kind
    if action.kind == PLAY:
        t = action.tile
        if not state.hands[action.seat] & t.bit:
            return IllegalAction(f"you do not hold {t}", "5.1", "not-held", tile=t.name)
        if state.left < 0:
            return IllegalAction(f"the first round opens with {TILES[state.lead]}: "
                                 f"play it", "4", "lead", tile=TILES[state.lead].name)
        if must == PLAY and not (t.has(state.left) or t.has(state.right)):
            return IllegalAction(f"{t} fits neither open end ({state.left} and {state.right})",
                                 "5.1", "fits-neither", tile=t.name)
        if must == PLAY:
            return IllegalAction(f"{t} does not fit the {action.end} end", "5.1", "wrong-end",
                                 tile=t.name, end=action.end)
        return IllegalAction(f"{t} fits neither open end: "
                             f"{'draw from the bazaar' if must == DRAW else 'knock'}", "5",
                             "must-draw" if must == DRAW else "must-knock", tile=t.name)
    if must == PLAY:
        return IllegalAction(f"you hold a tile that fits: you must play it, not {action.kind}",
                             "5.1", "must-play")
    if action.kind == KNOCK:
        return IllegalAction("the bazaar is not empty: draw a tile instead of knocking", "5.3",
                             "must-draw")
    return IllegalAction("the bazaar is empty: knock instead", "5.2", "must-knock")
