"""Staff pages under ``/moderation/``: running games (to watch or abort), a game to annul,
a player to close or reopen.  Every action is a POST with a reason; the work and the log
entry are games.moderation's."""

from functools import wraps

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import ModeratorAction, User
from accounts.moderators import is_moderator
from games.moderation import service as moderation
from games.moderation import suspicious as signs
from games.lobby import service as requests
from games.models import RUNNING, Match, RematchStatus, Seat, match_number
from ratings import limits
from ratings.ladder import find_login, logins_starting

RUNNING_PER_PAGE = 50


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), min_length=moderation.REASON_MIN,
        max_length=moderation.REASON_MAX, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Kept in the moderation log with your name and the time."))


def moderator_required(view):
    """Staff with the "moderate" permission (the moderators group, or a superuser)."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_moderator(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)
    return wrapped


def _seats():
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))


@moderator_required
def index(request):
    # Playing, then waiting; not the seatless table of an open offer of one more game.
    running = (Match.objects.filter(status__in=RUNNING)
               .exclude(rematch_of__status=RematchStatus.OPEN).prefetch_related(_seats())
               .defer("state").order_by("status", "-started_at", "-created_at"))
    page = Paginator(running, RUNNING_PER_PAGE).get_page(request.GET.get("page"))
    actions = ModeratorAction.objects.select_related("moderator", "person", "match", "arena")[:20]
    return render(request, "games/moderation/index.html", {
        "page": page, "actions": actions, "reason_form": ReasonForm(),
    })


@moderator_required
def suspicious(request):
    """Signs of rating boosting: rated games of accounts from one address, pairs that keep
    meeting where one of them leaves, and pairs at the limit of games together again and
    again (games/moderation/suspicious.py)."""
    return render(request, "games/moderation/suspicious.html", {
        "shared": signs.shared_address_games(),
        "pairs": signs.meeting_pairs(),
        "limit_pairs": signs.limit_pairs(),
        "days": settings.KOZEL_SUSPICIOUS_DAYS,
        "min_games": settings.KOZEL_SUSPICIOUS_MIN_GAMES,
        "min_hits": settings.KOZEL_SUSPICIOUS_LIMIT_HITS,
    })


@moderator_required
def find_game(request):
    number = match_number(request.GET.get("id", ""))
    if number is not None and Match.objects.filter(pk=number).exists():
        return redirect("moderation:game", number)
    messages.error(request, _("There is no such game."))
    return redirect("moderation:index")


@moderator_required
def game(request, match_id):
    match = get_object_or_404(Match.objects.prefetch_related(_seats()), pk=match_id)
    return render(request, "games/moderation/game.html", {
        "match": match, "reason_form": ReasonForm(),
        "running": match.status in RUNNING,
        "annulment": moderation.annulment_of(match),
        "actions": match.moderator_actions.select_related("moderator"),
        "can_annul": match.status in moderation.ENDED and match.rated
        and match.rating_records.exists(),
    })


def _act(request, done, act, *args):
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason of 3 to 500 characters."))
        return False
    try:
        act(*args, request.user, form.cleaned_data["reason"])
    except moderation.ModerationError as refusal:
        messages.error(request, refusal.message)
        return False
    messages.success(request, done)
    return True


@require_POST
@moderator_required
def abort(request, match_id):
    _act(request, _("The game is aborted."), moderation.abort_game, match_id)
    return redirect("moderation:game", match_id)


@require_POST
@moderator_required
def annul(request, match_id):
    _act(request, _("The game is annulled: its rating points are taken back."),
         moderation.annul_game, match_id)
    return redirect("moderation:game", match_id)


@moderator_required
def find_player(request):
    query = request.GET.get("q", "").strip()[:150]
    found = find_login(query)
    if found is not None:
        return redirect("moderation:player", found.username)
    return render(request, "games/moderation/find.html", {
        "query": query, "suggestions": logins_starting(query) if query else []})


@moderator_required
def player(request, login):
    person = get_object_or_404(User.objects.by_login(login).select_related("player"))
    if request.method == "POST":
        if person.is_active:
            _act(request, _("The account is closed."), moderation.deactivate_player, person)
        else:
            _act(request, _("The account is open again."), moderation.reactivate_player, person)
        return redirect("moderation:player", person.username)
    return render(request, "games/moderation/player.html", {
        "person": person, "player": person.player, "reason_form": ReasonForm(),
        "bar": limits.bar_of(person),
        "bars": person.player.bars.select_related("lifted_by")[:20],
        "muted_until": moderation.muted_until(person),
        "current": requests.current_match(person),
        "actions": person.moderated.select_related("moderator"),
        "may_act": person.pk != request.user.pk
        and (request.user.is_superuser or not (person.is_staff or person.is_superuser)),
    })


@require_POST
@moderator_required
def lift_bar(request, login):
    """Lift a leaver's bar from rated tables, with a reason (RULES.md 10)."""
    person = get_object_or_404(User.objects.by_login(login))
    _act(request, _("The bar is lifted: the player may sit down at rated tables again."),
         moderation.lift_bar, person)
    return redirect("moderation:player", person.username)


class ChatMuteForm(ReasonForm):
    hours = forms.IntegerField(label=gettext_lazy("Hours"), min_value=1,
                               max_value=moderation.CHAT_MUTE_HOURS_MAX, initial=24)


@moderator_required
def chat(request):
    """Reported chat lines, to delete or to mute their authors."""
    reported = Paginator(moderation.reported_chat(), RUNNING_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "games/moderation/chat.html", {
        "page": reported, "reason_form": ReasonForm(), "mute_form": ChatMuteForm()})


@require_POST
@moderator_required
def chat_delete(request, message_id):
    _act(request, _("The message is deleted."), moderation.delete_chat_message, message_id)
    return redirect("moderation:chat")


@require_POST
@moderator_required
def chat_mute(request, login):
    person = get_object_or_404(User.objects.by_login(login))
    form = ChatMuteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason of 3 to 500 characters and 1 to 720 hours."))
    else:
        try:
            moderation.mute_in_chat(person, request.user, form.cleaned_data["reason"],
                                    form.cleaned_data["hours"])
            messages.success(request, _("The account is muted in chat."))
        except moderation.ModerationError as refusal:
            messages.error(request, refusal.message)
    if request.POST.get("back") == "player":  # muted from the player's page: back there
        return redirect("moderation:player", person.username)
    return redirect("moderation:chat")
