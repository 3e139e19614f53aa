"""Sea goat's round (RULES.md 13): special hands, the round's winner, writing, the
write-off, the hundred and every way to win, each branch on an explicit position whose
numbers are worked out by hand beside it (pips: seagoat_positions.py).

Most positions are three players (Masha 0, Alex 1, Olya 2) one move from the round's end:
- OUT: the chain is 1-2 (ends 1 and 2); Masha plays her last tile 2-5 on the right.
- FISH: positions.FISH_CHAIN; Masha plays 2-5 on the right, a fish of 2, keeping a tile.
"""

import pytest

from games.rules import FINISHED, DEAL, apply, play, two_doubles
from games.rules.seagoat import round_points, special_points, write
from games.rules.tiles import mask_of

from .positions import FISH_CHAIN, tiles
from .seagoat_positions import sea_position

MASHA, ALEX, OLYA = 0, 1, 2


def out_by_masha(alex: str, olya: str, scores=(0, 0, 0)):
    state = sea_position("2-5", alex, olya, chain="1-2", unit_scores=scores, leader=0)
    return apply(state, play(MASHA, "2-5", "right"))


def fish_by_masha(masha: str, alex: str, olya: str, scores=(0, 0, 0)):
    state = sea_position("2-5 " + masha, alex, olya, chain=FISH_CHAIN, unit_scores=scores,
                         leader=0)
    return apply(state, play(MASHA, "2-5", "right"))


# -- special hands --------------------------------------------------------------------

@pytest.mark.parametrize("hand, points, special", [
    ("0-0", 25, 25),            # exactly 0-0
    ("6-6", 50, 50),            # exactly 6-6
    ("0-0 6-6", 75, 75),        # exactly both
    ("0-0 0-1", 1, None),       # 0-0 among other tiles counts its pips: 0 + 1
    ("6-6 0-1", 13, None),      # 6-6 among other tiles: 12 + 1
    ("0-0 6-6 0-1", 13, None),  # both among others: 0 + 12 + 1
    ("3-4 5-6", 18, None),      # pips: 7 + 11
])
def test_a_hand_counts_its_pips_except_the_special_hands(hand, points, special):
    mask = mask_of(tiles(hand))
    assert round_points(mask) == points and special_points(mask) == special


def test_special_hands_count_in_a_round_and_the_summary_names_them():
    # Alex holds only 0-0 (25), Olya only 6-6 (50): W = 75.
    state, events = out_by_masha("0-0", "6-6")
    summary = state.last_round
    assert summary["points"] == [0, 25, 50] and summary["special"] == [None, 25, 50]
    assert summary["won"] == 75 and summary["scores"] == [75, 0, 0]


# -- writing --------------------------------------------------------------------------
# (before, Alex's hand, Olya's hand, W, after, writing after, written off)
OUT_CASES = {
    # nobody writing: 24 is not enough to start (5-6 3-4 = 18, 0-6 = 6)
    "no start at 24": ((0, 0, 0), "5-6 3-4", "0-6", 24, (0, 0, 0), None, False),
    # nobody writing: 25 starts Masha writing (18 + 1-6 = 7)
    "start at 25": ((0, 0, 0), "5-6 3-4", "1-6", 25, (25, 0, 0), MASHA, False),
    # Masha writing grows by any W, small (0-4 = 4, 0-6 = 6) ...
    "grow by 10": ((40, 0, 0), "0-4", "0-6", 10, (50, 0, 0), MASHA, False),
    # ... or large
    "grow by 25": ((40, 0, 0), "5-6 3-4", "1-6", 25, (65, 0, 0), MASHA, False),
    # Alex writing, Masha wins with 25: every score written off
    "write-off at 25": ((0, 40, 0), "5-6 3-4", "1-6", 25, (0, 0, 0), None, True),
    # Alex writing, Masha wins with 24: nothing changes
    "no write-off at 24": ((0, 40, 0), "5-6 3-4", "0-6", 24, (0, 40, 0), ALEX, False),
    # Olya writing, W = 75 of special hands (0-0 and 6-6 alone, Alex's and hers)
    "write-off by special hands": ((0, 0, 90), "0-0", "6-6", 75, (0, 0, 0), None, True),
}


