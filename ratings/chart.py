"""A player's rating over time as an SVG chart, drawn on the server (no chart library).

The rating only changes at a game's end (or an annulment), so the line is a staircase:
flat between records, a step at each one.  A long history is thinned to at most a few
points per pixel column: the lowest and the highest rating in the column, in time order,
which keeps every step and drop that the eye could see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

# Drawn in a small box and scaled by the browser: on a phone the labels stay readable.
WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30     # margins for the labels
MAX_INTERVALS = 4                             # between the y axis's ticks


@dataclass
class Chart:
    width: int
    height: int
    path: str                      # the staircase, as SVG path data
    area: str                      # the same, closed to the axis, for a light fill
    y_ticks: list[tuple[str, int]]
    x_ticks: list[tuple[str, datetime]]
    last: tuple[str, str, int]      # where the current rating is drawn, and its value
    count: int                      # records drawn from
    marks: list[tuple[str, str]]    # the steps of games played in pairs, one a pixel column
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT
    plot_bottom: int = HEIGHT - BOTTOM


def rating_axis(highest: int) -> list[int]:
    """The y axis's ticks for ratings up to ``highest``: whole numbers from 0, a round
    step apart (1, 2, 5, 10, 20, 50, ...), at most MAX_INTERVALS of them, the last at or
    above ``highest`` (a rating of 1 gets 0 and 1, not 0, 2.5, 5, 7.5, 10)."""
    highest = max(highest, 1)
    scale = 1
    while True:
        for multiple in (1, 2, 5):
            step = multiple * scale
            if -(-highest // step) <= MAX_INTERVALS:
                return [step * i for i in range(-(-highest // step) + 1)]
        scale *= 10


def _seconds(when) -> float:
    """A moment as seconds since 1970: a datetime, or already a number."""
    return when.timestamp() if isinstance(when, datetime) else float(when)


def thin(points: list[tuple], columns: int) -> list[tuple]:
    """At most the lowest and the highest point of each of ``columns`` time columns.

    Times are datetimes or seconds since 1970 (what ratings.history reads: a keen
    player's thousands of records load much faster as numbers)."""
    if len(points) <= 2 * columns:
        return points
    first = _seconds(points[0][0])
    span = (_seconds(points[-1][0]) - first) or 1
    kept, column, low, high = [], None, None, None

    def flush():
        if low is not None:
            kept.extend(sorted({low, high}, key=lambda p: p[0]) if low != high else [low])

    for point in points:
        here = int((_seconds(point[0]) - first) / span * (columns - 1))
        if here != column:
            flush()
            column, low, high = here, point, point
        else:
            low = point if point[1] < low[1] else low
            high = point if point[1] >= high[1] else high
    flush()
    if kept[-1] != points[-1]:
        kept.append(points[-1])  # the current rating is always the line's end
    return kept


def rating_chart(points: list[tuple], start: datetime | None = None,
                 now: datetime | None = None, marked: list[tuple] = ()) -> Chart | None:
    """The chart of ``points`` (time, rating after), oldest first; None with no points.
    Times are datetimes or seconds since 1970.

    The line starts at 0 at ``start`` (the account's creation) and runs on, flat, to
    ``now``.  ``marked`` (time, rating after) are steps to mark with a dot: the games
    played in pairs, one dot a pixel column however many share it.
    """
    if not points:
        return None
    count = len(points)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    points = thin(points, plot_w)
    begin = min(_seconds(start or points[0][0]), _seconds(points[0][0]))
    end = max(_seconds(now or points[-1][0]), _seconds(points[-1][0]))
    span = (end - begin) or 1
    ticks = rating_axis(max(rating for _, rating in points))
    top = ticks[-1]

    # Coordinates as short strings ("44", "120.5"): they go straight into the SVG, and a
    # number would be localized by the template ("120,5" in Russian).
    def x(when):
        return f"{round(LEFT + (_seconds(when) - begin) / span * plot_w, 1):g}"

    def y(rating):
        return f"{round(TOP + plot_h - rating / top * plot_h, 1):g}"

    steps = [f"M{x(begin)},{y(0)}"]
    for when, rating in points:
        steps.append(f"H{x(when)}V{y(rating)}")
    steps.append(f"H{x(end)}")
    path = "".join(steps)
    area = f"{path}V{y(0)}Z"
    y_ticks = [(y(value), value) for value in ticks]
    x_ticks = [(x(moment), datetime.fromtimestamp(moment, timezone.utc)) for moment in (begin, end)]
    marks = list({round(float(x(when))): (x(when), y(rating)) for when, rating in marked}.values())
    return Chart(WIDTH, HEIGHT, path, area, y_ticks, x_ticks,
                 (x(end), y(points[-1][1]), points[-1][1]), count, marks)
