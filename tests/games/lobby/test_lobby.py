"""The lobby at /: open requests, creating, joining and leaving them, private tables and
their invitation links, tables with bots, and the fragment the lobby's WebSocket pushes."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.lobby import service as requests
from games.lobby.listing import requests_fragment
from games.models import Match, MatchStatus, Seat
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db

LOBBY = "/"
CREATE = "/games/new/"
BOTS = "/games/bots/"


def join_url(match):
    return f"/games/{match.pk}/join/"


def leave_url(match):
    return f"/games/{match.pk}/leave-request/"


def invite_url(match):
    return f"/games/invite/{match.invite_token}/"


def room_url(match):
    return f"/games/{match.pk}/"


def request_rows(page: str) -> dict[int, str]:
    """Each request row's HTML by match id (a row runs to the next row or the list's end)."""
    rows = {}
    for chunk in page.split('data-request="')[1:]:
        pk, html = chunk.split('"', 1)
        rows[int(pk)] = html.split("</section>", 1)[0]
    return rows


def page_of(client, path=LOBBY, **extra):
    response = client.get(path, **extra)
    assert response.status_code == 200
    return response.content.decode()


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def form_data(**fields):
    data = {"players": "2", "fish": "all", "turn_seconds": "30", "rated": "on"}
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


# -- the list ---------------------------------------------------------------------------

def test_the_list_shows_open_requests_with_their_terms(client, make_user):
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    four = requests.create_request(masha, players=4, fish="one", turn_seconds=45, rated=False)
    requests.join_request(alex, four.pk)
    two = requests.create_request(olya, players=2)
    client.force_login(make_user("serg"))
    page = page_of(client)
    rows = request_rows(page)
    assert set(rows) == {four.pk, two.pk}
    four_row = rows[four.pk]
    assert "masha" in four_row and "alex" in four_row
    assert four_row.count('class="seat taken"') == 2 and four_row.count('class="seat free"') == 2
    assert "рыба на одного" in four_row and "45" in four_row and "без рейтинга" in four_row
    assert "рыба на всех" in rows[two.pk] and "рейтинговая" in rows[two.pk]
    for pk, row in rows.items():
        assert 'data-action="join"' in row and f'action="/games/{pk}/join/"' in row
        assert 'data-action="leave-request"' not in row


def test_the_list_hides_private_started_and_finished_tables(client, make_user):
    masha, alex = make_user("masha"), make_user("alex")
    private = requests.create_request(masha, players=2, private=True)
    started = requests.create_request(alex, players=2)
    requests.join_request(make_user("olya"), started.pk)
    requests.play_with_bots(make_user("serg"), 4)
    Match.objects.create(seats_count=2, status=MatchStatus.FINISHED)
    page = page_of(client)
    assert request_rows(page) == {}
    assert private.invite_token not in page
    assert "Нет открытых заявок" in page


def test_the_viewers_own_request_has_a_leave_button_instead_of_join(client, make_user):
    masha = make_user("masha")
    mine = requests.create_request(masha, players=3)
    client.force_login(masha)
    page = page_of(client)
    row = request_rows(page)[mine.pk]
    assert 'data-action="leave-request"' in row and 'data-action="join"' not in row
    assert f'data-my-table="{mine.pk}"' in page and 'data-status="waiting"' in page
    assert "Ждём игроков: занято 1 из 3" in page


def test_anonymous_visitors_see_the_list_and_a_log_in_link_but_no_forms(client, make_user):
    match = requests.create_request(make_user("masha"), players=2)
    page = page_of(client)
    row = request_rows(page)[match.pk]
    assert 'href="/accounts/login/?next=/"' in row and 'data-action="join"' not in row
    assert 'data-testid="create-request"' not in page and 'data-testid="play-bots"' not in page


def test_the_page_holds_the_websocket_and_the_redirect_hook(logged_in_client):
    page = page_of(logged_in_client)
    assert 'hx-ext="ws"' in page and 'ws-connect="/ws/lobby/"' in page
    assert '<div id="lobby-redirect"></div>' in page
    assert '<div id="lobby-requests"' in page
    # On the page itself the list is plain: only the WebSocket's copy swaps out of band.
    assert 'hx-swap-oob' not in page
    assert "/static/js/kozel.js" in page


def test_a_playing_viewer_gets_a_link_back_to_the_room(client, make_user):
    masha = make_user("masha")
    match = requests.play_with_bots(masha, 2)
    client.force_login(masha)
    page = page_of(client)
    assert f'href="{room_url(match)}"' in page and 'data-status="playing"' in page


def test_the_lobby_speaks_english_on_request(client, make_user):
    requests.create_request(make_user("masha"), players=2, fish="one")
    client.force_login(make_user("alex"))
    page = page_of(client, HTTP_ACCEPT_LANGUAGE="en")
    assert "Open requests" in page and "fish for one" in page and "Join" in page
    assert "Create the request" in page and "Play with bots" in page


# -- creating ---------------------------------------------------------------------------

def test_the_create_form_has_its_fields_and_defaults(logged_in_client):
    page = page_of(logged_in_client)
    form = re.search(r'<form[^>]*data-testid="create-request".*?</form>', page, re.DOTALL).group(0)
    assert 'method="post"' in form and 'action="/games/new/"' in form and "csrfmiddlewaretoken" in form
    for value in ("2", "3", "4"):
        assert f'name="players" value="{value}"' in form
    assert 'name="fish" value="all"' in form and 'name="fish" value="one"' in form
    assert re.search(r'name="turn_seconds" value="30"[^>]*min="10" max="120"', form)
    assert re.search(r'<input type="checkbox" name="rated"[^>]*checked', form)
    assert re.search(r'<input type="checkbox" name="private"', form)
    assert not re.search(r'<input type="checkbox" name="private"[^>]*checked', form)


def test_creating_a_request_lists_it(client, make_user):
    masha = make_user("masha")
    client.force_login(masha)
    response = post_form(client, CREATE, form_data(players="3", fish="one", turn_seconds="60"), follow=True)
    assert response.redirect_chain == [(LOBBY, 302)]
    match = Match.objects.get()
    assert (match.seats_count, match.fish, match.turn_seconds, match.rated, match.private) == (3, "one", 60, True, False)
    assert match.status == MatchStatus.WAITING and match.created_by == masha
    assert list(match.seats.values_list("number", "user")) == [(0, masha.pk)]
    assert match.pk in request_rows(response.content.decode())
    assert any("Заявка в лобби" in m for m in messages_of(response))


def test_an_unticked_rated_box_makes_an_unrated_request(logged_in_client):
    post_form(logged_in_client, CREATE, form_data(rated=None))
    assert Match.objects.get().rated is False


def test_a_private_request_shows_its_invitation_link_not_a_row(client, make_user):
    masha = make_user("masha")
    client.force_login(masha)
    response = post_form(client, CREATE, form_data(private="on"), follow=True)
    match = Match.objects.get()
    assert match.private
    page = response.content.decode()
    assert request_rows(page) == {}
    assert f'value="http://testserver{invite_url(match)}"' in page
    # Nobody else sees it, not even in the lobby's pushed list.
    assert match.invite_token not in requests_fragment(make_user("alex"))


@pytest.mark.parametrize("fields, field, error", [
    ({"players": "5"}, "players", "Выберите корректный вариант"),
    ({"players": None}, "players", "Обязательное поле"),
    ({"fish": "some"}, "fish", "Выберите корректный вариант"),
    ({"turn_seconds": "9"}, "turn_seconds", "больше либо равно 10"),
    ({"turn_seconds": "121"}, "turn_seconds", "меньше либо равно 120"),
    ({"turn_seconds": "soon"}, "turn_seconds", "Введите целое число"),
])
def test_the_form_refuses_bad_input_and_says_why(logged_in_client, fields, field, error):
    response = post_form(logged_in_client, CREATE, form_data(**fields))
    assert response.status_code == 200
    assert not Match.objects.exists()
    assert field in response.context["create_form"].errors
    page = response.content.decode()
    assert error in page and 'class="errorlist' in page


def test_anonymous_visitors_cannot_create(client, db):
    response = post_form(client, CREATE, form_data())
    assert response.status_code == 302 and response.url == "/accounts/login/?next=/"
    assert not Match.objects.exists()


def test_the_lobby_posts_need_the_csrf_token(make_user):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(make_user("masha"))
    assert post_form(strict, CREATE, form_data()).status_code == 403
    assert not Match.objects.exists()


# -- joining and leaving ---------------------------------------------------------------

def test_joining_the_last_seat_starts_the_game_and_takes_the_joiner_to_the_room(client, make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    client.force_login(alex)
    response = client.post(join_url(match))
    assert response.status_code == 302 and response.url == room_url(match)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.version >= 1
    assert set(match.seats.values_list("user", flat=True)) == {masha.pk, alex.pk}
    assert match.pk not in request_rows(page_of(client))


def test_joining_a_table_that_is_not_full_waits_in_the_lobby(client, make_user):
    match = requests.create_request(make_user("masha"), players=3)
    alex = make_user("alex")
    client.force_login(alex)
    response = client.post(join_url(match), follow=True)
    assert response.redirect_chain == [(LOBBY, 302)]
    match.refresh_from_db()
    assert match.status == MatchStatus.WAITING and match.seats.count() == 2
    page = response.content.decode()
    assert 'data-action="leave-request"' in request_rows(page)[match.pk]
    assert f'data-my-table="{match.pk}"' in page


def test_an_htmx_join_is_answered_with_a_client_redirect(client, make_user):
    match = requests.create_request(make_user("masha"), players=2)
    client.force_login(make_user("alex"))
    response = client.post(join_url(match), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == room_url(match)


def test_joining_a_gone_request_says_so(client, make_user):
    match = requests.create_request(make_user("masha"), players=2)
    requests.join_request(make_user("alex"), match.pk)
    client.force_login(make_user("olya"))
    response = client.post(join_url(match), follow=True)
    assert response.redirect_chain == [(LOBBY, 302)]
    assert "Эта заявка уже закрыта." in messages_of(response)
    assert client.post("/games/999999/join/", follow=True).redirect_chain == [(LOBBY, 302)]


def test_one_table_at_a_time(client, make_user):
    masha = make_user("masha")
    other = requests.create_request(make_user("alex"), players=2)
    client.force_login(masha)
    post_form(client, CREATE, form_data(players="4"))
    mine = Match.objects.get(created_by=masha)

    for refused in (post_form(client, CREATE, form_data(), follow=True),
                    client.post(join_url(other), follow=True),
                    post_form(client, BOTS, {"players": "2", "fish": "all", "turn_seconds": "30"}, follow=True)):
        assert refused.redirect_chain == [(LOBBY, 302)]
        assert any("Вы уже сидите за столом" in m for m in messages_of(refused))
    assert Match.objects.filter(created_by=masha).count() == 1
    other.refresh_from_db()
    assert other.seats.count() == 1 and mine.seats.count() == 1


def test_leaving_a_request(client, make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=3)
    requests.join_request(alex, match.pk)
    client.force_login(masha)
    response = client.post(leave_url(match), follow=True)
    assert response.redirect_chain == [(LOBBY, 302)]
    assert any("Вы вышли из заявки" in m for m in messages_of(response))
    assert list(match.seats.values_list("user", flat=True)) == [alex.pk]
    # The creator may come back, or go elsewhere: they sit nowhere now.
    assert requests.current_match(masha) is None

    client.force_login(alex)
    client.post(leave_url(match))
    assert not Match.objects.filter(pk=match.pk).exists()  # an empty request disappears


def test_leaving_a_request_one_does_not_sit_at_is_refused(client, make_user):
    match = requests.create_request(make_user("masha"), players=2)
    client.force_login(make_user("alex"))
    response = client.post(leave_url(match), follow=True)
    assert "Вы не сидите за этим столом." in messages_of(response)
    assert match.seats.count() == 1


def test_the_lobby_posts_refuse_get(logged_in_client, make_user):
    match = requests.create_request(make_user("alex"), players=2)
    for url in (CREATE, BOTS, join_url(match), leave_url(match)):
        assert logged_in_client.get(url).status_code == 405


def test_anonymous_visitors_cannot_join_or_leave(client, make_user):
    match = requests.create_request(make_user("masha"), players=2)
    for url in (join_url(match), leave_url(match), BOTS):
        response = client.post(url)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert match.seats.count() == 1


def test_an_htmx_post_from_a_visitor_is_sent_to_log_in(client, make_user):
    # A lobby page left open after its session ended still has the pushed join buttons.
    match = requests.create_request(make_user("masha"), players=2)
    response = client.post(join_url(match), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == "/accounts/login/?next=%2F"
    assert match.seats.count() == 1


# -- private tables ---------------------------------------------------------------------

def test_the_invitation_link_joins_a_private_table(client, make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2, private=True)
    client.force_login(alex)
    page = page_of(client, invite_url(match))
    assert "masha" in page and 'data-action="join"' in page and "csrfmiddlewaretoken" in page
    response = client.post(invite_url(match))
    assert response.status_code == 302 and response.url == room_url(match)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING


def test_a_private_table_cannot_be_joined_without_its_link(client, make_user):
    match = requests.create_request(make_user("masha"), players=2, private=True)
    client.force_login(make_user("alex"))
    response = client.post(join_url(match), follow=True)
    assert any("нужна ссылка-приглашение" in m for m in messages_of(response))
    assert match.seats.count() == 1
    assert client.get("/games/invite/not-the-token/").status_code == 404


def test_the_invitation_asks_a_visitor_to_log_in_first(client, make_user):
    match = requests.create_request(make_user("masha"), players=2, private=True)
    page = page_of(client, invite_url(match))
    assert f"/accounts/login/?next={invite_url(match)}" in page
    assert 'data-action="join"' not in page
    response = client.post(invite_url(match))
    assert response.status_code == 302 and response.url == f"/accounts/login/?next={invite_url(match)}"
    assert match.seats.count() == 1


def test_the_invitation_of_a_started_table_says_it_is_closed(client, make_user):
    masha = make_user("masha")
    match = requests.create_request(masha, players=2, private=True)
    requests.join_request(make_user("alex"), match.pk, invite_token=match.invite_token)
    client.force_login(make_user("olya"))
    page = page_of(client, invite_url(match))
    assert "Этот стол уже закрыт." in page and 'data-action="join"' not in page
    client.force_login(masha)
    assert f'href="{room_url(match)}"' in page_of(client, invite_url(match))


# -- bots -------------------------------------------------------------------------------

def test_play_with_bots_starts_a_game_and_goes_to_the_room(client, make_user):
    me = make_user("me")
    client.force_login(me)
    page = page_of(client)
    form = re.search(r'<form[^>]*data-testid="play-bots".*?</form>', page, re.DOTALL).group(0)
    assert 'name="players" value="2"' in form and 'action="/games/bots/"' in form
    response = post_form(client, BOTS, {"players": "3", "fish": "one", "turn_seconds": "30"})
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == room_url(match)
    assert match.status == MatchStatus.PLAYING and match.seats_count == 3 and not match.rated
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    assert seats[0].user == me and all(seat.is_bot for seat in seats[1:])


def test_play_with_bots_refuses_a_bad_size(logged_in_client):
    response = post_form(logged_in_client, BOTS, {"players": "1", "fish": "all", "turn_seconds": "30"})
    assert response.status_code == 200 and not Match.objects.exists()
    assert "players" in response.context["bots_form"].errors


# -- the WebSocket's fragment ----------------------------------------------------------

def test_the_fragment_is_an_out_of_band_swap_of_the_list(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    theirs = requests.create_request(alex, players=2)
    html = requests_fragment(masha)
    assert re.match(r'\s*<div id="lobby-requests" class="lobby-requests" hx-swap-oob="true">', html)
    row = request_rows(html)[theirs.pk]
    # No CSRF field without a request: the buttons post through htmx and its header.
    assert f'hx-post="/games/{theirs.pk}/join/"' in row and 'data-action="join"' in row
    assert "csrfmiddlewaretoken" not in html


def test_the_fragment_shows_the_viewers_own_table(make_user):
    masha = make_user("masha")
    mine = requests.create_request(masha, players=2, private=True)
    html = requests_fragment(masha)
    assert f'data-my-table="{mine.pk}"' in html and 'data-action="leave-request"' in html
    assert f'hx-post="{leave_url(mine)}"' in html
    # The link itself is on the page, outside the live list: absolute, and never pushed.
    assert mine.invite_token not in html


def test_a_table_that_just_filled_takes_its_players_in_even_without_the_start_notice(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    # A lobby page whose WebSocket connects only now missed "lobby.start": its first
    # fragment carries the redirect instead (static/js/kozel.js follows [data-redirect]).
    assert f'data-redirect="{room_url(match)}"' in requests_fragment(masha)
    # Later, a player looking at the lobby during their game is not pulled back.
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(minutes=1))
    html = requests_fragment(masha)
    assert "data-redirect" not in html and f'href="{room_url(match)}"' in html


def test_a_player_who_has_been_in_the_room_goes_to_the_lobby_when_they_ask(client, make_user):
    """In the first seconds of a game the lobby takes its players to the room by itself;
    one who was in the room already and clicked "Lobby" stays in the lobby."""
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    client.force_login(masha)
    redirect = f'data-redirect="{room_url(match)}"'
    assert redirect in client.get("/").content.decode()  # not in the room yet: taken there
    assert client.get(room_url(match)).status_code == 200
    page = client.get("/").content.decode()
    assert redirect not in page and f'href="{room_url(match)}"' in page
    # The lobby's live list (its WebSocket's fragment) agrees.
    assert redirect not in requests_fragment(masha, entered_room=match.pk)
    assert redirect in requests_fragment(masha, entered_room=match.pk + 1)


def test_a_lobby_page_resyncing_is_taken_to_a_table_that_started_since_it_connected(make_user):
    """After Redis came back, a lobby page gets its list again (games.lobby.consumer.LobbyPages)
    with the way to a table that filled since the page connected, however long ago: its
    "lobby.start" may have been lost with Redis."""
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(minutes=1))
    started = Match.objects.get(pk=match.pk).started_at
    assert "data-redirect" not in requests_fragment(masha)  # no longer "just" started
    redirect = f'data-redirect="{room_url(match)}"'
    assert redirect in requests_fragment(masha, started_since=started - timedelta(seconds=1))
    assert redirect in requests_fragment(masha, started_since=started)
    # A page that connected after the table started had it on its first list already.
    assert "data-redirect" not in requests_fragment(masha,
                                                    started_since=started + timedelta(seconds=1))


def test_the_fragment_for_a_visitor_has_log_in_links(make_user):
    from django.contrib.auth.models import AnonymousUser

    match = requests.create_request(make_user("masha"), players=2)
    html = requests_fragment(AnonymousUser())
    assert 'data-action="join"' not in html and "/accounts/login/?next=/" in request_rows(html)[match.pk]


def test_the_fragment_speaks_the_language_it_is_rendered_in(make_user):
    requests.create_request(make_user("masha"), players=2)
    with translation.override("en"):
        english = requests_fragment(make_user("alex"))
    with translation.override("ru"):
        russian = requests_fragment(make_user("olya"))
    assert "Open requests" in english and "Join" in english
    assert "Открытые заявки" in russian and "Сесть" in russian
