"""``manage.py lookalike_logins``: the accounts whose login names look like an older one's.

Such accounts were registered before look-alike names were refused; the data migration
accounts 0003 kept them all, each later one with a clash key (accounts.logins).  A
moderator resolves a clash by renaming one account in the admin (docs/operations.md).
"""

from django.core.management.base import BaseCommand

from accounts.logins import CLASH_MARK, login_key
from accounts.models import User


def lookalike_accounts():
    """(account with a clash key, the account it looks like or None), oldest first."""
    clashing = list(User.objects.filter(login_key__contains=CLASH_MARK).order_by("date_joined", "pk"))
    holders = {user.login_key: user for user in
               User.objects.filter(login_key__in={login_key(user.username) for user in clashing})}
    return [(user, holders.get(login_key(user.username))) for user in clashing]


class Command(BaseCommand):
    help = "Lists the accounts whose login names look like an older account's, to resolve by hand."

    def handle(self, *args, **options):
        pairs = lookalike_accounts()
        if not pairs:
            self.stdout.write("No look-alike login names.")
            return
        for user, older in pairs:
            if older is None:
                self.stdout.write(f"{user.username!r} (#{user.pk}): no longer looks like another account")
            else:
                self.stdout.write(f"{user.username!r} (#{user.pk}) looks like {older.username!r} (#{older.pk})")
