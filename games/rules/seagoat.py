"""Sea goat [морской козёл] (RULES.md 13): its rules where they differ from Kozel's.

Sections 1-6 hold as engine.py plays them (the deal, the first round's lead, a turn, out
and fish).  A sea goat state's board holds ``SEA_GOAT_RULES`` (state.py's GAME_RULES),
which the engine asks for: the moves (a later round's lead, ``6-6`` only for whoever is
writing; two doubles at once), the two-doubles play, the end of a round (special hands,
the round's winner, writing, the write-off, the hundred, the end of the game), its
refusals, and its part of the state's JSON and of a view.

Scores are kept per seat as in Kozel (partners in a pair always hold their pair's one
score); ``writing`` and a round's ``winner`` are scoring units (``Variant.units``: a
seat, or in pairs a pair index).  Only the unit writing has a score above 0, so who is
writing is read from the scores, never kept beside them.
"""

from __future__ import annotations

from typing import Sequence

from . import scoring
from .actions import (_DRAWS, _KNOCKS, _PLAYS, _TWO_DOUBLES, DOUBLES, LEFT, PLAY, RIGHT,
                      Action)
from .engine import _plays
from .errors import IllegalAction, InvalidState
from .scoring import OUT
from .state import FINISHED, GAME_RULES, PLAY as PHASE_PLAY, DEAL, GameState
from .tiles import VALUE_MASK, names_of, tile, tiles_of
from .variant import SEA_GOAT, Variant

__all__ = ["SEA_GOAT", "WRITING_THRESHOLD", "HUNDRED", "TWO_DOUBLES", "LAST_DOUBLE", "REACHED",
           "WAYS_TO_WIN", "round_points", "special_points", "writing", "hundred", "written"]

ZERO_ZERO, SIX_SIX = tile("0-0"), tile("6-6")
# A hand of exactly these counts this much, whatever its pips (RULES.md 13).
SPECIAL_HANDS = {ZERO_ZERO.bit: 25, SIX_SIX.bit: 50, ZERO_ZERO.bit | SIX_SIX.bit: 75}
# A round's winner starts writing, or writes everyone else off, with this much or more.
WRITING_THRESHOLD = 25
# How a game is won, in the order the first that applies is named (RECORD.md).
HUNDRED, TWO_DOUBLES, LAST_DOUBLE, REACHED = "hundred", "two-doubles", "last-double", "125"
WAYS_TO_WIN = (HUNDRED, TWO_DOUBLES, LAST_DOUBLE, REACHED)
LAST_DOUBLES = (ZERO_ZERO, SIX_SIX)  # going out with one of these as the last tile wins

_DOUBLE_OF = tuple(tile(f"{v}-{v}") for v in range(7))


# -- points ---------------------------------------------------------------------------

def special_points(hand_mask: int) -> int | None:
    """What a special hand counts (exactly 0-0: 25, 6-6: 50, both: 75), else None."""
    return SPECIAL_HANDS.get(hand_mask)


def round_points(hand_mask: int) -> int:
    """A hand's round points: its pips, or a special hand's count (RULES.md 13).  (Kozel's
    own count differs only for a lone 0-0, which is a special hand here.)"""
    return SPECIAL_HANDS.get(hand_mask) or scoring.round_points(hand_mask)


def _single_lowest(points: Sequence[int]) -> int | None:
    """The one unit with the fewest round points, or None when two or more share it."""
    low = min(points)
    holders = [unit for unit, p in enumerate(points) if p == low]
    return holders[0] if len(holders) == 1 else None


# -- who is writing, who leads for a hundred -------------------------------------------

def _writer(unit_scores: Sequence[int]) -> int | None:
    for unit, score in enumerate(unit_scores):
        if score:
            return unit
    return None


def _unit_scores(board) -> list[int]:
    return [board.scores[seats[0]] for seats in board.variant.units]


def writing(state: GameState) -> int | None:
    """The unit writing (a seat, or in pairs a pair index), or None if nobody is."""
    return _writer(_unit_scores(state.board))


def hundred(state: GameState) -> int | None:
    """The seat that led the round being played for a hundred, or None.

    A later round's lead of 6-6 is legal only for the unit writing, so it is a lead for a
    hundred; the first round's (``leader`` is -1 until a round has ended) is section 4's.
    The lead is the round's first move, the one play that names no end.
    """
    if state.phase != PHASE_PLAY or state.board.leader < 0 or state.log is None:
        return None
    node = state.log
    while node[1] is not None:
        node = node[1]
    first = node[0]
    is_lead = first.kind == PLAY and first.end is None
    return first.seat if is_lead and first.tile is SIX_SIX else None


# -- the moves ------------------------------------------------------------------------

