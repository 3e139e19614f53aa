"""Golden game records, designed by hand from RULES.md (not written by the engine).

Each module holds one game: ``RECORD`` (a ``kozel-record/1`` document, RECORD.md) and
``EXPECTED`` (the line ``manage.py replay`` must print for it).  The deals and moves are
designed on paper in the comments (``L``/``R`` are the open ends after each play), and
every expected number is worked out by hand beside its round from RULES.md 7-9.

Tile pips, for checking the sums: 0-0 0, 0-1 1, 0-2 2, 0-3 3, 0-4 4, 0-5 5, 0-6 6,
1-1 2, 1-2 3, 1-3 4, 1-4 5, 1-5 6, 1-6 7, 2-2 4, 2-3 5, 2-4 6, 2-5 7, 2-6 8,
3-3 6, 3-4 7, 3-5 8, 3-6 9, 4-4 8, 4-5 9, 4-6 10, 5-5 10, 5-6 11, 6-6 12.
"""


def play(seat: int, tile: str, end: str | None = None) -> dict:
    move = {"seat": seat, "play": tile}
    if end is not None:
        move["end"] = end
    return move


def draw(seat: int) -> dict:
    return {"seat": seat, "draw": True}