@pytest.mark.parametrize("case", OUT_CASES)
def test_writing_after_a_round_won_by_going_out(case):
    before, alex, olya, won, after, writer, written_off = OUT_CASES[case]
    state, events = out_by_masha(alex, olya, before)
    summary = state.last_round
    assert summary["winner"] == MASHA and summary["won"] == won
    assert state.scores == after and summary["scores"] == list(after)
    assert state.writing == writer and summary["writing"] == writer
    assert summary["written_off"] is written_off and summary["hundred"] is None
    assert summary["before"] == {"scores": list(before), "writing": _writer(before)}
    assert state.phase == DEAL and state.leader == MASHA and state.turn == MASHA


def _writer(scores):
    return next((unit for unit, score in enumerate(scores) if score), None)


# (before, Masha's other tile, Alex's, Olya's, winner, W, after)
FISH_CASES = {
    # Masha keeps 0-1 (1), Alex 5-6 3-4 (18), Olya 4-6 (10): Masha fewest, W = 28: starts
    "the fisherman has the fewest": ((0, 0, 0), "0-1", "5-6 3-4", "4-6", MASHA, 28,
                                     (28, 0, 0)),
    # Masha keeps 5-6 (11), Alex 0-1 (1), Olya 4-6 3-4 (17): Alex fewest, W = 28: starts
    "another has the fewest": ((0, 0, 0), "5-6", "0-1", "4-6 3-4", ALEX, 28, (0, 28, 0)),
    # Olya writing 40, Alex wins the fish with W = 28: written off
    "a fish writes off": ((0, 0, 40), "5-6", "0-1", "4-6 3-4", ALEX, 28, (0, 0, 0)),
    # Masha 0-4 (4) and Alex 1-3 (4) share the fewest: nobody wins, Olya keeps her 40
    "a tie: no winner": ((0, 0, 40), "0-4", "1-3", "5-6 4-6", None, 0, (0, 0, 40)),
    # the same tie with nobody writing: nothing is written, though W would be 25 or more
    "a tie, nobody writing": ((0, 0, 0), "0-4", "1-3", "5-6 4-6", None, 0, (0, 0, 0)),
}


@pytest.mark.parametrize("case", FISH_CASES)
def test_writing_after_a_fish(case):
    before, masha, alex, olya, winner, won, after = FISH_CASES[case]
    state, events = fish_by_masha(masha, alex, olya, before)
    summary = state.last_round
    assert summary["result"] == "fish" and summary["seat"] == MASHA
    assert summary["winner"] == winner and summary["won"] == won
    assert state.scores == after and state.writing == _writer(after)
    assert summary["written_off"] is (any(before) and not any(after))
    assert state.leader == MASHA  # the fisherman leads the next round, winner or not


@pytest.mark.parametrize("scores, winner, won, after, written_off", [
    ((0, 0, 0), 1, 24, [0, 0, 0], False),
    ((0, 0, 0), 1, 25, [0, 25, 0], False),
    ((0, 30, 0), 1, 3, [0, 33, 0], False),
    ((0, 30, 0), 2, 25, [0, 0, 0], True),
    ((0, 30, 0), 2, 24, [0, 30, 0], False),
    ((0, 30, 0), None, 0, [0, 30, 0], False),
])
def test_the_writing_rule_alone(scores, winner, won, after, written_off):
    assert write(scores, winner, won) == (after, written_off)


# -- pairs: the pair is the unit ------------------------------------------------------

def test_in_pairs_the_partners_hand_is_not_counted_and_the_pair_writes():
    # Masha (pair 0) goes out with 2-5; her partner Olya holds 6-6 5-6 (not counted);
    # Alex 0-4 (4) and Serg 0-6 (6): W = 10, and pair 0 writing 40 grows to 50.
    state = sea_position("2-5", "0-4", "6-6 5-6", "0-6", chain="1-2", unit_scores=(40, 0),
                         pairs=True, leader=0)
    state, _ = apply(state, play(MASHA, "2-5", "right"))
    summary = state.last_round
    assert summary["winner"] == 0 and summary["won"] == 10
    assert summary["points"] == [0, 4, 23, 6] and summary["pair_points"] == [23, 10]
    assert state.scores == (50, 0, 50, 0) and state.writing == 0
    assert summary["pair_scores"] == [50, 0]


