"""A running game put straight into the database at a chosen moment, for browser tests
that look at how a room shows that moment (not at how play gets there)."""

from __future__ import annotations

import random
from datetime import timedelta

from games import rules


def random_game(seats: int, fish: str, pairs: bool, seed: int):
    """Every state of a random game played from ``seed`` to its end: after each deal and
    each action (so between rounds too, and last the game's end)."""
    rng = random.Random(seed)
    state = rules.new_game(seats, fish, pairs=pairs)
    while not state.over:
        state, _events = rules.start_round(state, rng=rng)
        yield state
        while state.phase == rules.PLAYING:
            state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
            yield state


def first_state(wanted, seats: int, fish: str, pairs: bool, tries: int, what: str):
    """The first state of random games (seeds 0, 1, ...) for which ``wanted(state)``."""
    for seed in range(tries):
        for state in random_game(seats, fish, pairs, seed):
            if wanted(state):
                return state
    raise AssertionError(f"no game of the tried seeds came to {what}")


def a_moment(wanted, seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400,
             pairs: bool = False):
    """The first state of a round being played, of random games, for which ``wanted(state)``."""
    return first_state(lambda state: state.phase == rules.PLAYING and wanted(state),
                       seats, fish, pairs, tries, "the wanted moment")


def between_rounds(seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400):
    """The first pause after a round ended (its summary shown, the next not dealt yet)."""
    return first_state(lambda state: state.phase == rules.DEAL and state.last_round is not None,
                       seats, fish, False, tries, "a pause between rounds")


def can_draw(state) -> bool:
    return any("draw" in action.to_json() for action in rules.legal_actions(state))


def has_remembered_points(state) -> bool:
    return any(rules.spectator_view(state)["remembered"])


def running_match(make_match, people: list, state, version: int = 5, **fields):
    """A playing match of ``people`` (None: a bot) at ``state``, its turn's deadline an
    hour away so that nothing moves while the test looks; ``fields``, more of its own."""
    from django.utils import timezone

    from games.models import MatchStatus

    now = timezone.now()
    return make_match(people, seats_count=len(people), status=MatchStatus.PLAYING,
                      state=state.to_json(), version=version, started_at=now,
                      deadline=now + timedelta(hours=1), **dict({"pairs": state.pairs}, **fields))


def a_round_end(seats: int = 2, fish: str = rules.FISH_ALL, pairs: bool = False,
                wanted=lambda state: True, tries: int = 400):
    """The first state between two rounds (its summary shown) of random games for which
    ``wanted(state)``; a round's end that ends the game is passed by."""
    return first_state(lambda state: state.phase == rules.DEAL and wanted(state),
                       seats, fish, pairs, tries, "the wanted round's end")


def a_game_end(seats: int = 2, fish: str = rules.FISH_ALL, pairs: bool = False, seed: int = 0):
    """The last state of a random game played to its end."""
    *_played, last = random_game(seats, fish, pairs, seed)
    return last


def staged_match(make_match, people: list, state, version: int = 5, **fields):
    """A match of ``people`` (None: a bot) at ``state``, as the services leave it: still
    playing (its deadline an hour away, so that nothing moves while the test looks), or,
    for a state whose game is over, finished with its result and rating points."""
    from django.utils import timezone

    from games.play.finish import ending_of

    if not state.over:
        return running_match(make_match, people, state, version)
    ended, _ending = ending_of(None, state)
    return make_match(people, seats_count=len(people), state=state.to_json(), version=version,
                      started_at=timezone.now(), pairs=state.pairs, rated=True,
                      **dict(ended, **fields))


def played_rounds(users, rounds: int, seed: int = 7, deal_next: bool = True):
    """A game of ``users`` (no pairs, fish for one) whose first ``rounds`` rounds were
    played through the services by random legal moves (its score table has their rows),
    the next one dealt (else its summary shown) and waiting an hour, so that nothing
    moves while the test looks."""
    from django.utils import timezone

    from games.models import Match, MatchStatus, Seat
    from games.play import notify
    from games.play import service as services

    rng = random.Random(seed)
    match = Match.objects.create(seats_count=len(users), fish=rules.FISH_ONE, rated=False,
                                 status=MatchStatus.PLAYING, started_at=timezone.now(),
                                 created_by=users[0], turn_seconds=120)
    for number, user in enumerate(users):
        Seat.objects.create(match=match, number=number, user=user)
    with notify.collected():
        for _round in range(rounds + 1):
            if _round == rounds and not deal_next:
                break
            services.deal_round(match.pk, rules.random_deal(len(users), rng))
            match.refresh_from_db()
            state = rules.GameState.from_json(match.state)
            if _round == rounds or state.over:
                break
            while state.phase == rules.PLAYING:
                moves = [a for a in rules.legal_actions(state) if a.kind != rules.KNOCK]
                message = {k: v for k, v in rng.choice(moves).to_json().items() if k != "seat"}
                services.act(match.pk, users[state.turn], message, match.version)
                match.refresh_from_db()
                state = rules.GameState.from_json(match.state)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(hours=1))
    match.refresh_from_db()
    return match


