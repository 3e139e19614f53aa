"""The master: a bot that searches, from its seat's knowledge alone.

For every legal action it asks what it is worth: it deals the tiles it cannot see at
random among the other hands and the bazaar, consistent with all it has seen (each
hand's size, the values a seat showed it lacks when it drew or knocked, the bazaar's
size) -- one *world* -- and plays each candidate out in that world to the round's end
with a fast playout policy, then scores the end by the game's own rules (remembered
points, opening above 12, fish for all or one, the bank, the goat at 101) with
``outcome``: the rating points its seat (its pair, in pairs) may expect.  The value of
a candidate is its mean over the worlds; every candidate is played in the same worlds,
so that their differences are not drowned in the luck of the deal.

The public API (the analysis uses the same):

    evaluate(knowledge, seconds=0.5, seed=1)   -> {action: expected outcome}
    evaluate(knowledge, playouts=64, seed=1)   # a fixed number of worlds: repeatable
    choose(knowledge, seconds=0.5, seed=1)     -> the best action

An outcome is in rating points (RULES.md 8): 0 for the goat, up to 10; in sea goat, 1
for a win and 0 for a loss.  ``playouts`` counts worlds; each world plays every
candidate once (``last_stats`` tells how many playouts a call made, and how long).
"""

from __future__ import annotations

import math
import random
import time

import games.rules as rules
from games.rules.state import Board
from games.rules.scoring import round_points
from games.rules.tiles import NON_DOUBLE_MASK, TILES

from .knowledge import Knowledge

# Tiles of the playout policy's moves: the heaviest tile first (its pips would count
# against its holder), a double a little before a plain tile of the same pips (doubles
# are the hardest to place), and now and then any legal move, so that the others'
# play in a world is not one fixed line.
DOUBLE_BONUS = 4.5
RANDOM_MOVE = 0.12
# In fish for one, whether the playouts' players place a fish that someone else pays for,
# and avoid one they would pay for themselves: people play fish for one that way, so a
# world where they do not misjudges what a fish costs the master.
FISH_AWARE = True
MAX_RETRIES = 30  # deals tried before the sampler ignores the lacked values

# Set by every evaluate(): playouts made, worlds, seconds spent (for benchmarks).
last_stats: dict = {"playouts": 0, "worlds": 0, "seconds": 0.0}


def _policy_keys() -> dict:
    keys = {}
    for seat in range(4):
        for t in TILES:
            weight = t.pips + (DOUBLE_BONUS if t.is_double else 0.0)
            for end in (None, rules.LEFT, rules.RIGHT):
                keys[rules.play(seat, t, end)] = weight
        for a in TILES:
            for b in TILES:
                if a.is_double and b.is_double and a.index < b.index:
                    keys[rules.two_doubles(seat, a, b)] = a.pips + b.pips + 2 * DOUBLE_BONUS
        keys[rules.draw(seat)] = keys[rules.knock(seat)] = -1.0
    return keys


_KEYS = _policy_keys()


def evaluate(knowledge: Knowledge, *, seconds: float | None = None,
             playouts: int | None = None, seed=0) -> dict:
    """Every legal action of the seat -> its expected outcome (rating points, module
    docstring).  Searches for ``seconds``, or over ``playouts`` worlds (at least one);
    with ``playouts`` and the same ``seed`` the answer is always the same."""
    legal = knowledge.legal
    if not legal:
        raise ValueError("it is not this seat's turn: nothing to choose")
    if seconds is None and playouts is None:
        raise ValueError("give seconds or playouts")
    rng = random.Random(seed)
    base = _base_state(knowledge)
    seat = knowledge.seat
    outcome = _outcome_function(knowledge)
    totals = dict.fromkeys(legal, 0.0)
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else math.inf
    worlds = 0
    limit = playouts if playouts is not None else math.inf
    while worlds < limit:
        world = _world(base, knowledge, rng)
        for action in legal:
            state, _events = rules.apply(world, action)
            state = _playout(state, rng)
            totals[action] += outcome(state, seat)
        worlds += 1
        if time.perf_counter() >= deadline:
            break
    spent = time.perf_counter() - started
    last_stats.update(playouts=worlds * len(legal), worlds=worlds, seconds=spent)
    return {action: total / worlds for action, total in totals.items()}


