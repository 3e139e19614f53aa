"""RULES.md 1-3: the tiles, dealing 7 each, the redeal, the bazaar."""

import random

import pytest

from games.rules import InvalidDeal, MalformedAction, new_game, random_deal, start_round, tile
from games.rules.deal import check_deal, needs_redeal
from games.rules.tiles import TILES, NON_DOUBLE_LEAD_ORDER

from .positions import (FIVE_DOUBLES, REDEAL_THRESHOLDS, SIX_OF_A_VALUE, deal, deal_with,
                        tiles)

EVERY_SEAT = [(seats, seat) for seats in (2, 3, 4) for seat in range(seats)]


def test_a_double_six_set_has_28_tiles_written_low_half_first():
    assert len(TILES) == 28
    assert len({t.name for t in TILES}) == 28
    assert all(t.low <= t.high and 0 <= t.low and t.high <= 6 for t in TILES)
    assert tile("4-1") is tile("1-4")
    assert str(tile("4-1")) == "1-4"


def test_a_tile_pip_value_is_the_sum_of_its_halves_and_a_double_has_equal_halves():
    assert tile("2-5").pips == 7
    assert tile("3-3").is_double and not tile("3-4").is_double
    assert tile("3-4").has(3) and tile("3-4").has(4) and not tile("3-4").has(5)


@pytest.mark.parametrize("bad", ["7-1", "1-", "a-b", "", "1-2-3", 12, None, ["1-2"], "-1-2"])
def test_anything_else_is_not_a_tile(bad):
    with pytest.raises(MalformedAction):
        tile(bad)


@pytest.mark.parametrize("seats, bazaar", [(2, 14), (3, 7), (4, 0)])
def test_seven_tiles_each_and_the_rest_is_the_bazaar(seats, bazaar):
    dealt = random_deal(seats, random.Random(seats))
    assert [len(h) for h in dealt.hands] == [7] * seats
    assert len(dealt.bazaar) == bazaar
    assert {t for h in dealt.hands for t in h} | set(dealt.bazaar) == set(TILES)


# The redeal rule (RULES.md 3.3), at exactly its thresholds.
@pytest.mark.parametrize("hand, redeal", [
    ("0-0 1-1 2-2 3-3 4-4 0-1 2-3", True),   # 5 doubles
    ("0-0 1-1 2-2 3-3 4-4 5-5 0-1", True),   # 6 doubles
    ("0-0 1-1 2-2 3-3 0-1 2-3 4-5", False),  # 4 doubles
    ("0-1 1-2 1-3 1-4 1-5 1-6 2-3", True),   # 6 tiles of value 1
    ("1-1 0-1 1-2 1-3 1-4 1-5 2-3", True),   # 6 of value 1, the double counted once
    ("0-1 1-2 1-3 1-4 1-5 2-3 2-4", False),  # 5 of value 1, 3 of value 2
    ("1-1 0-1 1-2 1-3 1-4 2-3 4-5", False),  # 5 of value 1 with the double
])
def test_redeal_triggers_at_five_doubles_or_six_tiles_of_one_value(hand, redeal):
    assert needs_redeal(tiles(hand)) is redeal


def test_a_deal_needing_a_redeal_is_refused():
    dealt = deal("0-0 1-1 2-2 3-3 4-4 0-1 2-3", "0-2 0-3 0-4 0-5 0-6 1-2 1-3")
    with pytest.raises(InvalidDeal, match="redealt"):
        check_deal(dealt, 2)


@pytest.mark.parametrize("hand", [FIVE_DOUBLES, SIX_OF_A_VALUE])
@pytest.mark.parametrize("seats, seat", EVERY_SEAT)
def test_an_explicit_deal_is_refused_whichever_seat_holds_a_hand_to_redeal(hand, seats, seat):
    with pytest.raises(InvalidDeal, match=f"seat {seat} should have been redealt"):
        start_round(new_game(seats), deal_with(hand, seat, seats))


@pytest.mark.parametrize("hand, lawful", REDEAL_THRESHOLDS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_an_explicit_deal_at_the_redeal_thresholds(hand, lawful, seats):
    last = seats - 1  # the seat a check of the first hand only would miss
    dealt = deal_with(hand, last, seats)
    if lawful:
        state, _ = start_round(new_game(seats), dealt)
        assert {t.name for t in state.hand(last)} == set(hand.split())
    else:
        with pytest.raises(InvalidDeal, match=f"seat {last} should have been redealt"):
            start_round(new_game(seats), dealt)


def test_a_random_deal_is_shuffled_again_until_no_hand_qualifies():
    # Over many seeds some first shuffles qualify; the dealt hands never do.
    for seed in range(3000):
        dealt = random_deal(4, random.Random(seed))
        assert not any(needs_redeal(h) for h in dealt.hands)


def test_redeal_actually_happens_on_a_qualifying_shuffle():
    class Rigged(random.Random):
        """The first shuffle puts the doubles first (seat 0 gets five); later ones are random."""
        calls = 0

        def random(self):
            self.calls += 1
            if self.calls <= len(TILES):
                t = TILES[self.calls - 1]
                return (0.0 if t.is_double else 0.5) + t.index / 1000
            return super().random()

    rng = Rigged(5)
    dealt = random_deal(2, rng)
    assert rng.calls >= 2 * len(TILES)  # shuffled at least twice
    assert not needs_redeal(dealt.hands[0])


@pytest.mark.parametrize("hands, bazaar, message", [
    (["0-0 0-1 0-2 1-2 3-4 3-5", "1-1 1-3 1-4 2-5 1-6 2-2 4-6"], None, "6 tiles, not 7"),
    (["0-0 0-1 0-2 1-2 3-4 3-5 4-6", "0-0 1-3 1-4 2-5 1-6 2-2 5-6"], None, "28 tiles"),
    (["0-0 0-1 0-2 1-2 3-4 3-5 4-6", "1-1 1-3 1-4 2-5 1-6 2-2 5-6"], "2-3", "28 tiles"),
])
def test_a_deal_must_hold_the_28_tiles_once_each_and_7_per_hand(hands, bazaar, message):
    with pytest.raises(InvalidDeal, match=message):
        check_deal(deal(*hands, bazaar=bazaar), 2)


def test_the_non_double_lead_order_is_by_pip_sum_then_higher_half():
    assert [t.name for t in NON_DOUBLE_LEAD_ORDER] == (
        "5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4 0-5 1-4 2-3 0-4 1-3 0-3 1-2 0-2 0-1"
    ).split()


def test_a_real_game_deals_from_the_system_random_generator_when_given_nothing(os_random_draws):
    state, events = start_round(new_game(3))
    assert state.phase == "play" and events[0]["bazaar"] == 7
    # Shuffling 28 tiles takes at least 27 random numbers (one per tile but the last);
    # a generator seeded once from the system would have asked it for one.
    assert len(os_random_draws) >= 27


def test_two_real_deals_differ_after_the_same_seed_of_pythons_generator():
    # Seeding Python's shared generator the same way twice would repeat a deal drawn
    # from it; two deals agree by chance once in 28! / (7!)^4, about 4.7e14.
    random.seed(2024)
    first, _ = start_round(new_game(4))
    random.seed(2024)
    second, _ = start_round(new_game(4))
    assert first.hands != second.hands
