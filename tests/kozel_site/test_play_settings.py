"""Play settings read from the environment: tests that drive a real server shorten them."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from kozel_site import env


def test_bot_delay_defaults_to_a_human_pace():
    assert env.env_seconds_range({}, "KOZEL_BOT_DELAY", (0.8, 2.0)) == (0.8, 2.0)


@pytest.mark.parametrize("raw, expected", [
    ("0.05,0.1", (0.05, 0.1)),
    (" 0.05 , 0.1 ", (0.05, 0.1)),
    ("0", (0.0, 0.0)),
    ("1.5", (1.5, 1.5)),
])
def test_bot_delay_from_the_environment(raw, expected):
    assert env.env_seconds_range({"KOZEL_BOT_DELAY": raw}, "KOZEL_BOT_DELAY", (0.8, 2.0)) == expected


@pytest.mark.parametrize("raw", ["fast", "0.2,0.1", "-1,2", "1,2,3", "1,"])
def test_a_garbled_bot_delay_is_refused(raw):
    with pytest.raises(ImproperlyConfigured, match="KOZEL_BOT_DELAY"):
        env.env_seconds_range({"KOZEL_BOT_DELAY": raw}, "KOZEL_BOT_DELAY", (0.8, 2.0))
