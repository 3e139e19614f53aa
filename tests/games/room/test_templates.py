"""What each fragment of the room's frame (games/room/html.py, templates/games/room/) must
show and must never show, over every version of whole games of 2, 3 and 4 players and a
pair game, interrupted and aborted games and a table waiting for players
(tests/games/room/scenes.py), in Russian and English:

- ``#table`` is one markup for every viewer of a version: byte for byte what each seat
  and a spectator is sent; while a round is played it names no tile but the chain's (no
  hand's, no bazaar's), and after it no tile of the bazaar;
- ``#room`` names only the viewer's own tiles (a spectator's none), and carries the
  version only in the buttons of a seat that may act;
- every hook and text the room has is shown somewhere, and hostile names are escaped.
"""

import re

import pytest
from django.conf import settings
from django.template import engines
from django.utils.translation import templatize

from games import rules
from games.models import MatchStatus
from games.room import cache

from .scenes import HOSTILE, scenes

TILE_NAME = re.compile(r"(?<![\w-])([0-6])-([0-6])(?![\w-])")


def tiles_named(markup: str) -> set[str]:
    """Every tile a fragment names: in data-tile, data-revealed, labels and texts (the
    drawings' paths and view boxes are numbers, not tiles)."""
    markup = re.sub(r'\s(?:d|viewBox)="[^"]*"', "", markup)
    return {f"{min(a, b)}-{max(a, b)}" for a, b in TILE_NAME.findall(markup)}


def split(frame: str) -> tuple[str, str]:
    """A frame's two fragments: the viewer's own (#room), then the table."""
    at = frame.index('<div id="table"')
    return frame[:at], frame[at:]


def viewers(match, people) -> list:
    return [*range(len(people)), None]


def names(tiles) -> set[str]:
    return {t.name for t in tiles}


def frames(language: str):
    """(match, state, seat, own part, table) of every scene, for all its viewers."""
    for match, people, state in scenes():
        snapshot = cache.Snapshot(match, people, [], state)
        for seat in viewers(match, people):
            own, table = split(cache.render(snapshot, seat, language))
            yield match, state, seat, own, table


# What the scenes must show at least once, so that no part of the room goes unchecked:
# hooks and markup, then words of each language.
SHOWN = ['data-status="waiting"', "data-choose-end", 'data-action="draw"', 'class="hint"',
         'class="summary"', 'class="bank"', 'class="remembered"', 'class="score"',
         'class="zero"', "goat-badge", 'class="round-log"', 'data-kind="draw"',
         'data-kind="knock"', 'class="rating-points"', 'class="game-end"', "Маша",
         'class="open-end"', 'class="bazaar-pile"', 'class="pair-scores"', 'class="why"',
         'class="bank-note"', 'data-bot-thinking', 'data-deadline', "data-to-move",
         'class="chain-tile double', 'last"', 'data-end="left" data-for',
         # sea goat (RULES.md 13)
         "data-writing-now", "data-writing-summary", "data-writing-notes", 'class="writing-badge"',
         "data-with=", "data-doubles=", "data-winners", 'class="winner-badge"']