def test_in_pairs_a_pair_winning_with_25_writes_the_other_pair_off():
    # Alex 5-6 3-4 (18) and Serg 1-6 (7): W = 25 for pair 0 while pair 1 writes 60.
    state = sea_position("2-5", "5-6 3-4", "0-0 0-1", "1-6", chain="1-2",
                         unit_scores=(0, 60), pairs=True, leader=0)
    state, _ = apply(state, play(MASHA, "2-5", "right"))
    assert state.last_round["won"] == 25 and state.last_round["written_off"] is True
    assert state.scores == (0, 0, 0, 0) and state.writing is None


@pytest.mark.parametrize("serg, winner, won", [
    # pair 0: Masha 0-1 (1) + Olya 3-4 (7) = 8; pair 1: Alex 0-4 (4) + Serg 1-3 (4) = 8
    ("1-3", None, 0),
    # Serg 1-3 0-3 (7): pair 1 has 11, pair 0 fewer: it wins W = 11
    ("1-3 0-3", 0, 11),
])
def test_in_pairs_a_fish_goes_to_the_pair_with_the_fewest_points(serg, winner, won):
    state = sea_position("2-5 0-1", "0-4", "3-4", serg, chain=FISH_CHAIN,
                         unit_scores=(0, 30), pairs=True, leader=0)
    state, _ = apply(state, play(MASHA, "2-5", "right"))
    assert state.last_round["winner"] == winner and state.last_round["won"] == won
    assert state.scores == (0, 30, 0, 30)  # W < 25: nothing is written either way


# -- the hundred ----------------------------------------------------------------------

def test_the_hundreds_leader_going_out_wins_at_once_after_the_round_is_scored():
    # Alex, writing 65, led 6-6 for a hundred; 1-6 and 1-2 followed (ends 6 and 2).  His
    # 2-5 goes on the 2 end: out.  Masha 0-4 (4), Olya 0-5 (5): W = 9: 65 + 9 = 74.
    state = sea_position("0-4", "2-5", "0-5", chain="6-6 6-1 1-2",
                         moves_text="1:6-6 2:1-6/r 0:1-2/r", turn=ALEX,
                         unit_scores=(0, 65, 0), leader=ALEX)
    assert state.hundred == ALEX
    state, events = apply(state, play(ALEX, "2-5", "right"))
    summary = state.last_round
    assert summary["hundred"] == ALEX and summary["written_off"] is False
    assert state.scores == (0, 74, 0) and state.writing == ALEX
    assert state.phase == FINISHED and state.winners == (ALEX,) and state.how == "hundred"
    assert events[-1] == {"type": "game_over", "winners": [ALEX], "how": "hundred",
                          "scores": [0, 74, 0]}


@pytest.mark.parametrize("masha, alex, won, after", [
    # Masha 0-5 (5), Alex 4-4 (8): W = 13 < 25: after the write-off nothing is written
    ("0-5", "4-4", 13, (0, 0, 0)),
    # Masha 5-6 (11), Alex 4-4 4-5 (17): W = 28: Olya starts writing at once
    ("5-6", "4-4 4-5", 28, (0, 0, 28)),
])
def test_the_hundred_lost_when_another_goes_out_is_written_off_first(masha, alex, won, after):
    # Alex, writing 65, led 6-6; then 1-6, 1-2, 2-3 (ends 6 and 3): Olya goes out with 3-5.
    state = sea_position(masha, alex, "3-5", chain="6-6 6-1 1-2 2-3",
                         moves_text="1:6-6 2:1-6/r 0:1-2/r 1:2-3/r", turn=OLYA,
                         unit_scores=(0, 65, 0), leader=ALEX)
    state, _ = apply(state, play(OLYA, "3-5", "right"))
    summary = state.last_round
    assert summary["winner"] == OLYA and summary["won"] == won and summary["hundred"] == ALEX
    assert summary["written_off"] is True
    assert state.scores == after and state.phase == DEAL


