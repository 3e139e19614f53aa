"""Three players, fish for all: after the third round two players stand at 101 or more,
and both are goats.

Every round is the same fish of 1, played by the same tiles: only the tiles nobody plays
change, so the points can be chosen.  Chain: 1-0 0-2 2-1 1-1 1-3 3-4 4-1 1-5 5-6 6-1.
Masha (seat 0) plays 1-1 0-2 1-5 0-1, Alex 1-2 3-4 5-6, Olya 1-3 1-4 1-6; Masha's 0-1
closes the left end: both ends show 1 and 0-1 1-2 1-3 1-4 1-5 1-6 lie on the table,
fish, with Masha (3 tiles left), Alex and Olya (4 each) holding their other tiles.
Round 1: Masha holds 1-1 and must lead it (RULES.md 4); later she leads as fisherman.
"""

from . import play

FISH_OF_ONE = [
    play(0, "1-1"),            # L=1 R=1
    play(1, "1-2", "left"),    # L=2
    play(2, "1-3", "right"),   # R=3
    play(0, "0-2", "left"),    # L=0
    play(1, "3-4", "right"),   # R=4
    play(2, "1-4", "right"),   # R=1
    play(0, "1-5", "right"),   # R=5
    play(1, "5-6", "right"),   # R=6
    play(2, "1-6", "right"),   # R=1
    play(0, "0-1", "left"),    # fits both (0 and 1); L=1: fish
]

RECORD = {
    "format": "kozel-record/1",
    "players": ["Masha", "Alex", "Olya"],
    "fish": "all",
    "turn_seconds": 45,
    "rounds": [
        {"hands": [["1-1", "0-2", "1-5", "0-1", "0-0", "0-3", "0-4"],
                   ["1-2", "3-4", "5-6", "6-6", "4-6", "3-6", "2-6"],
                   ["1-3", "1-4", "1-6", "5-5", "4-5", "3-5", "4-4"]],
         "bazaar": ["0-5", "0-6", "2-2", "2-3", "2-4", "2-5", "3-3"],
         "moves": FISH_OF_ONE},
        {"hands": [["1-1", "0-2", "1-5", "0-1", "0-0", "0-3", "0-4"],
                   ["1-2", "3-4", "5-6", "6-6", "5-5", "4-6", "4-5"],
                   ["1-3", "1-4", "1-6", "3-6", "2-6", "3-5", "4-4"]],
         "bazaar": ["0-5", "0-6", "2-2", "2-3", "2-4", "2-5", "3-3"],
         "moves": FISH_OF_ONE},
        {"hands": [["1-1", "0-2", "1-5", "0-1", "6-6", "3-6", "0-0"],
                   ["1-2", "3-4", "5-6", "2-6", "3-5", "2-5", "3-3"],
                   ["1-3", "1-4", "1-6", "5-5", "4-6", "4-5", "4-4"]],
         "bazaar": ["0-3", "0-4", "0-5", "0-6", "2-2", "2-3", "2-4"],
         "moves": FISH_OF_ONE},
    ],
}

EXPECTED = {
    "rounds": [
        # Round 1 (7.4, fish for all: everyone credited as in 7.3, the fisherman too):
        # Masha 0-0 0-3 0-4 = 0+3+4 = 7 <= 12: remembered 7.
        # Alex 6-6 4-6 3-6 2-6 = 12+10+9+8 = 39 > 12: opens, 39.
        # Olya 5-5 4-5 3-5 4-4 = 10+9+8+8 = 35 > 12: opens, 35.
        {"result": "fish", "seat": 0,
         "points": [7, 39, 35], "credited": [7, 39, 35],
         "scores": [0, 39, 35], "remembered": [7, 0, 0],
         "opened": [False, True, True], "bank": 0},
        # Round 2: Masha 7 again: remembered 7+7 = 14 (not opened: no single r > 12).
        # Alex 6-6 5-5 4-6 4-5 = 12+10+10+9 = 41: 39+41 = 80.
        # Olya 3-6 2-6 3-5 4-4 = 9+8+8+8 = 33: 35+33 = 68.  Nobody at 101: go on.
        {"result": "fish", "seat": 0,
         "points": [7, 41, 33], "credited": [7, 41, 33],
         "scores": [0, 80, 68], "remembered": [14, 0, 0],
         "opened": [False, True, True], "bank": 0},
        # Round 3: Masha 6-6 3-6 0-0 = 12+9+0 = 21 > 12: opens, 0 + 14 + 21 = 35.
        # Alex 2-6 3-5 2-5 3-3 = 8+8+7+6 = 29: 80+29 = 109.
        # Olya 5-5 4-6 4-5 4-4 = 10+10+9+8 = 37: 68+37 = 105.
        {"result": "fish", "seat": 0,
         "points": [21, 29, 37], "credited": [21, 29, 37],
         "scores": [35, 109, 105], "remembered": [0, 0, 0],
         "opened": [True, True, True], "bank": 0},
    ],
    # RULES.md 8: Alex (109) and Olya (105) are both at 101 or more: both goats, no
    # rating points.  Masha (35): (100 - 35) / 10 = 6.5 -> 7 (half away from zero;
    # Python's round(6.5) would give 6).
    "status": "finished", "goats": [1, 2], "interrupted_by": None,
    "rating_points": [7, 0, 0],
}
