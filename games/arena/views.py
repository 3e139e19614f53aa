"""The arenas' pages: the list and the form that creates one, an arena's page (and a
private one's by its link), joining, pausing and coming back, its export, and a
moderator's cancellation."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from accounts.moderators import is_moderator
from games.arena import present, results, service
from games.arena.forms import ArenaForm
from games.models import Arena, ArenaPlayer
from games.play.errors import PlayError

SEEN_KEY = "arenas_seen"  # the private arenas this session opened by their link


def page_url(arena: Arena) -> str:
    if arena.private:
        return reverse("arenas:private", args=[arena.invite_token])
    return reverse("arenas:arena", args=[arena.pk])


def may_see(request, arena: Arena) -> bool:
    """A private arena shows itself to whoever opened its link, its players and moderators."""
    if not arena.private:
        return True
    user = request.user
    return (arena.pk in request.session.get(SEEN_KEY, [])
            or (user.is_authenticated and (ArenaPlayer.objects.filter(arena=arena, user=user).exists()
                                           or arena.created_by_id == user.pk
                                           or is_moderator(user))))


def _arena_for(request, arena_id: int) -> Arena:
    arena = get_object_or_404(Arena, pk=arena_id)
    if not may_see(request, arena):
        raise Http404
    return arena


@require_safe
def arena_list(request):
    context = present.listing()
    context["form"] = ArenaForm()
    return render(request, "games/arena/list.html", context)


@login_required
@require_POST
def arena_create(request):
    form = ArenaForm(request.POST)
    if not form.is_valid():
        context = present.listing()
        context["form"] = form
        return render(request, "games/arena/list.html", context, status=400)
    arena = service.create(request.user, **form.settings())
    if arena.private:
        seen = request.session.get(SEEN_KEY, [])
        request.session[SEEN_KEY] = seen + [arena.pk]
    return redirect(page_url(arena))


def _page(request, arena: Arena):
    context = present.live_context(arena, request.user)
    context["link"] = request.build_absolute_uri(page_url(arena))
    context["moderator"] = request.user.is_authenticated and is_moderator(request.user)
    return render(request, "games/arena/arena.html", context)


@require_safe
def arena_page(request, arena_id: int):
    return _page(request, _arena_for(request, arena_id))


@require_safe
def private_arena(request, token: str):
    arena = get_object_or_404(Arena, invite_token=token, private=True)
    seen = request.session.get(SEEN_KEY, [])
    if arena.pk not in seen:
        request.session[SEEN_KEY] = (seen + [arena.pk])[-50:]
    return _page(request, arena)


def _act(request, arena_id: int, action):
    """Join, pause, come back: the page's buttons post with htmx (the socket renders
    them, without a CSRF field: htmx sends the token in a header, base.html)."""
    arena = _arena_for(request, arena_id)
    try:
        action(arena, request.user)
    except PlayError as refusal:
        messages.error(request, refusal.message)
    if request.htmx:
        return HttpResponseClientRedirect(page_url(arena))
    return redirect(page_url(arena))


@login_required
@require_POST
def arena_join(request, arena_id: int):
    return _act(request, arena_id, service.join)


@login_required
@require_POST
def arena_pause(request, arena_id: int):
    return _act(request, arena_id, service.pause)


@require_safe
def arena_export(request, arena_id: int):
    arena = _arena_for(request, arena_id)
    body = json.dumps(results.document(arena), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="arena-{arena.pk}.json"'
    return response


@login_required
@require_POST
def arena_cancel(request, arena_id: int):
    arena = get_object_or_404(Arena, pk=arena_id)
    try:
        service.cancel(arena.pk, request.user, request.POST.get("reason", ""))
        messages.success(request, _("The arena is cancelled."))
    except PlayError as refusal:
        messages.error(request, refusal.message)
    return redirect(page_url(arena))
