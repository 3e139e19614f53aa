"""A bot's name is kept as the lobby gave it and shown in the viewer's language (issue 42):
a game record and a notice carry it as kept; whatever joins names makes them text."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.utils import translation

from games.models import BOT_NAMES, Match
from games.records.log import record_of

pytestmark = pytest.mark.django_db


def test_a_bots_name_is_shown_in_the_viewers_language_and_kept_as_given(make_user, make_match):
    match = make_match([make_user("masha"), None])
    match.seats.filter(number=1).update(bot_name="Бот Петрович")
    bot = match.seats.get(number=1)
    with translation.override("en"):
        assert str(bot.name) == "Bot Petrovich"
    with translation.override("ru"):
        assert str(bot.name) == "Бот Петрович"
    assert bot.kept_name == "Бот Петрович"
    assert set(BOT_NAMES) >= {"Бот Гоша", "Бот Петрович", "Бот Люба", "Бот Семёныч"}
    # A name the site does not give stays as it is.
    bot.bot_name = "Бот Маша"
    assert bot.name == "Бот Маша"


def test_what_joins_or_carries_names_gets_text(make_user, make_match):
    match = make_match([make_user("masha"), None])
    match.seats.filter(number=1).update(bot_name="Бот Люба")
    assert record_of(match).players == ["masha", "Бот Люба"]
    with translation.override("en"):
        assert admin.site._registry[Match].players(match) == "masha, Bot Lyuba"
