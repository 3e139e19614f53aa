"""Rooms at every kind of moment, without a database: whole random games of 2, 3 and 4
players (a seat to move, one waiting, ends to choose, draws, knocks, round summaries,
fish and the fish bank, the game's end), interrupted and aborted games, a table waiting
for players, bots and a hostile name -- for the tests of the room's fragments."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from accounts.models import User
from games import rules
from games.models import Match, MatchStatus, Seat

HOSTILE = "<b>\"Маша\" & 'Петя'</b>"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def seats_of(count: int, bots: int = 0) -> list:
    """Seats with people (one of them named to break markup) and, last, bots."""
    names = ["игрок0", HOSTILE, "player2", "игрок3"]
    return [Seat(number=n, user=None, bot_name=f"бот {n}") if n >= count - bots
            else Seat(number=n, user=User(pk=n + 1, username=names[n])) for n in range(count)]


def whole_game(seats: int, fish: str | None, seed: int, pairs: bool = False) -> list:
    """Every state of a random game: before the first deal, after each deal and each
    action, between rounds (their summary shown) and at the end.  ``fish`` None: sea goat
    (RULES.md 13), the game without a fish rule."""
    rng = random.Random(seed)
    game = rules.KOZEL if fish is not None else rules.SEA_GOAT
    state = rules.new_game(rules.Variant(seats, fish, pairs, game))
    states = [state]
    while not state.over:
        state, _events = rules.start_round(state, rng=rng)
        states.append(state)
        while state.phase == rules.PLAYING:
            state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
            states.append(state)
    return states


def match_at(state, version: int, seats: int, status=MatchStatus.PLAYING, rated=True,
             result=None, pairs: bool = False) -> Match:
    game = state.variant.name if state is not None else rules.KOZEL
    return Match(pk=7, seats_count=seats, status=status, version=version,
                 rated=rated and game == rules.KOZEL, game=game,
                 deadline=NOW if status == MatchStatus.PLAYING else None, result=result,
                 state=state.to_json() if state is not None else None, pairs=pairs)


def ended(state, seats: int, rated: bool) -> Match:
    """The match of a game that is over, with its result as the services write it."""
    status = MatchStatus.FINISHED if state.phase == rules.FINISHED else MatchStatus.INTERRUPTED
    result = {"goats": list(state.goats), "interrupted_by": state.interrupted_by,
              "reason": state.interrupt_reason, "scores": list(state.scores),
              "rating_points": [3 * n - 2 for n in range(seats)]
              if rated and state.variant.can_be_rated else None}
    if state.variant.has_writing:
        result.update(winners=list(state.winners), how=state.how)
    return match_at(state, 999, seats, status, rated, result, pairs=state.pairs)


GAMES = (  # seats, fish, bots, pairs, seed: among them fish, a fish bank, draws and knocks
    (2, rules.FISH_ONE, 0, False, 6), (3, rules.FISH_ALL, 1, False, 13),
    (4, rules.FISH_ONE, 2, False, 7), (4, rules.FISH_ONE, 0, True, 3),
    # Sea goat (fish None, RULES.md 13): three alone with a bot, and two pairs.
    (3, None, 1, False, 5), (4, None, 0, True, 11))


def scenes() -> list:
    """(match, seats, state) of every kind of room, the whole games' versions first."""
    out = []
    for seats, fish, bots, pairs, seed in GAMES:
        people = seats_of(seats, bots)
        states = whole_game(seats, fish, seed, pairs)
        out += [(match_at(s, v, seats, pairs=pairs), people, s) for v, s in enumerate(states[:-1])]
        out.append((ended(states[-1], seats, rated=seed % 2 == 0), people, states[-1]))
        middle = states[len(states) // 2]
        for seat, reason in ((0, rules.TIMEOUT), (1, rules.LEFT_GAME)):
            interrupted, _events = rules.interrupt(middle, seat, reason)
            out.append((ended(interrupted, seats, rated=seed % 2 == 1), people, interrupted))
        out.append((match_at(middle, 500, seats, MatchStatus.ABORTED, pairs=pairs), people, middle))
    out.append((match_at(None, 3, 4, MatchStatus.WAITING), seats_of(2), None))
    return out
