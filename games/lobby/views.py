"""The lobby's pages and form posts: create, join and leave requests, play with bots,
and a private table's invitation page.

Every post calls one function of games.lobby.service and redirects; a refusal (PlayError)
becomes a message on the lobby page.  Posts made by htmx (the request list's buttons,
which the WebSocket re-renders without a CSRF field) get the redirect as an HX-Redirect.
"""

from functools import wraps
from urllib.parse import urlencode, urlparse

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import HttpResponseClientRedirect

from games.lobby import listing as lobby_list
from accounts import limits as account_limits
from accounts.models import User
from games.lobby import challenges as direct
from games.lobby import formseeds, remembered, service as requests
from games.lobby.forms import BotsForm, RequestForm
from games.models import Match, MatchStatus
from games.play.errors import PlayError
from games.lobby import visits
from kozel_site.clientaddress import client_address
from ratings import limits


def _go(request, url):
    """Redirect, the way the request's sender can follow it."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _lobby_url():
    return reverse("games:lobby")


def _room_url(match):
    return reverse("games:room", args=[match.pk])


def _to_login(request, back):
    if request.htmx:
        login = resolve_url(settings.LOGIN_URL)
        return HttpResponseClientRedirect(f"{login}?{urlencode({'next': back})}")
    return redirect_to_login(back)


def player_required(view):
    """login_required for the lobby's posts: after logging in, a visitor comes back to
    the lobby, since a redirect cannot repeat the post itself."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return _to_login(request, _lobby_url())
        return view(request, *args, **kwargs)

    return wrapped


def _with_seed(request, form, form_class, name):
    """The form, carrying the token of a server seed drawn for it now; and that seed,
    whose commitment the page shows beside the client seed (kozel-fair/1)."""
    user = request.user
    if not user.is_authenticated:
        return form or form_class(initial=remembered.initial(user, name, form_class)), None
    drawn = formseeds.draw(user, name)
    if form is None:
        form = form_class(initial=dict(remembered.initial(user, name, form_class),
                                       seed=drawn.token))
    else:  # sent back with errors: its seed was not taken; it shows a new one anyway
        form.data = form.data.copy()
        form.data["seed"] = drawn.token
    return form, drawn


def _lobby_page(request, create_form=None, bots_form=None):
    context = lobby_list.lobby_context(request.user,
                                       entered_room=visits.entered(request.session))
    create_form, create_seed = _with_seed(request, create_form, RequestForm, formseeds.REQUEST)
    bots_form, bots_seed = _with_seed(request, bots_form, BotsForm, formseeds.BOTS)
    context.update(create_form=create_form, bots_form=bots_form,
                   create_seed=create_seed, bots_seed=bots_seed)
    current = context["current"]
    if current and current.match.private and current.match.status == MatchStatus.WAITING:
        # Outside the live list (which is rendered without a request), so the link can
        # be absolute, ready to copy; the page reloads whenever its owner acts anyway.
        context["invite_url"] = request.build_absolute_uri(lobby_list.invite_path(current.match))
    return render(request, "games/lobby.html", context)


@require_safe
def lobby(request):
    """The home page: open requests, the viewer's table, and the forms to start one."""
    return _lobby_page(request)


@require_POST
@player_required
def create_request(request):
    form = RequestForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, create_form=form)
    remembered.remember(request.user, "request", form)
    terms = dict(form.cleaned_data)
    token = terms.pop("seed")
    try:
        with transaction.atomic():  # the seed is taken only if the table is made
            seed = formseeds.take(request.user, formseeds.REQUEST, token)
            match = requests.create_request(request.user, address=client_address(request),
                                            server_seed=seed, **terms)
    except PlayError as error:
        messages.error(request, error.message)
        return _go(request, _lobby_url())
    if match.private:
        messages.success(request, _("Your private table is open. Send its invitation link "
                                    "to the people you want to play with."))
    else:
        messages.success(request, _("Your request is in the lobby. The game starts as soon "
                                    "as the table is full."))
    return _go(request, _lobby_url())