WORDS = {
    "en": ["Fish, placed by", "went out", "The fish bank +", "next round", "on the",
           "draws from the bazaar", "knocks", "leads with",
           "The game is over", "ran out of time", "left the game.", "A moderator stopped",
           "unrated game", "rating +", "Your turn.", "leads.", "fish for one — the sum of",
           "the points left in hand", "score opened", "remembered points lost",
           "kept as remembered points", "fish for all —", "nothing credited",
           "Writing:", "Nobody is writing", "The round is won by:", "Winner",
           "Sea goat games are unrated.", "at once"],
    "ru": ["Рыба, рыбак", "Вышел из раунда", "Банк +", "следующий раунд", "Игра окончена",
           "Козёл", "Ваш ход.", "базар", "Раунд ", " к ", "открытый конец", "берёт с базара",
           ": стук", "заход", "рыба на одного — сумма всех очков", "очки на руке",
           "счёт открыт", "запомненные очки сгорели", "в запомненные", "ничего не начислено",
           "Пишет:", "Никто не пишет", "Раунд выигрывает:", "Победитель",
           "Партии в морского козла не идут в рейтинг.", "сразу"],
}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["ru", "en"])
def test_each_fragment_shows_what_it_must_and_never_what_it_must_not(language):
    shown, versions, tables = set(), 0, {}
    for match, state, seat, own, table in frames(language):
        # One table for all the viewers of a version.
        key = (id(state), match.status, match.version)
        the_same = re.sub(r' data-now="\d+"', "", table)  # the clock is read per frame
        assert tables.setdefault(key, the_same) == the_same, (match.version, seat)
        assert own.startswith('<div id="room" class="seat-part" hx-swap-oob="true" data-game')
        assert table.startswith('<div id="table" class="table" hx-swap-oob="true"')
        assert HOSTILE not in own + table and "<b>&" not in own + table
        if state is not None:
            hidden = names(rules.TILES[i] for i in state.bazaar)
            assert not tiles_named(table) & hidden and not tiles_named(own) & hidden
            chain = {f"{min(a, b)}-{max(a, b)}" for a, b in state.chain}
            if state.phase == rules.PLAYING:
                assert tiles_named(table) <= chain, (tiles_named(table) - chain, match.version)
            mine = names(state.hand(seat)) if seat is not None else set()
            assert tiles_named(own) <= mine
            # Only a seat that may act now carries the version in its buttons (a seat that
            # can only knock never waits: the server knocks for it).
            may_act = seat is not None and state.phase == rules.PLAYING and state.turn == seat \
                and match.status == MatchStatus.PLAYING \
                and rules.legal_actions(state)[0].kind != rules.KNOCK
            assert ('"version": ' in own) == may_act, (seat, match.version)
        if seat is None:
            assert "data-hand" not in own and 'data-turn-mine="false"' in own
        versions += 1
        shown.update(mark for mark in SHOWN + WORDS[language] if mark in own + table)
    assert versions > 1500
    assert shown == set(SHOWN + WORDS[language]), set(SHOWN + WORDS[language]) - shown


def test_the_tiles_check_finds_a_tile_named_anywhere():
    # The check itself can fail: a tile in a text, a label or a hook is found; a
    # drawing's numbers are not tiles.
    assert tiles_named('<li>Маша: 3-6 справа</li>') == {"3-6"}
    assert tiles_named('<span data-tile="5-2">') == {"2-5"}
    assert tiles_named('<svg viewBox="0 0 30 60" aria-label="0-1"><path d="M2 8c4-6 12-7"/>') == {"0-1"}


ROOM_TEMPLATES = sorted((settings.BASE_DIR / "templates" / "games" / "room").glob("*.html"))


@pytest.mark.parametrize("path", ROOM_TEMPLATES, ids=lambda path: path.name)
def test_make_messages_finds_every_text_of_the_room(path):
    # `make messages` keeps only the msgids it finds (--no-obsolete), and it reads these
    # Jinja2 templates as Django templates: a _("...") is found at the start of a {{ }}
    # or anywhere in a {% %}, not as an argument inside a {{ }} (hence the {% set %}s).
    source = path.read_text()
    texts = re.findall(r'_\("(.*?)"\)', source)
    assert texts
    assert set(texts) <= set(re.findall(r'_\("(.*?)"\)', templatize(source, origin=str(path))))


def test_room_templates_are_compiled_once_and_kept():
    # Both engines keep what they compiled: Django's cached loader (the score table),
    # Jinja2's own cache (the room); a frame never reads or parses a file.
    room = engines["jinja2"].env
    assert room.get_template("games/room/table.html") is room.get_template("games/room/table.html")
    django_templates = engines["django"]
    assert django_templates.get_template("games/_round_table.html").template \
        is django_templates.get_template("games/_round_table.html").template
