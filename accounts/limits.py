"""How often one client may sign up or ask for password-reset mails (django-ratelimit).

The counts live in Django's cache (Redis when REDIS_URL is set) in fixed windows of the
rate's period; a client's address is kozel_site.clientaddress.client_address's.
"""

from django.conf import settings
from django_ratelimit.core import is_ratelimited


def signup_refused(request) -> bool:
    """Counts one new account for the client's address; True once that is over the limit.

    Only sign-ups that would succeed are counted (a mistyped password costs nothing), and
    counting comes before the answer, so parallel sign-ups cannot all slip under it."""
    return is_ratelimited(request, group="accounts.signup", key="ip",
                          rate=settings.KOZEL_SIGNUP_RATE, increment=True)


def reset_request_refused(request) -> bool:
    """Counts one password-reset request from the client's address, whatever it names."""
    return is_ratelimited(request, group="accounts.reset.client", key="ip",
                          rate=settings.KOZEL_PASSWORD_RESET_CLIENT_RATE, increment=True)


def reset_mail_refused_to_address(request, email: str) -> bool:
    """Counts one reset mail to this mailbox, for whichever of the accounts that share it."""
    address = email.strip().lower()
    return is_ratelimited(request, group="accounts.reset.email", key=lambda group, request: address,
                          rate=settings.KOZEL_PASSWORD_RESET_RATE, increment=True)


def reset_mail_refused_to_account(request, user) -> bool:
    """Counts one reset mail to this account, under whichever spelling of its address."""
    return is_ratelimited(request, group="accounts.reset.account", key=lambda group, request: str(user.pk),
                          rate=settings.KOZEL_PASSWORD_RESET_RATE, increment=True)


def friends_action_refused(request) -> bool:
    """Counts one follow, unfollow, block or unblock of the account; True once that is
    over the limit (one account clicking through many players' pages)."""
    return is_ratelimited(request, group="accounts.friends", key="user",
                          rate=settings.KOZEL_FRIENDS_RATE, increment=True)
