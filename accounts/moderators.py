"""The "moderators" group: staff who may look at everything and act on people, not history.

Give a staff account this group in the admin to make it a moderator. The group is kept up
to date after every `migrate`.
"""

GROUP_NAME = "moderators"

# (app label, model) pairs a moderator may view.
VIEW = [
    ("accounts", "user"),
    ("accounts", "player"),
    ("games", "match"),
    ("games", "seat"),
    ("games", "move"),
    ("games", "roundscore"),
    ("ratings", "ratingrecord"),
    ("ratings", "ratingtotal"),
    ("accounts", "moderatoraction"),
    ("axes", "accessattempt"),
    ("axes", "accessfailurelog"),
    ("axes", "accesslog"),
]
# What a moderator may do: everything on the moderation pages (abort or annul a game,
# close or reopen an account, each with a reason in the log), and lift a log-in lock.
ACT = [
    ("accounts", "moderate"),
    ("axes", "delete_accessattempt"),
]
# Given once, taken back: accounts are closed on the moderation pages, never in the admin.
REVOKED = [
    ("accounts", "change_user"),
]


def ensure_group(sender=None, apps=None, using="default", **kwargs):
    if apps is None:
        from django.apps import apps
    try:
        Group = apps.get_model("auth", "Group")
        Permission = apps.get_model("auth", "Permission")
    except LookupError:
        return
    wanted = [(app, f"view_{model}") for app, model in VIEW] + ACT
    group, _ = Group.objects.using(using).get_or_create(name=GROUP_NAME)
    for app_label, codename in wanted:
        permission = (
            Permission.objects.using(using)
            .filter(content_type__app_label=app_label, codename=codename)
            .first()
        )
        if permission is not None:
            group.permissions.add(permission)
    for app_label, codename in REVOKED:
        group.permissions.remove(*Permission.objects.using(using).filter(
            content_type__app_label=app_label, codename=codename))


def is_moderator(user) -> bool:
    """Staff with the "moderate" permission: the moderators group, or a superuser."""
    return bool(user is not None and user.is_authenticated and user.is_staff
                and user.has_perm("accounts.moderate"))
