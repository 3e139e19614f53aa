"""Two players, fish for one: 2-2 leads (1-1 lies in the bazaar), a fish-for-one draw,
the bank won in a fish (T plus bank as one credit, the other loses their remembered
points), and a player who leaves in the fourth round after drawing seven tiles.
"""

from . import draw, play

RECORD = {
    "format": "kozel-record/1",
    "players": ["Masha", "Alex"],
    "fish": "one",
    "turn_seconds": 20,
    "rounds": [
        # Round 1 -- out.  1-1 is in the bazaar, so the holder of 2-2 (Masha) leads it
        # (RULES.md 4).  Chain: 6-3 3-0 0-4 4-2 2-2 2-3 3-5 5-1 1-4 4-6 6-5 5-0 0-1,
        # grown from 2-2 on both ends; Masha plays her 7th tile on the 13th play, Alex
        # keeps 4-5.
        {"hands": [["2-2", "2-4", "0-4", "0-3", "3-6", "5-6", "0-1"],
                   ["2-3", "3-5", "1-5", "1-4", "4-6", "0-5", "4-5"]],
         "bazaar": ["0-0", "0-2", "0-6", "1-1", "1-2", "1-3", "1-6",
                    "2-5", "2-6", "3-3", "3-4", "4-4", "5-5", "6-6"],
         "moves": [
             play(0, "2-2"),            # L=2 R=2
             play(1, "2-3", "right"),   # R=3
             play(0, "2-4", "left"),    # L=4
             play(1, "3-5", "right"),   # R=5
             play(0, "0-4", "left"),    # L=0
             play(1, "1-5", "right"),   # R=1
             play(0, "0-3", "left"),    # L=3
             play(1, "1-4", "right"),   # R=4
             play(0, "3-6", "left"),    # L=6
             play(1, "4-6", "right"),   # fits both (6 and 4); R=6: only 3-6 4-6 of 6 out
             play(0, "5-6", "right"),   # R=5
             play(1, "0-5", "right"),   # R=0
             play(0, "0-1", "right"),   # Masha's last tile: out
         ]},
        # Round 2 -- fish for one, a draw.  Masha went out and leads 6-6.  Chain:
        # 6-0 0-1 1-6 6-6 6-2 2-3 3-6 6-4 4-5 5-6; Alex's 0-6 closes the left end: both
        # ends 6, all six non-doubles of 6 on the table, fish; Alex the fisherman.
        {"hands": [["6-6", "2-6", "2-3", "4-6", "5-6", "2-4", "1-5"],
                   ["1-6", "0-1", "3-6", "4-5", "0-6", "3-4", "0-5"]],
         "bazaar": ["0-0", "0-2", "0-3", "0-4", "1-1", "1-2", "1-3",
                    "1-4", "2-2", "2-5", "3-3", "3-5", "4-4", "5-5"],
         "moves": [
             play(0, "6-6"),            # L=6 R=6
             play(1, "1-6", "left"),    # L=1
             play(0, "2-6", "right"),   # R=2
             play(1, "0-1", "left"),    # L=0
             play(0, "2-3", "right"),   # R=3
             play(1, "3-6", "right"),   # R=6
             play(0, "4-6", "right"),   # R=4
             play(1, "4-5", "right"),   # R=5
             play(0, "5-6", "right"),   # R=6
             play(1, "0-6", "left"),    # fits both (0 and 6); L=6: fish
         ]},
        # Round 3 -- fish for one, won.  Alex leads 3-4.  Chain:
        # 0-1 1-2 2-0 0-3 3-4 4-0 0-5 5-6 6-0; Alex's 0-6 closes the right end: both ends
        # 0, all six non-doubles of 0 on the table, fish; Alex keeps 2 tiles, Masha 3.
        {"hands": [["0-3", "0-2", "1-2", "0-1", "1-3", "2-5", "3-5"],
                   ["3-4", "0-4", "0-5", "5-6", "0-6", "1-4", "2-3"]],
         "bazaar": ["0-0", "1-1", "1-5", "1-6", "2-2", "2-4", "2-6",
                    "3-3", "3-6", "4-4", "4-5", "4-6", "5-5", "6-6"],
         "moves": [
             play(1, "3-4"),            # L=3 R=4
             play(0, "0-3", "left"),    # L=0
             play(1, "0-4", "right"),   # fits both (0 and 4); R=0
             play(0, "0-2", "left"),    # L=2
             play(1, "0-5", "right"),   # R=5
             play(0, "1-2", "left"),    # L=1
             play(1, "5-6", "right"),   # R=6
             play(0, "0-1", "left"),    # L=0
             play(1, "0-6", "right"),   # fits both (0 and 6); R=0: fish
         ]},
        # Round 4 -- Alex, the fisherman, leads 4-5.  Masha holds no 4 and no 5: she draws
        # 0-0, 0-6, 1-3, 1-6, 2-3, 2-6 (none fits), then 3-4, which fits the left end, and
        # must play it.  Then Alex leaves the game.
        {"hands": [["0-1", "0-2", "0-3", "1-1", "1-2", "2-2", "3-3"],
                   ["0-4", "0-5", "1-4", "1-5", "2-4", "2-5", "4-5"]],
         "bazaar": ["0-0", "0-6", "1-3", "1-6", "2-3", "2-6", "3-4",
                    "3-5", "3-6", "4-4", "4-6", "5-5", "5-6", "6-6"],
         "moves": [
             play(1, "4-5"),            # L=4 R=5
             draw(0), draw(0), draw(0), draw(0), draw(0), draw(0), draw(0),
             play(0, "3-4"),            # only the left end (4) fits: L=3
         ]},
    ],
    "interrupt": {"seat": 1, "reason": "left"},
}

EXPECTED = {
    "rounds": [
        # Round 1 (7.3): Masha out, 0.  Alex 4-5 = 9 <= 12: remembered 9.
        {"result": "out", "seat": 0,
         "points": [0, 9], "credited": [0, 9],
         "scores": [0, 0], "remembered": [0, 9],
         "opened": [False, False], "bank": 0},
        # Round 2 (7.4): Masha 2-4 1-5 = 6+6 = 12; Alex 3-4 0-5 = 7+5 = 12.  Equal: a draw.
        # Nobody credited, Alex keeps his remembered 9, T = 24 into the bank: 24.
        {"result": "fish", "seat": 1,
         "points": [12, 12], "credited": [0, 0],
         "scores": [0, 0], "remembered": [0, 9],
         "opened": [False, False], "bank": 24},
        # Round 3 (7.4, 7.5): Masha 1-3 2-5 3-5 = 4+7+8 = 19; Alex 1-4 2-3 = 5+5 = 10.
        # T = 29.  Masha alone has the most: credited T + bank = 29 + 24 = 53 as one
        # credit; 53 > 12 opens her: score 0 + 0 + 53 = 53.  Alex, the fisherman, is
        # credited nothing and loses his remembered 9 -> 0.  The bank empties.
        {"result": "fish", "seat": 1,
         "points": [19, 10], "credited": [53, 0],
         "scores": [53, 0], "remembered": [0, 0],
         "opened": [True, False], "bank": 0},
        # Round 4: Masha has played 3-4; Alex is to move when he leaves.
        {"result": "unfinished", "turn": 1},
    ],
    # RULES.md 9: Alex (score 0) left: he gets none.  Masha (53):
    # (0 - 53) / 10 = -5.3 -> -5, and max(1, -5) = 1.
    "status": "interrupted", "goats": [], "interrupted_by": 1,
    "rating_points": [1, 0],
}
