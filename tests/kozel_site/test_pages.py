"""Every page: Russian by default, English on request, a language switch, own assets only."""

import re

import pytest

PAGES = [
    "/",
    "/rules/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/sent/",
    "/players/masha/",
]


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_russian_by_default_with_a_language_switch(client, user, path):
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="ru">' in page
    assert "Правила" in page and "Лобби" in page
    assert 'action="/i18n/setlang/"' in page
    assert 'name="language" value="ru"' in page and 'name="language" value="en"' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


@pytest.mark.parametrize("path", PAGES)
def test_an_english_browser_gets_english(client, user, path):
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert '<html lang="en">' in page
    assert "Rules" in page and "Lobby" in page and "Лобби" not in page


def test_an_unsupported_browser_language_falls_back_to_russian(client, db):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert '<html lang="ru">' in page


def test_the_switch_changes_the_language_and_returns_to_the_page(client, db):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert response.status_code == 302 and response.url == "/rules/"
    page = client.get("/rules/").content.decode()
    assert "The rules of Kozel" in page and 'aria-pressed="true" class="current">EN<' in page

    # The choice wins over the browser's wish, and can be switched back.
    assert '<html lang="en">' in client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    client.post("/i18n/setlang/", {"language": "ru", "next": "/rules/"})
    assert "Правила игры «Козёл»" in client.get("/rules/").content.decode()


def test_the_rules_page_states_every_decision_in_both_languages(client, db):
    russian = " ".join(client.get("/rules/").content.decode().split())
    english = " ".join(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split())
    # RULES.md has eight Decisions for Kozel: the order of leads, out beats fish, the
    # all-knock safety net, the bank carrying on after a tied round with someone out, the
    # site's own downtime, aborted games, the same people again and leavers (10); three
    # for sea goat (13): the round's winner after a fish, the write-off's threshold, and
    # the hundred lost in pairs or a fish; and one for arenas (12): how the site seats.
    assert russian.count("<strong>Решение</strong>") == 12
    assert english.count("<strong>Decision</strong>") == 12
    assert "простой самого сайта" in russian and "the site's own downtime" in english
    assert "истекло его время или нет" in russian and "whether or not its time ran out" in english
    assert "снова те же люди" in russian and "the same people again" in english
    assert "уходящие" in russian and "(leavers)" in english
    for text in ("по сумме очков", "выход сильнее рыбы", "все игроки подряд", "банк переходит дальше нетронутым",
                 "рыба на одного", "запомненные", "<code>0-0</code>", "101", "таймаут", "5-6, 4-6, 3-6, 4-5"):
        assert text.lower() in russian.lower(), text
    for text in ("by pip sum", "going out wins over fish", "every player in turn", "carries on untouched",
                 "fish for one", "remembered", "counts <strong>10</strong>", "101", "timeout", "5-6, 4-6, 3-6, 4-5"):
        assert text.lower() in english.lower(), text


def test_the_rules_page_states_the_pair_game_of_rules_11_in_both_languages(client, db):
    russian = " ".join(client.get("/rules/").content.decode().split())
    english = " ".join(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split())
    for text in ('id="pairs"', "Пары (2 на 2)", "Очки считаются по парам.", "у пары того, кто вышел",
                 "оба её игрока козлы", "и его партнёр очков рейтинга не получают"):
        assert text in russian, text
    for text in ('id="pairs"', "two against two", "The pair is the scoring unit.",
                 "the pair of the player who went out", "both its players are goats",
                 "and their partner, get no rating points"):
        assert text in english, text


def test_the_rules_page_states_sea_goat_of_rules_13_in_both_languages(client, db):
    russian = " ".join(client.get("/rules/").content.decode().split())
    english = " ".join(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split())
    for text in ('id="sea-goat"', "13. Sea goat", "whoever reaches 125 wins",
                 "which only the player who is <strong>writing</strong> (below) may lead",
                 "<strong>for a hundred</strong>", "they may play both in one turn, one on each end",
                 "counts <strong>25</strong>", "<code>6-6</code> <strong>50</strong>",
                 "<strong>75</strong>", "the one player with the fewest round points",
                 "<strong>written off</strong> to 0", "the same threshold as starting",
                 "in pairs, also when their partner goes out",
                 "with two doubles at once as their last play",
                 "<strong>sea goat games are unrated</strong>", "arenas are Kozel's",
                 "Alex 34 + 31 = 65", "Alex's 65 is written off first"):
        assert text in english, text
    for text in ('id="sea-goat"', "13. Морской козёл", "выигрывает тот, кто наберёт 125",
                 "с неё может зайти только тот, кто <strong>пишет</strong>",
                 "заход <strong>на сто</strong>", "сыграть оба, по одному на каждый конец",
                 "стоит <strong>25</strong>", "<strong>50</strong>", "<strong>75</strong>",
                 "единственный игрок с наименьшими очками раунда",
                 "<strong>списываются</strong> до 0", "тот же порог, что и для начала",
                 "в парах — и когда выходит его партнёр", "последним ходом два дубля сразу",
                 "<strong>партии в морского козла не идут в рейтинг</strong>",
                 "арены — только для «Козла»", "у Алексея 34 + 31 = 65",
                 "сначала списываются 65 Алексея"):
        assert text in russian, text


