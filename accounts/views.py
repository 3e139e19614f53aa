from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView

from accounts import limits
from accounts.forms import LimitedPasswordResetForm, SignUpForm


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
