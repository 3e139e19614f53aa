from django import forms
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    PasswordResetForm,
    UserChangeForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from accounts import limits
from accounts.models import User


def check_login_free(username, account=None):
    """Refuse a login name that is taken in any case, or that looks like one that is
    ("аuthA" with a Cyrillic "а" beside "authA"); ``account`` is the one being renamed."""
    if not username:
        return
    others = User.objects.lookalikes(username)
    if account is not None:
        others = others.exclude(pk=account.pk)
    names = list(others.values_list("username", flat=True)[:10])
    if any(name.casefold() == username.casefold() for name in names):
        raise forms.ValidationError(_("This login name is taken."), code="unique")
    if names:
        raise forms.ValidationError(
            _("This login name looks too much like “%(taken)s”, which is taken. Choose another."),
            code="lookalike", params={"taken": names[0]},
        )


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

    def validate_password_for_user(self, user, password_field_name="password1"):
        # What is wrong with the password itself is said under "Password", where it was
        # typed (Django says it under the confirmation); once the two match, so that a
        # mismatch is said once, under the confirmation.
        if "password2" in self.cleaned_data:
            super().validate_password_for_user(user, password_field_name=password_field_name)


class LoginForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        # Django's message says both fields may be case-sensitive; login names are not.
        "invalid_login": _("Wrong login name or password. Mind the case of the password."),
    }


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most PASSWORD_RESET_RATE mails to one mailbox and to
    one account. Beyond it the mail is not sent and the page that follows says what it
    always says: a stranger learns nothing of whether the address has an account, and
    cannot fill someone's mailbox."""

    def save(self, *args, request=None, **kwargs):
        self._request = request
        super().save(*args, request=request, **kwargs)

    def get_users(self, email):
        for user in super().get_users(email):
            if not (limits.reset_mail_refused_to_address(self._request, user.email)
                    or limits.reset_mail_refused_to_account(self._request, user)):
                yield user


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

    def clean_username(self):
        username = self.cleaned_data.get("username")
        check_login_free(username, account=self.instance)
        return username