def test_the_rules_page_states_the_definitions_and_the_pair_examples_with_its_own_section_numbers(
        client, db):
    """The page numbers its sections its own way (RULES.md 2 and 3 are its section 2), so
    RULES.md 11's references are to the page's sections; and RULES.md 1's definitions, 5's
    empty table and 11's two worked examples are on it, in both languages."""
    russian = " ".join(client.get("/rules/").content.decode().split())
    english = " ".join(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split())
    for text in ('<h2 id="deal">2. Players and dealing</h2>', '<h2 id="round-end">5. End of a round</h2>',
                 '<h2 id="scoring">6. Scoring</h2>', '<h2 id="fish">7. Fish',
                 "as in sections 2–5 (four players, so no bazaar)",
                 "credited by the rule of section 6", "<strong>The fish bank</strong> (section 7)",
                 "(a double counts once)", "(or the table is empty)",
                 "Pair A: round points 0, credited nothing, remembered points lost → 0. "
                 "Pair B: round points 14, credited 14 → 34.",
                 "Pair A holds 5 + 9 = 14, pair B 6 + 4 = 10: <code>T</code> = 24. Pair A is credited 24"):
        assert text in english, text
    for text in ('<h2 id="deal">2. Игроки и сдача</h2>', '<h2 id="round-end">5. Конец раунда</h2>',
                 '<h2 id="scoring">6. Очки</h2>', '<h2 id="fish">7. Рыба',
                 "как в разделах 2–5 (игроков четверо, так что базара нет)",
                 "по правилу раздела 6", "<strong>Банк</strong> (раздел 7)",
                 "(дубль считается один раз)", "(или стол пуст)",
                 "Пара A: очки раунда 0, ничего не начисляется, запомненные сгорают → 0. "
                 "Пара B: очки раунда 14, начисляется 14 → 34.",
                 "У пары A 5 + 9 = 14, у пары B 6 + 4 = 10: <code>T</code> = 24. Паре A начисляется 24"):
        assert text in russian, text
    for page in (english, russian):  # RULES.md's own numbers mean other sections here
        for wrong in ("3–6", "7.2", "(7.5)"):
            assert wrong not in page, wrong


ASSET = re.compile(r'<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"')


@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/"])
def test_every_asset_is_served_by_the_site_itself(client, db, path):
    page = client.get(path).content.decode()
    assets = ASSET.findall(page)
    assert any("htmx" in url for url in assets) and any("site.css" in url for url in assets)
    for url in assets:
        assert url.startswith("/static/"), url
        response = client.get(url)
        assert response.status_code == 200, url
        b"".join(response.streaming_content) if response.streaming else response.content


def test_htmx_comes_with_its_websocket_extension(client, db):
    page = client.get("/").content.decode()
    htmx = page.index("/static/django_htmx/htmx-2.min.js")
    assert page.index("/static/django_htmx/ext/hx-ws-2.min.js") > htmx


def test_the_header_shows_who_is_logged_in(logged_in_client):
    page = logged_in_client.get("/").content.decode()
    assert 'href="/players/masha/"' in page and 'action="/accounts/logout/"' in page
    assert 'href="/accounts/login/"' not in page


def test_a_missing_page_is_a_friendly_404(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Страница не найдена" in page and 'action="/i18n/setlang/"' in page


def test_the_rules_page_states_arenas_of_rules_12_in_both_languages(client, db):
    russian = " ".join(client.get("/rules/").content.decode().split())
    english = " ".join(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode().split())
    for text in ('id="arena"', "12. Arena tournaments", "<strong>pause</strong>",
                 "a table is seated within 10 seconds", "the pairs are <code>a</code>+<code>d</code>",
                 "plays with the empty client seed", "that game's arena points are doubled",
                 "then by games played (fewer first)", "no table is seated at or after the end time",
                 "7 × 2 = <strong>14</strong>", "Masha: 32 points, 3 games best, 5 games"):
        assert text in english, text
    for text in ('id="arena"', "12. Турниры-арены", "поставить <strong>паузу</strong>",
                 "стол собирается в течение 10 секунд", "пары — <code>a</code>+<code>d</code>",
                 "играет с пустым зерном", "его очки арены за эту партию удваиваются",
                 "затем по числу сыгранных партий (меньше — выше)",
                 "в момент окончания и позже столы не собираются",
                 "7 × 2 = <strong>14</strong>", "Masha — 32 очка, 3 партии с лучшим счётом, 5 партий"):
        assert text in russian, text
