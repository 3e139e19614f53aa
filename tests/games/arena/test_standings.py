"""RULES.md 12's points, best, fire, rank: the standings as a pure function of results."""

from games.arena.standings import GameResult, standings


def finished(started, players, scores, points, goats):
    return GameResult(started, tuple(players), "finished", tuple(scores), tuple(goats),
                      tuple(points))


def test_the_worked_example_of_rules_12():
    # RULES.md 12, tables of 2, fish for all; the rating points worked by hand (RULES.md 8, 9).
    games = [
        # (1) Masha 20, Alex 104: Masha (100-20)/10 = 8; Alex the goat, 0.
        finished(1, ["Masha", "Alex"], [20, 104], [8, 0], [1]),
        # (2) Masha 35, Olya 101: (100-35)/10 = 6.5 -> 7 (half up); Olya the goat.
        finished(2, ["Masha", "Olya"], [35, 101], [7, 0], [1]),
        # (3) Masha 30, Alex 101: 7; Masha's streak is 2 at the start: 14.
        finished(3, ["Masha", "Alex"], [30, 101], [7, 0], [1]),
        # (4) Masha 103 (the goat, 0, on fire: 0), Olya 60: (100-60)/10 = 4, best.
        finished(4, ["Olya", "Masha"], [60, 103], [4, 0], [1]),
        # (5) Alex (44) times out, Masha at 13: max(1, (44-13)/10 = 3.1 -> 3); Alex 0.
        GameResult(5, ("Alex", "Masha"), "interrupted", (44, 13), (), (0, 3), 0),
    ]
    table = standings([("Masha", 1), ("Alex", 2), ("Olya", 3)], games)
    got = [(s.player, s.rank, s.points, s.best, s.games, s.streak) for s in table]
    assert got == [("Masha", 1, 32, 3, 5, 0), ("Olya", 2, 4, 1, 2, 1), ("Alex", 3, 0, 0, 3, 0)]
    masha = table[0]
    assert [(p.points, p.on_fire, p.best) for p in masha.sheet] == [
        (8, False, True), (7, False, True), (14, True, True), (0, True, False),
        (3, False, False)]


def test_games_count_in_the_order_they_started_not_as_listed():
    games = [finished(2, ["A", "B"], [30, 101], [7, 0], [1]),
             finished(3, ["A", "B"], [30, 101], [7, 0], [1]),
             finished(1, ["A", "B"], [30, 101], [7, 0], [1])]
    a = standings([("A", 1), ("B", 2)], games)[0]
    assert a.points == 7 + 7 + 14  # the third to start is the one on fire


def test_ties_at_the_lowest_score_are_all_best_goats_or_not():
    # Three at a table: two tied at the lowest are both best; a table of goats too.
    game = finished(1, ["A", "B", "C"], [40, 40, 101], [6, 6, 0], [2])
    table = {s.player: s for s in standings([("A", 1), ("B", 2), ("C", 3)], [game])}
    assert (table["A"].best, table["B"].best, table["C"].best) == (1, 1, 0)
    all_goats = finished(1, ["A", "B"], [105, 105], [0, 0], [0, 1])
    table = {s.player: s for s in standings([("A", 1), ("B", 2)], [all_goats])}
    assert table["A"].best == table["B"].best == 1 and table["A"].streak == 1


def test_pairs_best_is_the_pair_that_is_not_the_goat_and_a_partner_falls_with_a_leaver():
    players = [("A", 1), ("B", 2), ("C", 3), ("D", 4)]
    game = GameResult(1, ("A", "B", "C", "D"), "finished", (40, 102, 40, 102), (1, 3),
                      (6, 0, 6, 0), None, True)
    both_goats = GameResult(2, ("A", "B", "C", "D"), "finished", (101, 103, 101, 103),
                            (0, 1, 2, 3), (0, 0, 0, 0), None, True)
    table = {s.player: s for s in standings(players, [game])}
    assert [table[p].best for p in "ABCD"] == [1, 0, 1, 0]
    table = {s.player: s for s in standings(players, [game, both_goats])}
    assert [table[p].best for p in "ABCD"] == [1, 0, 1, 0]
    assert [table[p].streak for p in "ABCD"] == [0, 0, 0, 0]
    # B times out: B and its partner D fall to 0; A and C keep their streak of 1.
    left = GameResult(2, ("A", "B", "C", "D"), "interrupted", (10, 50, 10, 50), (),
                      (0, 0, 0, 0), 1, True)
    table = {s.player: s for s in standings(players, [game, left])}
    assert [table[p].streak for p in "ABCD"] == [1, 0, 1, 0]


def test_an_aborted_game_counts_as_played_and_resets_only_who_left():
    players = [("A", 1), ("B", 2)]
    games = [finished(1, ["A", "B"], [30, 101], [7, 0], [1]),
             GameResult(2, ("A", "B"), "aborted", (0, 0), (), (0, 0), 1)]
    table = {s.player: s for s in standings(players, games)}
    assert (table["A"].games, table["A"].streak, table["B"].games) == (2, 1, 2)


def test_rank_ties_go_to_more_best_then_fewer_games_then_earlier_joined():
    players = [("late", 4), ("early", 3), ("few", 2), ("many", 1), ("idle", 5)]
    games = [
        # "late" and "early" both 7 points, 1 game, 1 best: the earlier joined is first.
        finished(1, ["late", "many"], [30, 101], [7, 0], [1]),
        finished(2, ["early", "few"], [30, 101], [7, 0], [1]),
    ]
    ranked = [s.player for s in standings(players, games)]
    # 0 points and 0 best: "idle" played fewer games; "many" and "few" one each: joined.
    assert ranked == ["early", "late", "idle", "many", "few"]
