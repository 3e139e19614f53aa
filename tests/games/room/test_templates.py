"""The room's frames from the templates (games/room/html.py, templates/games/room/) are
the frames the f-strings built (bench/room_html_fstrings.py, kept as the baseline): the
same elements, attributes and texts in the same order, in Russian and English, for
every version of whole games (a seat to move, one waiting, a spectator, ends to choose,
draws, round summaries, fish and the fish bank, the game's end), a table waiting for
players, interrupted and aborted games, bots and hostile names.

Only whitespace that does not show is ignored: between the items of the room's flex and
grid boxes (static/css/room.css) and between the parts of a list, table or section.
Every room context is built once and given to both, so that both see the same clock.
"""

import random
import re
from datetime import datetime, timezone
from html import unescape
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from django.utils.translation import templatize

from accounts.models import User
from bench import room_html_fstrings
from games import rules
from games.room import html as room_html
from games.room.present import announce
from games.models import Match, MatchStatus, Seat
from games.room.present import room_context

VOID = {"circle", "line", "rect", "path", "use", "br", "img", "input"}
# Boxes whose whitespace-only text does not render: flex and grid containers of
# static/css/room.css, by class, and elements whose children are all blocks or cells.
WHITESPACE_HIDDEN_IN_CLASSES = {"room", "room-bar", "players", "player", "count", "chain",
                                "hand", "choice", "end-choice", "controls"}
WHITESPACE_HIDDEN_IN_TAGS = {"ol", "ul", "table", "thead", "tbody", "tr", "section",
                             "details"}


