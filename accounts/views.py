from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.generic import FormView

from accounts.forms import SignUpForm
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


def profile(request, login):
    """A player's page at /players/<login>/ (any case of the login name finds it): their
    numbers, their rating history as a chart, and their games, a page at a time (a
    private game only for its players and moderators)."""
    from ratings.history import chart_for, games_page

    person = get_object_or_404(User.objects.by_login(login).select_related("player"))
    return render(request, "accounts/profile.html", {
        "person": person, "player": person.player,
        "chart": chart_for(person.player, joined=person.date_joined, viewer=request.user),
        "games": games_page(person, request.GET.get("page"), viewer=request.user),
    })