def choose(knowledge: Knowledge, *, seconds: float | None = None,
           playouts: int | None = None, seed=0) -> rules.Action:
    """The action of the best expected outcome (a forced move at once)."""
    legal = knowledge.legal
    if len(legal) == 1:
        return legal[0]
    values = evaluate(knowledge, seconds=seconds, playouts=playouts, seed=seed)
    # Ties go to the order of the legal actions, so that the choice is repeatable.
    return max(legal, key=values.__getitem__)


# -- a world: the hidden tiles dealt consistently with what the seat knows ------------

def _base_state(k: Knowledge) -> rules.GameState:
    """The round as the seat knows it, its hidden tiles not yet dealt."""
    state = rules.GameState(k.variant)
    first = k.moves[0] if k.moves else None
    # Who led this round, if a round before it ended (what sea goat's hundred asks).
    leader = first.seat if first is not None and k.round > 1 else -1
    state.board = Board(k.variant, k.seats, round=k.round, leader=leader,
                        scores=k.scores, remembered=k.remembered, opened=k.opened,
                        bank=k.bank, own_rules=state.board.own_rules)
    state.phase = rules.PLAYING
    state.chain = k.chain
    if k.chain:
        state.left, state.right = k.chain[0][0], k.chain[-1][1]
    state.table = k.table
    state.turn = k.seat
    # The lead is forced only in a game's first round: then the legal actions say which.
    state.lead = k.legal[0].tile.index if not k.chain and len(k.legal) == 1 else -1
    knocks = 0
    last_player = -1
    log = None
    for action in k.moves:
        log = (action, log)
        if action.kind == rules.KNOCK:
            knocks += 1
        elif action.kind in (rules.PLAY, rules.DOUBLES):
            knocks = 0
            last_player = action.seat
    state.knocks = knocks
    state.last_player = last_player
    state.log = log
    return state


def _world(base: rules.GameState, k: Knowledge, rng: random.Random) -> rules.GameState:
    hands = _deal_hidden(k, rng)
    world = base.copy()
    own = k.seat
    world.hands = tuple(k.hand if s == own else hands[s] for s in range(k.seats))
    hidden = k.unseen
    for s, mask in hands.items():
        hidden &= ~mask
    bazaar = [t.index for t in TILES if hidden & t.bit]
    rng.shuffle(bazaar)
    world.bazaar = tuple(bazaar)
    return world


def _deal_hidden(k: Knowledge, rng: random.Random) -> dict[int, int]:
    """The other seats' hands: the unseen tiles dealt at random, each seat its count,
    none with a value it showed it lacks (if no deal can keep them all, they are
    ignored: the knowledge came from a game, so one exists, but the sampler may miss
    it)."""
    others = [s for s in range(k.seats) if s != k.seat]
    unseen = [t.index for t in TILES if k.unseen & t.bit]
    allowed = {s: k.allowed(s) for s in others}
    # The most constrained seats choose first.
    order = sorted(others, key=lambda s: (allowed[s].bit_count() - k.hand_counts[s], s))
    for attempt in range(MAX_RETRIES + 1):
        rng.shuffle(unseen)
        free = k.unseen
        hands = {}
        for s in order:
            need = k.hand_counts[s]
            mask = allowed[s] if attempt < MAX_RETRIES else k.unseen
            got = 0
            if need:
                for index in unseen:
                    bit = 1 << index
                    if free & mask & bit:
                        got |= bit
                        need -= 1
                        if not need:
                            break
            if need:
                break
            free &= ~got
            hands[s] = got
        else:
            return hands
    raise AssertionError("the unseen tiles are fewer than the hands hold")


# -- a playout: the round to its end with a fast policy ----------------------------------