class Canonical(HTMLParser):
    """A frame as the tokens a browser would show alike: tags with their attributes in
    order, texts with runs of whitespace as one space, character references apart as the
    characters they stand for (so that what is escaped is compared too, but not whether
    a quote is spelled ``&quot;`` or ``&#34;``), and no whitespace where it does not
    render."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.tokens, self.open = [], []

    def handle_starttag(self, tag, attrs):
        self.tokens.append(("<", tag, tuple(attrs)))
        if tag not in VOID:
            self.open.append((tag, set((dict(attrs).get("class") or "").split())))

    def handle_startendtag(self, tag, attrs):
        self.tokens.append(("<>", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.tokens.append(("</", tag))
        if tag not in VOID:
            assert self.open and self.open[-1][0] == tag, (tag, self.open[-3:])
            self.open.pop()

    def handle_data(self, data):
        text = re.sub(r"\s+", " ", data)
        if text == " " and self.whitespace_hidden():
            return
        self.tokens.append(("text", text))

    def handle_entityref(self, name):
        self.tokens.append(("&", unescape(f"&{name};")))

    def handle_charref(self, name):
        self.tokens.append(("&", unescape(f"&#{name};")))

    def whitespace_hidden(self) -> bool:
        if not self.open:
            return True  # between the frame's top elements
        tag, classes = self.open[-1]
        return tag in WHITESPACE_HIDDEN_IN_TAGS or bool(classes & WHITESPACE_HIDDEN_IN_CLASSES)


def canonical(frame: str) -> list:
    parser = Canonical()
    parser.feed(frame)
    parser.close()
    assert parser.open == [], parser.open[-3:]
    return parser.tokens


def test_the_canonical_form_ignores_only_whitespace_that_does_not_show():
    # Indentation between a flex box's items is nothing; a space between inline words or
    # inside a text is kept (once), and so is how a text is escaped.
    assert canonical('<div class="hand">\n  <button>a</button>\n</div>') \
        == canonical('<div class="hand"><button>a</button></div>')
    assert canonical('<p><a>x</a> <a>y</a></p>') != canonical('<p><a>x</a><a>y</a></p>')
    assert canonical('<p>Goat:  <b>x</b></p>') == canonical('<p>Goat: <b>x</b></p>')
    assert canonical('<p>&quot;a&quot; &amp; b</p>') == canonical('<p>&#34;a&#34; &#x26; b</p>')
    assert canonical('<p>&quot;a&quot;</p>') != canonical('<p>"a"</p>')
    assert canonical('<b title="a">x</b>') != canonical('<b title="b">x</b>')


HOSTILE = "<b>\"Маша\" & 'Петя'</b>"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
EVENTS = [{"type": "knocked", "seat": 0, "auto": True}, {"type": "knocked", "seat": 1},
          {"type": "round_ended", "seat": 0, "result": "out"},
          {"type": "round_ended", "seat": 1, "result": "fish"},
          {"type": "interrupted", "seat": 0, "reason": "timeout"},
          {"type": "interrupted", "seat": 1, "reason": "left"},
          {"type": "game_over"}, {"type": "aborted"}]


def seats_of(count: int, bots: int = 0) -> list:
    """Seats with people (one of them named to break markup) and, last, bots."""
    names = ["игрок0", HOSTILE, "player2", "игрок3"]
    return [Seat(number=n, user=None, bot_name=f"бот {n}") if n >= count - bots
            else Seat(number=n, user=User(pk=n + 1, username=names[n])) for n in range(count)]


def whole_game(seats: int, fish: str, seed: int) -> list:
    """Every state of a random game: before the first deal, after each deal and each
    action, between rounds (their summary shown) and at the end."""
    rng = random.Random(seed)
    state = rules.new_game(seats, fish)
    states = [state]
    while not state.over:
        state, _events = rules.start_round(state, rng=rng)
        states.append(state)
        while state.phase == rules.PLAYING:
            state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
            states.append(state)
    return states


def match_at(state, version: int, seats: int, status=MatchStatus.PLAYING, rated=True,
             result=None) -> Match:
    return Match(pk=7, seats_count=seats, status=status, version=version, rated=rated,
                 deadline=NOW if status == MatchStatus.PLAYING else None, result=result,
                 state=state.to_json() if state is not None else None)


def ended(state, seats: int, rated: bool) -> tuple:
    """The match of a game that is over, with its result as services._end writes it."""
    status = MatchStatus.FINISHED if state.phase == rules.FINISHED else MatchStatus.INTERRUPTED
    result = {"goats": list(state.goats), "interrupted_by": state.interrupted_by,
              "reason": state.interrupt_reason, "scores": list(state.scores),
              "rating_points": [3 * n - 2 for n in range(seats)] if rated else None}
    return match_at(state, 999, seats, status, rated, result), state


def scenes() -> list:
    """(match, seats, state) of every kind of room, the whole games' versions first."""
    out = []
    # (seeds whose games have a fish, a fish bank and draws from the bazaar among them)
    for seats, fish, bots, seed in ((2, rules.FISH_ONE, 0, 6), (3, rules.FISH_ALL, 1, 13),
                                    (4, rules.FISH_ONE, 2, 7)):
        people = seats_of(seats, bots)
        states = whole_game(seats, fish, seed)
        out += [(match_at(s, v, seats), people, s) for v, s in enumerate(states[:-1])]
        out.append((*ended(states[-1], seats, rated=seed % 2 == 0)[:1], people, states[-1]))
        middle = states[len(states) // 2]
        for seat, reason in ((0, rules.TIMEOUT), (1, rules.LEFT_GAME)):
            interrupted, _events = rules.interrupt(middle, seat, reason)
            out.append((ended(interrupted, seats, rated=seed % 2 == 1)[0], people, interrupted))
        out.append((match_at(middle, 500, seats, MatchStatus.ABORTED), people, middle))
    out.append((match_at(None, 3, 4, MatchStatus.WAITING), seats_of(2), None))
    return out


def viewers(match, people) -> list:
    """Who looks at a scene: of a running game's versions one seat or the spectator in
    turn (over a whole game each of them sees every kind of moment), of every other
    scene all seats and a spectator."""
    everyone = [*range(len(people)), None]
    if match.status == MatchStatus.PLAYING:
        return [everyone[match.version % len(everyone)]]
    return everyone


def frames(language: str):
    """(old frame, new frame) of every scene, for its viewers."""
    with translation.override(language):
        for match, people, state in scenes():
            shared_context, shared_parts = {}, {}
            for seat in viewers(match, people):
                context = room_context(match, seat, state=state, seats=people,
                                       shared=shared_context)
                lines = announce(EVENTS if match.version % 7 == 0 else (), context["names"])
                yield (room_html_fstrings.room(context, lines, shared_parts, language),
                       room_html.room(context, lines))


# What the scenes must show at least once, so that no part of the room goes unchecked:
# hooks and markup, then words of each language.
SHOWN = ['data-status="waiting"', "data-choose-end", 'data-action="draw"', 'class="hint"',
         'class="summary"', 'class="bank"', 'class="remembered"', 'class="score"',
         'class="zero"', 'class="bot"', "goat-badge", 'class="announcements"',
         'class="rating-points"', 'class="game-end"', "Маша"]
WORDS = {
    "en": ["Fish, placed by", "went out", "The fish bank carries", "next round",
           "The game is over", "ran out of time", "left the game.", "A moderator stopped",
           "unrated game", "rating +", "Your turn.", "Waiting for", "to move."],
    "ru": ["Рыба, рыбак", "Вышел из раунда", "По рыбе +", "следующий раунд", "Игра окончена",
           "Козёл", "Ваш ход.", "базар", "Раунд "],
}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_templates_give_the_frames_the_f_strings_gave(language):
    compared, shown = 0, set()
    for old, new in frames(language):
        assert canonical(new) == canonical(old)
        assert HOSTILE not in new and "<b>&" not in new
        compared += 1
        shown.update(mark for mark in SHOWN + WORDS[language] if mark in new)
    # 3 whole games of 127-205 versions, each version seen by one of its viewers, and
    # the ends, interruptions and aborts by all
    assert compared > 450
    assert shown == set(SHOWN + WORDS[language]), set(SHOWN + WORDS[language]) - shown


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
    assert room.get_template("games/room/room.html") is room.get_template("games/room/room.html")
    django_templates = engines["django"]
    assert django_templates.get_template("games/_round_table.html").template \
        is django_templates.get_template("games/_round_table.html").template
