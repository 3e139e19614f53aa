from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django.views.generic import FormView

from accounts import friends, limits
from accounts.forms import LimitedPasswordResetForm, SignUpForm
from accounts.models import User


class SignUpView(FormView):
    template_name = "accounts/signup.html"
    form_class = SignUpForm
    success_url = reverse_lazy("games:lobby")

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect(self.get_success_url())
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        if limits.signup_refused(self.request):
            return refused(self, form, _("Too many new accounts from your network address. Try again later."))
        user = form.save()
        # Signing up logs the new player in straight away.
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(self.get_success_url())

    def get_success_url(self):
        target = self.request.POST.get("next") or self.request.GET.get("next")
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        ):
            return target
        return str(self.success_url)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with the mails limited (LimitedPasswordResetForm) and the requests from
    one client address too: that answer says nothing about any account."""

    form_class = LimitedPasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        if limits.reset_request_refused(self.request):
            return refused(self, form, _("Too many password-reset requests from your network address. "
                                         "Try again later."))
        return super().form_valid(form)


def refused(view, form, message):
    """The form again with ``message`` above it, as HTTP 429 (Too Many Requests)."""
    form.add_error(None, message)
    return view.render_to_response(view.get_context_data(form=form), status=429)


FRIENDS_ACTIONS = {
    "follow": (friends.follow, _("You follow {name} now.")),
    "unfollow": (friends.unfollow, _("You no longer follow {name}.")),
    "block": (friends.block, _("You have blocked {name}.")),
    "unblock": (friends.unblock, _("{name} is no longer blocked.")),
}


def _back(request, fallback: str) -> str:
    target = request.POST.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@require_POST
@login_required
def friends_action(request, login, action):
    """Follow, unfollow, block or unblock the player ``login``; back to their page (or
    to ``next``) with a message.  Limited per account (KOZEL_FRIENDS_RATE): HTTP 429."""
    person = get_object_or_404(User.objects.by_login(login))
    back = _back(request, reverse("players:profile", args=[person.username]))
    if limits.friends_action_refused(request):
        return HttpResponse(_("Too many changes to your friends and blocks. Try again later."),
                            status=429, content_type="text/plain; charset=utf-8")
    act, done = FRIENDS_ACTIONS[action]
    try:
        act(request.user, person)
    except friends.FriendsError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done).format(name=person.username))
    return redirect(back)