def _playout(state: rules.GameState, rng: random.Random) -> rules.GameState:
    apply = rules.apply
    legal_actions = rules.legal_actions
    keys = _KEYS.__getitem__
    rnd = rng.random
    playing = rules.PLAYING
    fish_one = FISH_AWARE and state.board.variant.fish == rules.FISH_ONE
    while state.phase == playing:
        legal = legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        elif rnd() < RANDOM_MOVE:
            action = legal[int(rnd() * len(legal))]
        elif fish_one:
            action = _fish_one_choice(state, legal, keys)
        else:
            action = max(legal, key=keys)
        state, _events = apply(state, action)
    return state


def _fish_one_choice(state: rules.GameState, legal, keys) -> rules.Action:
    """The heaviest play, but in fish for one (where the player with the most points takes
    them all, RULES.md 7.4) a play that places a fish first if someone else would take
    them, and last if its own player (pair) would."""
    left, right, table = state.left, state.right, state.table
    best, best_key = legal[0], -1e9
    for action in legal:
        key = keys(action)
        t = action.tile
        if t is not None and action.kind == rules.PLAY and left >= 0:
            if action.end == rules.LEFT:
                new_left, new_right = (t.high if t.low == left else t.low), right
            else:
                new_left, new_right = left, (t.high if t.low == right else t.low)
            if new_left == new_right \
                    and (table | t.bit) & NON_DOUBLE_MASK[new_left] == NON_DOUBLE_MASK[new_left]:
                key += _fish_taker(state, action)
        if key > best_key:
            best, best_key = action, key
    return best


def _fish_taker(state: rules.GameState, action: rules.Action) -> float:
    seat = action.seat
    hands = state.hands
    points = [round_points(hands[s] ^ action.tile.bit if s == seat else hands[s])
              for s in range(len(hands))]
    if state.board.variant.pairs:
        points = [points[0] + points[2], points[1] + points[3]]
        seat %= 2
    top = max(points)
    if points.count(top) > 1:
        return 0.0  # a draw: the points go to the bank
    return -100.0 if points[seat] == top else 100.0


# -- the outcome of a round's end for a seat ------------------------------------------

def _outcome_function(k: Knowledge):
    return _sea_goat_outcome if k.variant.has_writing else _kozel_outcome


def rating_points(score: int) -> int:
    """RULES.md 8: ``max(1, round_half_up((100 - score) / 10))`` for a player who is not a
    goat (half away from zero; ``(100 - score)`` is below 100 here, never negative)."""
    return max(1, (100 - score + 5) // 10) if score <= 100 else 0


def _kozel_outcome(state: rules.GameState, seat: int) -> float:
    """The rating points ``seat`` (its pair) may expect once this round is scored: its
    points if the game is over; else its points at its score now, times the chance it is
    not the one who reaches 101 first -- shared out among the units by how close each
    stands to 101, the more sharply the nearer the end."""
    board = state.board
    variant = board.variant
    units = variant.units
    mine = variant.unit_of(seat)
    scores = board.scores
    if board.goats:
        score = scores[units[mine][0]]
        return 0.0 if score >= 101 else float(rating_points(score))
    remembered = board.remembered
    # An unopened unit's remembered points will mostly join its score when it opens.
    effective = [scores[u[0]] + 0.7 * remembered[u[0]] for u in units]
    left = [max(1.0, 101.0 - e) for e in effective]
    nearest = min(left)
    spread = max(6.0, 4.0 * math.sqrt(nearest))
    weights = [math.exp((nearest - r) / spread) for r in left]
    goat = weights[mine] / sum(weights)
    return (1.0 - goat) * max(1.0, (100.0 - effective[mine]) / 10.0)


def _sea_goat_outcome(state: rules.GameState, seat: int) -> float:
    """Sea goat (RULES.md 13): 1 for a won game, 0 for a lost one; else how far its unit
    stands ahead in writing, as a chance between them."""
    board = state.board
    variant = board.variant
    mine = variant.unit_of(seat)
    if board.winners:
        return 1.0 if seat in board.winners else 0.0
    units = variant.units
    scores = [board.scores[u[0]] for u in units]
    ahead = scores[mine] - max(s for u, s in enumerate(scores) if u != mine)
    share = 1.0 / len(units)
    return min(1.0, max(0.0, share + ahead / (2.0 * variant.end_score)))


__all__ = ["evaluate", "choose", "rating_points", "last_stats"]
