"""The rating chart (ratings/chart.py): a staircase in SVG path data, thinned when long."""

from datetime import datetime, timedelta, timezone

from ratings.chart import HEIGHT, WIDTH, rating_axis, rating_chart, thin

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def test_no_history_no_chart():
    assert rating_chart([]) is None


def test_a_staircase_from_zero_through_every_record():
    chart = rating_chart([(T0 + timedelta(days=1), 8), (T0 + timedelta(days=2), 11)], start=T0,
                         now=T0 + timedelta(days=4))
    assert chart.path.startswith("M44,")
    assert chart.path.count("H") == 3 and chart.path.count("V") == 2
    assert chart.last[2] == 11 and chart.last[0] == str(WIDTH - 12)
    assert [value for _, value in chart.y_ticks] == [0, 5, 10, 15]
    assert chart.area.endswith("Z")
    for y, _ in chart.y_ticks:
        assert 0 <= float(y) <= HEIGHT


def test_the_y_axis_has_few_whole_round_ticks_from_zero_to_the_highest_rating():
    assert rating_axis(1) == [0, 1]
    assert rating_axis(0) == [0, 1]
    assert rating_axis(3) == [0, 1, 2, 3]
    assert rating_axis(7) == [0, 2, 4, 6, 8]
    assert rating_axis(11) == [0, 5, 10, 15]
    assert rating_axis(101) == [0, 50, 100, 150]
    assert rating_axis(4100) == [0, 2000, 4000, 6000]
    for highest in range(0, 3000, 7):
        ticks = rating_axis(highest)
        assert len(ticks) <= 5 and ticks[0] == 0 and ticks[-1] >= highest
        assert all(isinstance(t, int) for t in ticks)
        assert len({b - a for a, b in zip(ticks, ticks[1:])}) == 1  # evenly spaced


def test_a_rating_of_one_is_drawn_on_ticks_0_and_1():
    chart = rating_chart([(T0 + timedelta(days=1), 1)], start=T0, now=T0 + timedelta(days=2))
    assert [value for _, value in chart.y_ticks] == [0, 1]


def test_a_long_history_is_thinned_but_keeps_its_end_and_its_drops():
    points, rating = [], 0
    for i in range(20_000):
        rating += i % 3
        points.append((T0 + timedelta(minutes=i), rating))
    points.insert(10_000, (points[9_999][0] + timedelta(seconds=1), 5))  # an annulment's drop
    kept = thin(points, 584)
    assert len(kept) <= 2 * 584 + 1
    assert kept[-1] == points[-1] and kept[0] == points[0]
    assert (points[10_000][0], 5) in kept
    assert [p[0] for p in kept] == sorted(p[0] for p in kept)


def test_the_database_gives_the_chart_its_times_as_seconds(db, make_user, make_match):
    """ratings.history reads times as numbers (Epoch): the same moments on either database."""
    import pytest

    from ratings.history import Epoch
    from ratings.models import RatingRecord
    from ratings.services import record_game

    masha, olya = make_user("masha"), make_user("olya")
    moment = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=timezone.utc)
    match = make_match([masha, olya], status="finished", ended_at=moment)
    record_game(match, [8, 0], [1])
    seconds = list(RatingRecord.objects.order_by("id").values_list(Epoch("created_at"), flat=True))
    assert seconds == [pytest.approx(moment.timestamp(), abs=0.001)] * 2
