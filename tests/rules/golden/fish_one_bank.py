"""Three players, fish for one: a lone 0-0, a fish-for-one draw, the bank carried over an
out round whose top is shared, the bank won in an out round (it opens its winner), and a
timeout in the fifth round.

Rounds 1, 3 and 4 are out rounds built only on the right end: the first tile is 1-1,
so the left end shows 1 all round, and every play names "right".  A 1 on the right end
is never fish there, since 0-1 (or 1-4 and 1-5) is never on the table.
"""

from . import draw, play

RECORD = {
    "format": "kozel-record/1",
    "players": ["Masha", "Alex", "Olya"],
    "fish": "one",
    "turn_seconds": 30,
    "rounds": [
        # Round 1 -- out, with a lone 0-0.  Nobody else holds 1-1: Masha (seat 0) leads it
        # (RULES.md 4).  Chain: 1-1 1-2 2-2 2-3 3-3 3-4 4-4 4-5 5-5 5-6 6-6 6-0 0-2 2-4
        # 4-6 6-1 1-3 3-5 5-0, played by seats 0,1,2,0,1,2,...: Masha's 7th tile is the
        # 19th play.  Alex and Olya then hold one tile each: Alex 0-0, Olya 1-4.
        {"hands": [["1-1", "2-3", "4-4", "5-6", "0-2", "1-6", "0-5"],
                   ["1-2", "3-3", "4-5", "6-6", "2-4", "1-3", "0-0"],
                   ["2-2", "3-4", "5-5", "0-6", "4-6", "3-5", "1-4"]],
         "bazaar": ["0-1", "0-3", "0-4", "1-5", "2-5", "2-6", "3-6"],
         "moves": [
             play(0, "1-1"),            # L=1 R=1
             play(1, "1-2", "right"),   # R=2
             play(2, "2-2", "right"),   # R=2
             play(0, "2-3", "right"),   # R=3
             play(1, "3-3", "right"),   # R=3
             play(2, "3-4", "right"),   # R=4
             play(0, "4-4", "right"),   # R=4
             play(1, "4-5", "right"),   # R=5
             play(2, "5-5", "right"),   # R=5
             play(0, "5-6", "right"),   # R=6
             play(1, "6-6", "right"),   # R=6
             play(2, "0-6", "right"),   # R=0
             play(0, "0-2", "right"),   # R=2
             play(1, "2-4", "right"),   # R=4 (1-3 would fit the left end: a choice)
             play(2, "4-6", "right"),   # R=6
             play(0, "1-6", "right"),   # fits both ends (1 and 6): "right" is needed; R=1
             play(1, "1-3", "right"),   # R=3
             play(2, "3-5", "right"),   # R=5
             play(0, "0-5", "right"),   # Masha's last tile: out
         ]},
        # Round 2 -- fish for one, a draw.  Masha went out, so she leads, any tile.
        # Chain: 1-0 0-2 2-1 1-1 1-3 3-4 4-1 1-5 5-6 6-1; when 0-1 closes the left end
        # both ends show 1 and all six non-doubles of 1 (0-1 1-2 1-3 1-4 1-5 1-6) lie on
        # the table: fish, Masha the fisherman, with 3 tiles left.
        {"hands": [["1-1", "0-2", "1-5", "0-1", "0-3", "2-2", "4-4"],
                   ["1-2", "3-4", "5-6", "2-3", "0-4", "3-3", "0-5"],
                   ["1-3", "1-4", "1-6", "0-0", "2-4", "0-6", "2-6"]],
         "bazaar": ["2-5", "3-5", "3-6", "4-5", "4-6", "5-5", "6-6"],
         "moves": [
             play(0, "1-1"),            # L=1 R=1
             play(1, "1-2", "left"),    # L=2
             play(2, "1-3", "right"),   # R=3
             play(0, "0-2", "left"),    # L=0
             play(1, "3-4", "right"),   # R=4
             play(2, "1-4", "right"),   # R=1
             play(0, "1-5", "right"),   # R=5
             play(1, "5-6", "right"),   # R=6
             play(2, "1-6", "right"),   # R=1
             play(0, "0-1", "left"),    # fits both (0 and 1); L=1: 1 and 1, fish
         ]},
        # Round 3 -- out, two share the most round points, the bank stays.  Masha, the
        # fisherman, leads.  Chain: 1-1 1-2 2-2 2-3 3-3 3-0 0-4 4-4 4-5 5-5 5-6 6-6 6-0
        # 0-2 2-4 4-6 6-1 1-3 3-5, seats 0,1,2,...: Masha out on the 19th play; Alex keeps
        # 2-5 and Olya 3-4, 7 pips each.
        {"hands": [["1-1", "2-3", "0-4", "5-5", "0-6", "4-6", "3-5"],
                   ["1-2", "3-3", "4-4", "5-6", "0-2", "1-6", "2-5"],
                   ["2-2", "0-3", "4-5", "6-6", "2-4", "1-3", "3-4"]],
         "bazaar": ["0-0", "0-1", "0-5", "1-4", "1-5", "2-6", "3-6"],
         "moves": [
             play(0, "1-1"),            # L=1 R=1
             play(1, "1-2", "right"),   # R=2
             play(2, "2-2", "right"),   # R=2
             play(0, "2-3", "right"),   # R=3
             play(1, "3-3", "right"),   # R=3
             play(2, "0-3", "right"),   # R=0
             play(0, "0-4", "right"),   # R=4
             play(1, "4-4", "right"),   # R=4
             play(2, "4-5", "right"),   # R=5
             play(0, "5-5", "right"),   # R=5
             play(1, "5-6", "right"),   # R=6
             play(2, "6-6", "right"),   # R=6
             play(0, "0-6", "right"),   # R=0
             play(1, "0-2", "right"),   # R=2
             play(2, "2-4", "right"),   # R=4
             play(0, "4-6", "right"),   # R=6
             play(1, "1-6", "right"),   # fits both ends (1 and 6); R=1
             play(2, "1-3", "right"),   # R=3
             play(0, "3-5", "right"),   # Masha's last tile: out
         ]},
        # Round 4 -- out, one player has the most round points and wins the bank.  Masha
        # leads.  Chain: 1-1 1-2 2-2 2-3 3-3 3-4 4-4 4-5 5-5 5-6 6-6 6-0 0-2 2-4 4-6 6-1
        # 1-3 3-5 5-0 0-3.  When 4-6 makes R=6, Masha holds 0-5 and 0-4 (no 1, no 6): she
        # must draw, and the first bazaar tile, 1-6, fits.  Having drawn one tile, she
        # plays her 7th with one tile left, and Alex goes out on the 20th play.  Masha
        # keeps 0-4, Olya 3-6.
        {"hands": [["1-1", "2-3", "4-4", "5-6", "0-2", "0-5", "0-4"],
                   ["1-2", "3-3", "4-5", "6-6", "2-4", "1-3", "0-3"],
                   ["2-2", "3-4", "5-5", "0-6", "4-6", "3-5", "3-6"]],
         "bazaar": ["1-6", "0-0", "0-1", "1-4", "1-5", "2-5", "2-6"],
         "moves": [
             play(0, "1-1"),            # L=1 R=1
             play(1, "1-2", "right"),   # R=2
             play(2, "2-2", "right"),   # R=2
             play(0, "2-3", "right"),   # R=3
             play(1, "3-3", "right"),   # R=3
             play(2, "3-4", "right"),   # R=4
             play(0, "4-4", "right"),   # R=4
             play(1, "4-5", "right"),   # R=5
             play(2, "5-5", "right"),   # R=5
             play(0, "5-6", "right"),   # R=6
             play(1, "6-6", "right"),   # R=6
             play(2, "0-6", "right"),   # R=0 (4-6 and 3-6 fit too: a choice)
             play(0, "0-2", "right"),   # R=2
             play(1, "2-4", "right"),   # R=4
             play(2, "4-6", "right"),   # R=6
             draw(0),                   # 0-5, 0-4 fit neither 1 nor 6: draws 1-6
             play(0, "1-6", "right"),   # fits both ends (1 and 6); R=1
             play(1, "1-3", "right"),   # R=3
             play(2, "3-5", "right"),   # R=5
             play(0, "0-5", "right"),   # R=0
             play(1, "0-3", "right"),   # Alex's last tile: out
         ]},
        # Round 5 -- Alex went out, so he leads; Olya, next, runs out of time.
        {"hands": [["0-0", "0-1", "0-2", "0-3", "1-1", "1-2", "1-3"],
                   ["0-4", "0-5", "0-6", "1-4", "1-5", "1-6", "2-2"],
                   ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"]],
         "bazaar": ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
         "moves": [play(1, "2-2")]},
    ],
    "interrupt": {"seat": 2, "reason": "timeout"},
}

EXPECTED = {
    "rounds": [
        # Round 1 (RULES.md 7.1, 7.3): Masha out, 0.  Alex holds only 0-0: 10 (7.1).
        # Olya holds 1-4: 5.  Nobody has opened and 10, 5 <= 12: both remembered (7.2).
        # scores 0 0 0; remembered 0, 0+10=10, 0+5=5.
        {"result": "out", "seat": 0,
         "points": [0, 10, 5], "credited": [0, 10, 5],
         "scores": [0, 0, 0], "remembered": [0, 10, 5],
         "opened": [False, False, False], "bank": 0},
        # Round 2 (7.4, fish for one): Masha 0-3 2-2 4-4 = 3+4+8 = 15; Alex 2-3 0-4 3-3
        # 0-5 = 5+4+6+5 = 20; Olya 0-0 2-4 0-6 2-6 = 0+6+6+8 = 20 (0-0 among other tiles
        # counts 0).  Alex and Olya share the most (20): a draw.  Nobody credited,
        # remembered points stay (0, 10, 5), T = 15+20+20 = 55 goes to the bank: 0+55 = 55.
        {"result": "fish", "seat": 0,
         "points": [15, 20, 20], "credited": [0, 0, 0],
         "scores": [0, 0, 0], "remembered": [0, 10, 5],
         "opened": [False, False, False], "bank": 55},
        # Round 3 (7.3, 7.5 Decision): Masha out, 0; Alex 2-5 = 7; Olya 3-4 = 7.  Two share
        # the most: everyone credited their own points, the bank carries on untouched (55).
        # Alex 7 <= 12: remembered 10+7 = 17 (past 12, yet not opened: one round's r > 12
        # opens).  Olya: 5+7 = 12 (12 is not > 12).  Masha out: remembered 0.
        {"result": "out", "seat": 0,
         "points": [0, 7, 7], "credited": [0, 7, 7],
         "scores": [0, 0, 0], "remembered": [0, 17, 12],
         "opened": [False, False, False], "bank": 55},
        # Round 4 (7.3, 7.5): Alex out, 0, loses his remembered 17 -> 0.  Masha 0-4 = 4;
        # Olya 3-6 = 9, the one with the most: credited 9 + bank 55 = 64 as one credit.
        # 64 > 12 opens her: score 0 + remembered 12 + 64 = 76, remembered 0.  (9 alone
        # would only have made her remembered 21.)  Masha 4 <= 12: remembered 0+4 = 4.
        # The bank empties: 0.
        {"result": "out", "seat": 1,
         "points": [4, 0, 9], "credited": [4, 0, 64],
         "scores": [0, 0, 76], "remembered": [4, 0, 0],
         "opened": [False, False, True], "bank": 0},
        # Round 5: Alex led 2-2; Olya (seat 2) is to move when her time runs out.
        {"result": "unfinished", "turn": 2},
    ],
    # RULES.md 9: interrupted by Olya (76), after rounds had ended (not aborted).  Olya
    # gets none.  Masha's open score is 0 (her remembered 4 does not count):
    # (76 - 0) / 10 = 7.6 -> 8.  Alex, 0: 7.6 -> 8.
    "status": "interrupted", "goats": [], "interrupted_by": 2,
    "rating_points": [8, 8, 0],
}
