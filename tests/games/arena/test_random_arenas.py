"""hypothesis over random arenas: every game's points counted once, doubled exactly when
the player's streak was 2 or more at its start; ranks a total order as RULES.md 12 says;
the kozel-arena/1 export round-trips to the same standings."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.arena.export import document, standings_of_text
from games.arena.standings import GameResult, rank_key, result_of_match, standings
from games.rules import FINISHED, replay
from games.rules.simulate import play_game
from ratings.formulas import finished_game_points, interrupted_game_points


@st.composite
def arenas(draw):
    """Players (name, joined) and the games' results of a random arena."""
    count = draw(st.integers(2, 7))
    k = draw(st.integers(2, min(4, count)))
    pairs = k == 4 and draw(st.booleans())
    joined = draw(st.permutations(range(1, count + 1)))
    players = [(f"p{n}", joined[n]) for n in range(count)]
    games = []
    for started in draw(st.lists(st.integers(1, 10_000), max_size=25, unique=True)):
        seated = draw(st.permutations([name for name, _j in players]))[:k]
        units = 2 if pairs else k
        status = draw(st.sampled_from(["finished", "interrupted", "aborted"]))
        if status == "aborted":
            unit_scores = [0] * units
        else:
            unit_scores = draw(st.lists(st.integers(0, 100), min_size=units, max_size=units))
        if status == "finished":  # at least one unit at 101 or more
            for unit in draw(st.lists(st.integers(0, units - 1), min_size=1, unique=True)):
                unit_scores[unit] = draw(st.integers(101, 140))
        scores = [unit_scores[s % 2] if pairs else unit_scores[s] for s in range(k)]
        goats, by = (), None
        if status == "finished":
            goats = tuple(s for s in range(k) if scores[s] >= 101)
            points = finished_game_points(scores, goats)
        else:
            by = draw(st.integers(0, k - 1))
            points = ([0] * k if status == "aborted"
                      else interrupted_game_points(scores, by, pairs))
        games.append(GameResult(started, tuple(seated), status, tuple(scores), goats,
                                tuple(points), by, pairs))
    return players, games


def streak_before(player, game, games) -> int:
    """Counted backwards from the game: the best finished games just before it, passing
    over the interrupted ones that left this player's streak as it was."""
    earlier = sorted((g for g in games if player in g.players and g.started < game.started),
                     key=lambda g: g.started, reverse=True)
    streak = 0
    for g in earlier:
        seat = g.players.index(player)
        if g.status == "finished":
            if not g.best(seat):
                break
            streak += 1
        elif g.out_of_it(seat):
            break
    return streak


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arenas())
def test_each_games_points_count_once_doubled_exactly_on_fire(arena):
    players, games = arena
    table = {s.player: s for s in standings(players, games)}
    for name, _joined in players:
        mine = sorted((g for g in games if name in g.players), key=lambda g: g.started)
        expected = [g.points[g.players.index(name)] * (2 if streak_before(name, g, games) >= 2
                                                       else 1) for g in mine]
        sheet = table[name].sheet
        assert [p.started for p in sheet] == [g.started for g in mine]  # each game once
        assert [p.points for p in sheet] == expected
        assert table[name].points == sum(expected)
        assert table[name].games == len(mine)
        assert table[name].best == sum(g.best(g.players.index(name)) for g in mine)
    assert sum(s.points for s in table.values()) == sum(
        p.points for s in table.values() for p in s.sheet)


@settings(max_examples=200, deadline=None)
@given(arenas())
def test_ranks_are_a_total_order_as_rules_12_says(arena):
    players, games = arena
    ranked = standings(players, games)
    assert [s.rank for s in ranked] == list(range(1, len(players) + 1))
    assert sorted(s.player for s in ranked) == sorted(name for name, _j in players)
    for higher, lower in zip(ranked, ranked[1:]):
        assert rank_key(higher) < rank_key(lower)
        if higher.points != lower.points:
            assert higher.points > lower.points
        elif higher.best != lower.best:
            assert higher.best > lower.best
        elif higher.games != lower.games:
            assert higher.games < lower.games
        else:
            assert higher.joined < lower.joined


@st.composite
def played_arenas(draw):
    """An arena of real games (records played by random players), some interrupted; its
    export, and each game's end as the site keeps it on the match (games/play/finish.py:
    its status, and its result's scores, goats, interrupter and rating points)."""
    count = draw(st.integers(2, 5))
    k = draw(st.integers(2, min(3, count)))
    fish = draw(st.sampled_from(["all", "one"]))
    names = [f"игрок{n}" for n in range(count)]
    players = list(zip(names, draw(st.permutations(range(1, count + 1)))))
    games, kept = [], []
    for started in range(1, draw(st.integers(0, 5)) + 1):
        seated = draw(st.permutations(names))[:k]
        record, state = play_game(k, fish, seed=draw(st.integers(0, 10_000)))
        record.players = list(seated)
        if draw(st.booleans()):  # interrupted after some of its rounds
            rounds = draw(st.integers(0, len(record.rounds) - 1))
            seat = draw(st.integers(0, k - 1))
            record.rounds = record.rounds[:rounds]
            record.interrupt = (seat, draw(st.sampled_from(["timeout", "left"])))
            state = replay(record).state
        games.append((started, record.to_json()))
        kept.append((started, seated, *_as_the_match_keeps_it(state)))
    return document("Арена", k, fish, 20, True, players, games), players, kept


def _as_the_match_keeps_it(state):
    if state.phase == FINISHED:
        return "finished", {"scores": list(state.scores), "goats": list(state.goats),
                            "interrupted_by": None,
                            "rating_points": finished_game_points(state.scores, state.goats)}
    status = "aborted" if state.aborted else "interrupted"
    points = ([0] * state.seats if state.aborted
              else interrupted_game_points(state.scores, state.interrupted_by))
    return status, {"scores": list(state.scores), "goats": [],
                    "interrupted_by": state.interrupted_by, "rating_points": points}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_arenas())
def test_the_export_round_trips_to_the_standings_the_page_shows(arena):
    data, players, kept = arena
    from_export = standings_of_text(json.dumps(data, ensure_ascii=False))
    assert "standings" in from_export, from_export
    page = standings(players, [result_of_match(started, seated, status, result, False)
                               for started, seated, status, result in kept])
    assert from_export["standings"] == [s.as_json() for s in page]