def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Kozel's moves (RULES.md 5), with a later round's lead of 6-6 for the unit writing
    only, and two doubles at once where the ends show two different values."""
    seat = state.turn
    hand = state.hands[seat]
    left = state.left
    if left < 0:  # the lead: never two doubles at once
        if state.lead >= 0:  # the first round's, by section 4
            return (_PLAYS[seat, state.lead, None],)
        if writing(state) != state.variant.unit_of(seat):
            hand &= ~SIX_SIX.bit
        return tuple(_PLAYS[seat, t.index, None] for t in tiles_of(hand))
    right = state.right
    fit_left = hand & VALUE_MASK[left]
    fit_right = hand & VALUE_MASK[right]
    if not (fit_left or fit_right):
        return (_DRAWS[seat],) if state.bazaar else (_KNOCKS[seat],)
    moves = _plays(seat, fit_left, LEFT) + _plays(seat, fit_right, RIGHT)
    double_left, double_right = _DOUBLE_OF[left], _DOUBLE_OF[right]
    if left != right and hand & double_left.bit and hand & double_right.bit:
        low, high = sorted((double_left.index, double_right.index))
        moves += (_TWO_DOUBLES[seat, low, high],)
    return moves


def apply_two_doubles(state: GameState, action: Action) -> tuple[GameState, list[dict]]:
    """Play two doubles at once, each on the end of its value (the engine has checked the
    move is legal).  The ends keep their values, which differ, so it is never a fish."""
    seat, left, right = action.seat, state.left, state.right
    on_left, on_right = (action.tile, action.second) if action.tile.low == left \
        else (action.second, action.tile)
    new = state.copy()
    hands = state.hands
    hand = hands[seat] ^ on_left.bit ^ on_right.bit
    new.hands = hands[:seat] + (hand,) + hands[seat + 1:]
    new.table = state.table | on_left.bit | on_right.bit
    new.chain = ((left, left),) + state.chain + ((right, right),)
    new.lead = -1
    new.knocks = 0
    new.last_player = seat
    new.log = (action, state.log)
    events = [{"type": "played_doubles", "seat": seat, "left": on_left.name,
               "right": on_right.name}]
    if not hand:
        return end_round(new, OUT, seat, events)
    new.turn = (seat + 1) % state.board.seats
    return new, events


# -- the end of a round -----------------------------------------------------------------

def write(unit_scores: Sequence[int], winner: int | None, won: int) -> tuple[list[int], bool]:
    """The scores after a round that ``winner`` (a unit, or None) won with ``won`` points
    (W), and whether they were written off: the winner writing adds W; nobody writing,
    W >= 25 starts the winner writing; another writing, W >= 25 writes everyone off."""
    scores = list(unit_scores)
    if winner is None:
        return scores, False
    writer = _writer(scores)
    if writer == winner:
        scores[winner] += won
    elif won >= WRITING_THRESHOLD:
        if writer is None:
            scores[winner] = won
        else:
            return [0] * len(scores), True
    return scores, False


def end_round(new: GameState, result: str, seat: int, events: list[dict]):
    """Score a round that ended with ``result`` (OUT or FISH) by ``seat`` (who went out,
    or the fisherman), and end the game if it is won."""
    board = new.board
    variant: Variant = board.variant
    units = variant.units
    points = tuple(round_points(h) for h in new.hands)
    by_unit = [sum(points[s] for s in seats) for seats in units]
    winner = variant.unit_of(seat) if result == OUT else _single_lowest(by_unit)
    won = sum(p for unit, p in enumerate(by_unit) if unit != winner) if winner is not None else 0
    before = _unit_scores(board)
    scores = list(before)
    led_hundred = hundred(new)
    hundred_won = led_hundred is not None and result == OUT and seat == led_hundred
    hundred_lost = led_hundred is not None and not hundred_won
    if hundred_lost:  # written off first, then the round is scored
        scores[variant.unit_of(led_hundred)] = 0
    scores, written_off = write(scores, winner, won)
    writer = _writer(scores)
    how = _how_won(new, result, hundred_won, scores, writer, variant.end_score)
    if how is None:
        winners = ()
    else:
        winners = units[writer if how == REACHED else variant.unit_of(seat)]
    seat_scores = tuple(scores[variant.unit_of(s)] for s in range(board.seats))
    summary = {
        "round": board.round, "variant": variant.name, "result": result, "seat": seat,
        "points": list(points), "special": [special_points(h) for h in new.hands],
        "winner": winner, "won": won, "hundred": led_hundred,
        "written_off": written_off or hundred_lost,
        "scores": list(seat_scores), "writing": writer,
        # The round is over, so what is left in the hands is shown to all (not the bazaar).
        "hands": [names_of(h) for h in new.hands],
        "before": {"scores": list(board.scores), "writing": _writer(before)},
    }
    if variant.pairs:
        summary.update(pairs=True, pair_points=by_unit, pair_scores=scores)
    new.board = board._replace(scores=seat_scores, leader=seat, last_round=summary,
                               winners=winners, how=how)
    new.turn = seat
    events.append(dict(summary, type="round_ended"))
    if how is not None:
        new.phase = FINISHED
        events.append({"type": "game_over", "winners": list(winners), "how": how,
                       "scores": list(seat_scores)})
    else:
        new.phase = DEAL
    return new, events


def _how_won(new: GameState, result: str, hundred_won: bool, scores: list[int],
             writer: int | None, end_score: int) -> str | None:
    """How the round's scoring ends the game, the first that applies in RECORD.md's order;
    None while it goes on.  All but the last are won by whoever went out."""
    if hundred_won:
        return HUNDRED
    if result == OUT:
        last = new.log[0]
        if last.kind == DOUBLES:
            return TWO_DOUBLES
        if last.tile in LAST_DOUBLES:
            return LAST_DOUBLE
    if writer is not None and scores[writer] >= end_score:
        return REACHED
    return None


def written(summary: dict) -> list[int]:
    """What a round's summary (``end_round``'s) wrote to each seat's score: W to every seat
    of the round's winner when the round left them writing (they wrote, or started
    writing), else 0 -- a write-off writes nothing.  Per seat, as the score rows keep it."""
    winner, won, scores = summary["winner"], summary["won"], summary["scores"]
    seats = len(scores)
    unit_of = (lambda seat: seat % 2) if summary.get("pairs") else (lambda seat: seat)
    return [won if winner is not None and unit_of(seat) == winner and scores[seat] else 0
            for seat in range(seats)]


# -- refusals -------------------------------------------------------------------------

def why_illegal(state: GameState, action: Action) -> IllegalAction | None:
    """Why a move of the seat to move is refused, where sea goat has its own reason."""
    held = state.hands[action.seat]
    if action.kind == DOUBLES:
        for t in (action.tile, action.second):
            if not held & t.bit:
                return IllegalAction(f"you do not hold {t}", "5.1", "not-held", tile=t.name)
        if state.left < 0:
            return IllegalAction("two doubles at once are never a round's lead", "13",
                                 "two-doubles-lead")
        if state.left == state.right:
            return IllegalAction(f"two doubles at once need ends that show two different values "
                                 f"(both show {state.left})", "13", "two-doubles-ends")
        return IllegalAction(f"{action.tile} and {action.second} do not fit the two ends "
                             f"({state.left} and {state.right}): each double goes on the end "
                             f"of its value", "13", "two-doubles-fit",
                             tiles=[action.tile.name, action.second.name])
    if (action.kind == PLAY and action.tile is SIX_SIX and held & SIX_SIX.bit
            and state.left < 0 and state.lead < 0):
        return IllegalAction("only the player who is writing may lead 6-6 (for a hundred)",
                             "13", "hundred-not-writing", tile=SIX_SIX.name)
    return None


# -- JSON and views ---------------------------------------------------------------------

def public(state: GameState) -> dict:
    """What sea goat adds to a state's JSON and to every view (all of it public): who is
    writing, who leads this round for a hundred, and the winners and how they won."""
    return {"writing": writing(state), "hundred": hundred(state),
            "winners": list(state.board.winners), "how": state.board.how}


def read_state(state: GameState, data: dict):
    """The board of a sea goat state read from its JSON (``public``'s fields checked)."""
    board = state.board
    scores = _unit_scores(board)
    if sum(1 for score in scores if score) > 1:
        raise InvalidState("at most one player (pair) is writing (RULES.md 13)")
    if any(board.remembered) or any(board.opened) or board.bank or board.goats:
        raise InvalidState("sea goat keeps no remembered points, bank or goats")
    if "writing" in data and data["writing"] != _writer(scores):
        raise InvalidState("who is writing does not match the scores")
    how = data.get("how")
    winners = data.get("winners", [])
    if how not in (None,) + WAYS_TO_WIN or not isinstance(winners, list):
        raise InvalidState("unknown way to win")
    if (state.phase == FINISHED) != (how is not None) or (how is None) != (not winners):
        raise InvalidState("a finished sea goat game has winners and how they won; no other")
    if winners and tuple(winners) not in board.variant.units:
        raise InvalidState("the winners are one player, or one pair")
    return board._replace(winners=tuple(winners), how=how)


class SeaGoatRules:
    """Sea goat's answers to the engine's questions (a state's ``board.own_rules``)."""

    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply_two_doubles)
    end_round = staticmethod(end_round)
    why_illegal = staticmethod(why_illegal)
    writing = staticmethod(writing)
    hundred = staticmethod(hundred)
    state_json = staticmethod(public)
    read_state = staticmethod(read_state)
    public = staticmethod(public)


GAME_RULES[SEA_GOAT] = SEA_GOAT_RULES = SeaGoatRules()
