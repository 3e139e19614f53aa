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
    ("axes", "accessattempt"),
    ("axes", "accessfailurelog"),
    ("axes", "accesslog"),
]
# What a moderator may do: deactivate or reactivate an account, lift a log-in lock.
ACT = [
    ("accounts", "change_user"),
    ("axes", "delete_accessattempt"),
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
