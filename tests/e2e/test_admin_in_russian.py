"""The admin and the moderation pages as a moderator sees them, in Russian, in a real
browser on a desktop: every page the moderator can open from the admin's index (each
list, the first record of each and its history), django-axes' log-in lists included, and
each moderation page; their visible text without English words but for the data
(logins, a bot's name, a path, what a browser sent, tokens and hashes); a screenshot of
each kept in test-artifacts/screenshots/ (admin-*.png, staff-moderation-*.png)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group

from accounts.moderators import GROUP_NAME

from .page_checks import SCREENSHOTS, SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A word in Latin letters; those the data put there are allowed (below).
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
DATA = {
    "masha", "olya", "moder", "Bot", "ID", "IP",  # logins, a bot's name, abbreviations
    "Firefox", "html", "text", "accounts", "login",  # what a browser sent, a path
    "unknown",  # django-axes' word for a header a browser did not send
    "RU", "EN",  # the site's switch between its two languages
    "moderators",  # the staff group's name (accounts/moderators.py), data not a label
}
# Fields whose values are data: tokens, a password's hash, a move's JSON, what a browser
# sent (django-axes keeps "<unknown>" where it sent nothing).
DATA_FIELDS = ", ".join(f".field-{name}" for name in (
    "invite_token", "password", "payload", "user_agent", "http_accept", "path_info",
    "get_data", "post_data"))


def english_words(page) -> list[str]:
    page.evaluate("selector => document.querySelectorAll(selector).forEach("
                  "e => e.remove())", DATA_FIELDS)
    text = page.locator("#content, #header, #nav-sidebar, .breadcrumbs, body > header, main").evaluate_all(
        "els => els.map(e => e.innerText).join('\\n')")
    words = {w for w in WORD.findall(text) if w.lower() not in {d.lower() for d in DATA} and not re.fullmatch(r"[0-9a-f]+", w)}
    return sorted(words)


def test_the_admin_as_a_moderator_sees_it_is_russian(people, daphne_server, make_user,
                                                       make_match, subtests):
    from games.models import Move, MoveKind

    masha, olya = make_user("masha"), make_user("olya")
    match = make_match([masha, olya, None], status="finished", fish="one")
    Move.objects.create(match=match, number=1, kind=MoveKind.DEAL, payload={"seed": 1})
    Move.objects.create(match=match, number=2, seat=0, kind=MoveKind.PLAY, payload={"tile": "1-1"})
    from axes.models import AccessAttempt, AccessFailureLog

    for model in (AccessAttempt, AccessFailureLog):  # masha mistyped her password
        model.objects.create(username="masha", ip_address="192.0.2.7", user_agent="Firefox",
                             http_accept="text/html", path_info="/accounts/login/",
                             **({"failures_since_start": 3, "get_data": "", "post_data": ""}
                                if model is AccessAttempt else {}))
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    person = people("moder")
    person.log_in_as(moderator, daphne_server)
    page = person.page
    page.set_viewport_size(SIZES["desktop"])
    page.goto("/admin/")
    lists = sorted(set(page.locator("#content a[href$='/']").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")))
    assert lists, "the moderator sees no list in the admin"
    from games.models import ChatMessage, ChatReport

    line = ChatMessage.objects.create(match=match, author=olya, room="players", text="привет")
    ChatReport.objects.create(message=line, reporter=masha)
    pages = [("index", "/admin/")]
    for href in lists:
        pages.append((href.strip("/").replace("/", "-"), href))
        page.goto(href)
        first = page.locator("#result_list tbody th a, #result_list tbody td a").first
        if first.count():
            record = first.get_attribute("href")
            pages.append((record.strip("/").replace("/", "-"), record))
            pages.append((record.strip("/").replace("/", "-").replace("change", "history"),
                          record.replace("/change/", "/history/")))
    # The moderation pages, the staff's own, by the same measure.
    pages += [(f"staff-moderation-{n}", p) for n, p in (
        ("index", "/moderation/"), ("chat", "/moderation/chat/"),
        ("suspicious", "/moderation/suspicious/"), ("find-game", "/moderation/games/"),
        ("game", f"/moderation/games/{match.pk}/"), ("find-player", "/moderation/players/"),
        ("player", "/moderation/players/masha/"))]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, path in pages:
        with subtests.test(msg=path):
            response = page.goto(path)
            assert response.status == 200, path
            page.screenshot(path=str(SCREENSHOTS / f"{name}-desktop.png"), full_page=True)
            assert english_words(page) == [], path
    assert person.errors == []
