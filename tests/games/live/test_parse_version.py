"""The room reads a move's version as the page sends it and refuses anything else
(a refusal, never an exception: tests/faults/test_fuzz.py found "²")."""

import pytest

from games.live.base import parse_version


@pytest.mark.parametrize("sent, read", [(0, 0), (17, 17), ("17", 17), ("000", 0)])
def test_a_version_is_a_whole_number_or_its_ascii_digits(sent, read):
    assert parse_version(sent) == read


@pytest.mark.parametrize("sent", ["²", "١٢", "１２", "-1", -1, "1.5", 1.5, True, None, "",
                                  "1" * 13, [1], {"v": 1}])
def test_anything_else_is_no_version(sent):
    assert parse_version(sent) is None