# A fish of 6 after Alex's lead for a hundred: every tile played on the right; Alex closes
# it with 5-6 (it fits both ends, 6 and 5: on the right it makes both ends 6).
FISH_OF_SIX_MOVES = "1:6-6 2:0-6/r 0:0-1/r 1:1-6/r 2:2-6/r 0:2-3/r 1:3-6/r 2:4-6/r 0:4-5/r"
FISH_OF_SIX_CHAIN = "6-6 6-0 0-1 1-6 6-2 2-3 3-6 6-4 4-5"


@pytest.mark.parametrize("masha, alex, olya, winner, won, after", [
    # Masha 0-2 (2) fewest; Alex keeps 4-4 (8), Olya 3-4 (7): W = 15: all 0
    ("0-2", "4-4", "3-4", MASHA, 15, (0, 0, 0)),
    # Alex keeps 0-2 (2) fewest; Masha 4-4 3-5 (16), Olya 3-4 2-4 (13): W = 29: Alex's
    # 65 is written off, then he starts writing again with 29
    ("4-4 3-5", "0-2", "3-4 2-4", ALEX, 29, (0, 29, 0)),
    # Alex 0-3 (3) and Masha 1-2 (3) share the fewest: no winner; Alex is written off
    ("1-2", "0-3", "4-4", None, 0, (0, 0, 0)),
])
def test_the_hundred_lost_in_a_fish_with_or_without_a_winner(masha, alex, olya, winner, won,
                                                             after):
    state = sea_position(masha, "5-6 " + alex, olya, chain=FISH_OF_SIX_CHAIN,
                         moves_text=FISH_OF_SIX_MOVES, turn=ALEX, unit_scores=(0, 65, 0),
                         leader=ALEX)
    state, _ = apply(state, play(ALEX, "5-6", "right"))
    summary = state.last_round
    assert summary["result"] == "fish" and summary["hundred"] == ALEX
    assert summary["winner"] == winner and summary["won"] == won
    assert summary["written_off"] is True and state.scores == after
    assert state.phase == DEAL and state.how is None


def test_in_pairs_the_hundred_is_lost_when_the_partner_goes_out():
    # Alex (pair 1, writing 65) led 6-6; Serg, his partner, goes out with 0-5 on the 5 end.
    # Pair 1 is written off first, then wins the round: Masha 5-6 4-6 (21) + Olya 3-5 (8)
    # = 29 >= 25: pair 1 starts writing again with 29.  Nobody wins the game.
    state = sea_position("5-6 4-6", "4-4", "3-5", "0-5", chain="6-6 6-1 1-2 2-3 3-4 4-5",
                         moves_text="1:6-6 2:1-6/r 3:1-2/r 0:2-3/r 1:3-4/r 2:4-5/r",
                         turn=3, unit_scores=(0, 65), pairs=True, leader=ALEX)
    assert state.hundred == ALEX
    state, _ = apply(state, play(3, "0-5", "right"))
    summary = state.last_round
    assert summary["winner"] == 1 and summary["won"] == 29 and summary["written_off"] is True
    assert state.scores == (0, 29, 0, 29) and state.writing == 1
    assert state.phase == DEAL and state.winners == ()


def test_in_pairs_the_hundreds_leader_going_out_wins_for_the_pair():
    # Alex (pair 1, writing 65) led 6-6; then 1-6, 1-2, 2-3 (ends 6 and 3): his 3-5 takes
    # him out.  W = pair 0's Masha 5-6 4-6 (21) + Olya 0-5 (5) = 26: 65 + 26 = 91.
    state = sea_position("5-6 4-6", "3-5", "0-5", "4-4", chain="6-6 6-1 1-2 2-3",
                         moves_text="1:6-6 2:1-6/r 3:1-2/r 0:2-3/r", turn=ALEX,
                         unit_scores=(0, 65), pairs=True, leader=ALEX)
    state, _ = apply(state, play(ALEX, "3-5", "right"))
    assert state.winners == (1, 3) and state.how == "hundred"
    assert state.scores == (0, 91, 0, 91)


