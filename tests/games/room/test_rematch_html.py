"""The offer of one more game as each reader sees it (games/room/rematch.py): answer
buttons only for a person yet to answer, the way to the new game only for its people
while it is played, names escaped by the template engine, in Russian and English."""

import pytest
from django.utils import translation

from games.room.rematch import html

HOSTILE = "<b>\"Маша\" & 'Петя'</b>"


def offer(status="open", reason="", by="", accepted=(False, True), playing=False):
    return {"step": 1, "game": 7, "status": status, "reason": reason, "by": by,
            "table": 8 if status != "withdrawn" else None, "commitment": "ab" * 32,
            "playing": playing, "expires_ms": 1_900_000_000_000,
            "people": [{"seat": 0, "name": HOSTILE, "user": 11, "accepted": accepted[0]},
                       {"seat": 1, "name": "Бот Гоша", "user": None, "accepted": True}]}


def shown(language, the_offer, reader):
    with translation.override(language):
        return html(the_offer, reader)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_person_yet_to_answer_gets_the_buttons_a_visitor_only_the_list(language):
    mine = shown(language, offer(), 11)
    assert 'data-action="rematch-accept"' in mine and 'name="client_seed"' in mine
    assert "ab" * 32 in mine and "data-deadline=\"1900000000000\"" in mine
    visitor = shown(language, offer(), None)
    assert "rematch-accept" not in visitor and "client_seed" not in visitor
    assert "ab" * 32 in visitor
    for text in (mine, visitor):  # escaped by the engine, never markup
        assert HOSTILE not in text and "&lt;b&gt;" in text
    assert ("Ещё партию?" if language == "ru" else "One more game?") in mine


def test_an_answered_person_may_still_decline():
    page = shown("ru", offer(accepted=(True, True)), 11)
    assert "rematch-accept" not in page and 'data-action="rematch-decline"' in page
    assert "Вы согласились: ждём остальных." in page


def test_only_its_people_are_taken_to_the_new_game_while_it_is_played():
    started = offer("started", accepted=(True, True), playing=True)
    assert 'data-redirect="/games/8/"' in shown("ru", started, 11)
    assert "data-redirect" not in shown("ru", started, None)
    assert 'href="/games/8/"' in shown("ru", started, None)
    over = offer("started", accepted=(True, True), playing=False)
    assert "data-redirect" not in shown("ru", over, 11)


@pytest.mark.parametrize("reason, ru, en", [
    ("declined", "Отказ: ", "Declined: "),
    ("away", "Нет на странице игры: ", "Away from the game's page: "),
    ("elsewhere", "Уже за другим столом: ", "At another table now: "),
])
def test_a_withdrawn_offer_says_whose_answer_ended_it(reason, ru, en):
    the_offer = offer("withdrawn", reason, by=HOSTILE)
    assert ru + "&lt;b&gt;" in shown("ru", the_offer, 11)
    assert en.replace("'", "&#39;") + "&lt;b&gt;" in shown("en", the_offer, 11)
    assert "rematch-accept" not in shown("ru", the_offer, 11)


def test_a_withdrawn_offer_nobody_answered_in_time():
    assert "Ответили не все: время вышло." in shown("ru", offer("withdrawn", "expired"), 11)
