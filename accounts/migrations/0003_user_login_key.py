"""Every account gets its login key (accounts.logins); accounts that collide are all kept.

Names that look alike could be registered until now ("authA" and "аuthA" with a
Cyrillic "а").  Oldest first, each account takes the key of its name; an account whose
key an older one has taken gets its clash key instead (unique, as it holds the name
itself), and is reported here and by ``manage.py lookalike_logins`` for a moderator to
resolve (docs/operations.md).
"""

from django.db import migrations, models


def fill_login_keys(apps, schema_editor):
    from accounts.logins import clash_key, login_key

    User = apps.get_model("accounts", "User")
    holders = {}   # key -> login name of the oldest account with it
    clashes = []
    for user in User.objects.order_by("date_joined", "pk").only("pk", "username"):
        key = login_key(user.username)
        if key in holders:
            clashes.append((user.username, holders[key]))
            key = clash_key(user.username)
        else:
            holders[key] = user.username
        User.objects.filter(pk=user.pk).update(login_key=key)
    if clashes:
        print(f"\n  Look-alike login names ({len(clashes)}), kept, for a moderator to resolve"
              " (manage.py lookalike_logins):")
        for name, older in clashes:
            print(f"    {name!r} looks like {older!r}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_player_active_moderatoraction"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="login_key",
            field=models.CharField(editable=False, max_length=100, null=True),
        ),
        migrations.RunPython(fill_login_keys, migrations.RunPython.noop),
    ]
