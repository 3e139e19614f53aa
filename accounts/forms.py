from django import forms
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    UserChangeForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from accounts.models import User


def check_login_free(username):
    # The database's lower() on both sides, so Cyrillic folds as the constraint folds it.
    if username and User.objects.by_login(username).exists():
        raise forms.ValidationError(_("This login name is taken."), code="unique")


class SignUpForm(UserCreationForm):
    """Login name and password twice; e-mail only if the player wants password resets."""

    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = self.cleaned_data.get("username")
        check_login_free(username)
        return username


class LoginForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        # Django's message says both fields may be case-sensitive; login names are not.
        "invalid_login": _("Wrong login name or password. Mind the case of the password."),
    }


class AdminSignUpForm(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("username",)

    def clean_username(self):
        username = self.cleaned_data.get("username")
        check_login_free(username)
        return username


class AdminUserChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User