# -- the end: every way to win, and their order -----------------------------------------

@pytest.mark.parametrize("before, alex, olya, how, after", [
    ((100, 0, 0), "5-6 3-4", "1-6", "125", (125, 0, 0)),  # 100 + 25 = 125: the end
    ((100, 0, 0), "5-6 3-4", "0-6", None, (124, 0, 0)),   # 100 + 24 = 124: not yet
])
def test_a_score_of_125_wins(before, alex, olya, how, after):
    state, _ = out_by_masha(alex, olya, before)
    assert state.scores == after and state.how == how
    assert state.winners == ((MASHA,) if how else ())
    assert state.phase == (FINISHED if how else DEAL)


@pytest.mark.parametrize("chain, hand, action, how", [
    # going out with 0-0 on the 0 end: last-double, whatever the scores
    ("0-1", "0-0", play(MASHA, "0-0", "left"), "last-double"),
    # going out with 6-6
    ("1-6", "6-6", play(MASHA, "6-6", "right"), "last-double"),
    # going out with two doubles at once: two-doubles, though 6-6 is among them
    ("1-6", "1-1 6-6", two_doubles(MASHA, "6-6", "1-1"), "two-doubles"),
    # going out with another double is no win: 3-3 on the 3 end
    ("1-3", "3-3", play(MASHA, "3-3", "right"), None),
])
def test_going_out_with_a_last_double_or_two_doubles_wins_at_once(chain, hand, action, how):
    state = sea_position(hand, "4-5", "2-4", chain=chain, leader=0)
    state, _ = apply(state, action)
    assert state.last_round["won"] == 15  # 4-5 (9) + 2-4 (6): too few to write
    assert state.how == how and state.scores == (0, 0, 0)
    assert state.winners == ((MASHA,) if how else ())


def test_a_last_double_that_writes_everyone_off_still_wins():
    # Alex writes 90; Masha goes out with 0-0 and W = 5-6 3-4 (18) + 1-6 (7) = 25.
    state = sea_position("0-0", "5-6 3-4", "1-6", chain="0-1", unit_scores=(0, 90, 0), leader=0)
    state, _ = apply(state, play(MASHA, "0-0", "left"))
    assert state.last_round["written_off"] is True and state.scores == (0, 0, 0)
    assert state.winners == (MASHA,) and state.how == "last-double"


@pytest.mark.parametrize("hand, action, how", [
    # 110 + 25 reaches 125 too, but the last double comes first
    ("0-0", play(MASHA, "0-0", "left"), "last-double"),
    # and two doubles come before both (0-0 among them)
    ("0-0 1-1", two_doubles(MASHA, "0-0", "1-1"), "two-doubles"),
])
def test_the_order_of_the_ways_to_win_over_125(hand, action, how):
    state = sea_position(hand, "5-6 3-4", "1-6", chain="0-1", unit_scores=(110, 0, 0), leader=0)
    state, _ = apply(state, action)
    assert state.scores == (135, 0, 0) and state.how == how and state.winners == (MASHA,)


@pytest.mark.parametrize("chain, moves_text, hand, action", [
    # the hundred's leader goes out with 0-0: the hundred comes before the last double
    ("6-6 6-1 1-0", "1:6-6 2:1-6/r 0:0-1/r", "0-0", play(ALEX, "0-0", "right")),
    # ... and before two doubles at once (1-1 and 0-0 on the ends 1 and 0)
    ("1-6 6-6 6-0", "1:6-6 2:1-6/l 0:0-6/r", "0-0 1-1", two_doubles(ALEX, "1-1", "0-0")),
])
def test_the_hundred_comes_first(chain, moves_text, hand, action):
    state = sea_position("4-5", hand, "2-4", chain=chain, moves_text=moves_text, turn=ALEX,
                         unit_scores=(0, 65, 0), leader=ALEX)
    state, _ = apply(state, action)
    assert state.how == "hundred" and state.winners == (ALEX,)
    assert state.scores == (0, 80, 0)  # 65 + 4-5 (9) + 2-4 (6)