# -- a whole game from chosen deals ------------------------------------------------------

def first_move(state):
    """The move the browser tests' players make: of the tiles the rules let them play,
    the first by name, on the end showing the lower value.  (Where both ends show the same value the room
    picks the end itself: either way the game goes on the same, mirrored.)"""
    legal = rules.legal_actions(state)
    plays = [a for a in legal if a.kind == rules.PLAY]
    if not plays:
        return legal[0]
    tile = min(a.tile.name for a in plays)
    ends = {rules.LEFT: state.left, rules.RIGHT: state.right}
    return min((a for a in plays if a.tile.name == tile), key=lambda a: ends.get(a.end, 0))


def plays_to_the_end(server_seed: bytes, client_seeds: list[str], fish: str, pairs: bool):
    """(plays, rounds) of a game dealt from these kozel-fair/1 seeds (as the server
    deals it) whose players always make ``first_move``."""
    from games.rules import fair

    state = rules.new_game(len(client_seeds), fish, pairs)
    plays = 0
    while not state.over:
        deal, _attempt = fair.fair_deal(server_seed, state.round + 1, client_seeds)
        state, _events = rules.start_round(state, deal)
        while state.phase == rules.PLAYING:
            state, _events, _knocks = rules.apply_turn(state, first_move(state))
            plays += 1
    return plays, state.round


def quick_pair_game(make_match, people: list, tries: int = 300, **fields):
    """A pair game of four ``people`` (fish for one), its first round dealt, whose deals
    end it soon when every player makes ``first_move``: its server seed is, of ``tries``
    drawn from the test's seed (tests/seeding.py), the one with the fewest plays among
    games of more than one round (a round's end and the next deal are part of the test).
    Its notices go nowhere: nobody is watching yet."""
    from games.play import notify, seeds
    from games.play import service as services
    from games.rules import fair

    match = make_match(people, seats_count=4, pairs=True, fish=rules.FISH_ONE, **fields)
    games = []
    for _try in range(tries):
        seed = seeds.new_server_seed()
        plays, rounds = plays_to_the_end(seed, match.client_seeds, match.fish, True)
        if rounds > 1:
            games.append((plays, seed))
    plays, seed = min(games)
    match.server_seed, match.commitment = seed, fair.commitment(seed)
    match.save(update_fields=["server_seed", "commitment"])
    with notify.collected():
        services.start(match)
    match.refresh_from_db()
    return match, plays


# -- sea goat (RULES.md 13) ------------------------------------------------------------------

def seagoat_move(state):
    """The move the browser tests' sea goat players make: two doubles at once whenever the
    rules offer it, else ``first_move``."""
    doubles = [a for a in rules.legal_actions(state) if a.kind == rules.DOUBLES]
    return doubles[0] if doubles else first_move(state)


def moves_to_two_doubles(server_seed: bytes, client_seeds: list[str]) -> int | None:
    """How many moves of the first round of a sea goat pair game dealt from these seeds
    come before a player may play two doubles at once (every player making
    ``seagoat_move``); None if nobody may in that round."""
    from games.rules import fair

    state = rules.new_game(rules.Variant(4, None, pairs=True, name=rules.SEA_GOAT))
    deal, _attempt = fair.fair_deal(server_seed, 1, client_seeds)
    state, _events = rules.start_round(state, deal)
    moves = 0
    while state.phase == rules.PLAYING:
        move = seagoat_move(state)
        if move.kind == rules.DOUBLES:
            return moves
        state, _events, _knocks = rules.apply_turn(state, move)
        moves += 1
    return None


def seagoat_pair_game_with_two_doubles(make_match, people: list, tries: int = 400, **fields):
    """A sea goat pair game of four ``people``, its first round dealt, in which a player
    may play two doubles at once soon: of ``tries`` server seeds drawn from the test's seed
    (tests/seeding.py), the one with the fewest moves before it.  (moves, match)."""
    from games.play import notify, seeds
    from games.play import service as services
    from games.rules import fair

    match = make_match(people, seats_count=4, pairs=True, game=rules.SEA_GOAT, rated=False,
                       **fields)
    found = []
    for _try in range(tries):
        seed = seeds.new_server_seed()
        moves = moves_to_two_doubles(seed, match.client_seeds)
        if moves is not None:
            found.append((moves, seed))
    moves, seed = min(found)
    match.server_seed, match.commitment = seed, fair.commitment(seed)
    match.save(update_fields=["server_seed", "commitment"])
    with notify.collected():
        services.start(match)
    match.refresh_from_db()
    return match, moves
