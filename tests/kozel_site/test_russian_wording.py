"""The Russian catalogue never guesses a player's gender: a login tells nothing of it.

Russian past-tense verbs agree with the subject's gender ("вышел" / "вышла"), so a name
may only be the subject of a verb in the present tense, or stand after a colon as in
"Вышел из раунда: Маша", where the verb reads as a heading.
"""

import re
from pathlib import Path

import pytest

CATALOGUE = Path(__file__).resolve().parents[2] / "locale/ru/LC_MESSAGES/django.po"
NAME = r"%\((?:name|player|login|who)\)s"
# A past-tense verb in the masculine or feminine: -л, -ла (reflexive -ся/-сь). The neuter
# -ло agrees with a thing ("кончилось время"), not with the player.
PAST_TENSE = r"[а-яё]+(?:л|ла)(?:ся|сь)?"


def russian_texts():
    """Every translation of the catalogue, whole: a msgstr continued over several lines
    (it starts with ``msgstr ""``) and each plural form (``msgstr[n]``) included."""
    texts, current = [], None
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        start = re.match(r'^msgstr(?:\[\d+\])? "(.*)"$', line)
        if start:
            current = [start.group(1)]
            texts.append(current)
        elif current is not None and line.startswith('"'):
            current.append(line[1:-1])
        else:
            current = None
    return ["".join(parts) for parts in texts if "".join(parts)]


def test_the_catalogue_has_texts():
    texts = russian_texts()
    assert len(texts) > 300
    # The long ones, written over several lines, and the plural forms are read too.
    assert any(t.startswith("Две учётные записи, у которых") and t.endswith("рано вышла.")
               for t in texts)


@pytest.mark.parametrize("pattern", [
    NAME + r" (?:не )?" + PAST_TENSE + r"\b",  # "Маша вышел", "Маша не успел"
    r"\b(?:был|была|стал|стала) козл",           # "был козлом"
])
def test_no_text_guesses_the_players_gender(pattern):
    offending = [t for t in russian_texts() if re.search(pattern, t, re.IGNORECASE)]
    assert offending == []


def test_the_pattern_catches_a_guess():
    # The check itself can fail: the old wording is what it must find.
    assert re.search(NAME + r" (?:не )?" + PAST_TENSE + r"\b", "%(name)s вышел из игры")
    assert re.search(NAME + r" (?:не )?" + PAST_TENSE + r"\b", "%(name)s не успел сходить.")
    assert re.search(r"\b(?:был|была|стал|стала) козл", "Был козлом", re.IGNORECASE)
    assert not re.search(NAME + r" " + PAST_TENSE + r"\b", "У игрока %(name)s кончилось время")