@require_POST
@player_required
def play_with_bots(request):
    form = BotsForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, bots_form=form)
    remembered.remember(request.user, "bots", form)
    terms = dict(form.cleaned_data)
    token = terms.pop("seed")
    try:
        with transaction.atomic():
            seed = formseeds.take(request.user, formseeds.BOTS, token)
            match = requests.play_with_bots(request.user, address=client_address(request),
                                            server_seed=seed, **terms)
    except PlayError as error:
        messages.error(request, error.message)
        return _go(request, _lobby_url())
    return _go(request, _room_url(match))


def _client_seed(request) -> str | None:
    """The browser's seed (static/js/fair.js); none without JavaScript: the server makes one."""
    return request.POST.get("client_seed", "").strip() or None


def _take_seat(request, sit):
    """Sit the person down (``sit(address, client_seed)`` gives the table): to the room if
    that filled it, else to the lobby, where the table waits."""
    try:
        match = sit(client_address(request), _client_seed(request))
    except PlayError as error:
        messages.error(request, error.message)
        return _go(request, _lobby_url())
    if match.status == MatchStatus.PLAYING:
        return _go(request, _room_url(match))
    messages.success(request, _("You have taken a seat. The game starts as soon as the "
                                "table is full."))
    return _go(request, _lobby_url())


def _join(request, match_id, token=None):
    return _take_seat(request, lambda address, client_seed: requests.join_request(
        request.user, match_id, invite_token=token, address=address, client_seed=client_seed))


@require_POST
@player_required
def join_request(request, match_id):
    return _join(request, match_id)


@require_POST
@player_required
def leave_request(request, match_id):
    try:
        requests.leave_request(request.user, match_id)
    except PlayError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("You have left the request."))
    return _go(request, _lobby_url())


@require_http_methods(["GET", "HEAD", "POST"])
def invite(request, token):
    """A private table's invitation: shows the table, and joins it with one click."""
    match = get_object_or_404(
        Match.objects.select_related("created_by").prefetch_related(lobby_list.seats_prefetch()),
        invite_token=token,
    )
    if request.method == "POST":
        if not request.user.is_authenticated:
            return _to_login(request, request.path)
        return _join(request, match.pk, token)
    row = lobby_list.mark_unrated_again([lobby_list.table_row(match, request.user)],
                                        request.user)[0]
    return render(request, "games/invite.html", {
        "row": row,
        "match": match,
        "open": match.status == MatchStatus.WAITING,
        "login_next": request.path,
        "bar": limits.bar_of(request.user),
    })


@require_POST
@player_required
def challenge(request, login):
    """Challenge the player ``login`` to a private table with one's own settings; to the
    lobby, where one's table waits for them."""
    person = get_object_or_404(User.objects.by_login(login))
    if account_limits.friends_action_refused(request):
        messages.error(request, _("Too many changes to your friends and blocks. Try again later."))
        return _go(request, _lobby_url())
    try:
        direct.challenge(request.user, person, address=client_address(request),
                         client_seed=_client_seed(request))
    except PlayError as error:
        messages.error(request, error.message)
        return _go(request, reverse("players:profile", args=[person.username]))
    messages.success(request, _("Your challenge is sent. The game starts as soon as it is "
                                "accepted."))
    return _go(request, _lobby_url())


@require_POST
@player_required
def accept_challenge(request, challenge_id):
    return _take_seat(request, lambda address, client_seed: direct.accept(
        request.user, challenge_id, address=address, client_seed=client_seed))


@require_POST
@player_required
def decline_challenge(request, challenge_id):
    try:
        direct.decline(request.user, challenge_id)
    except PlayError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("You have declined the challenge."))
    back = request.headers.get("HX-Current-URL") or request.META.get("HTTP_REFERER") or ""
    path = urlparse(back).path
    return _go(request, path if path in (_lobby_url(), reverse("players:friends")) else _lobby_url())
