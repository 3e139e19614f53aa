"""The login key becomes the one unique index of login names, in place of the index on
lower(username): SQLite's own lower() folds only ASCII, so the site's Unicode lower()
(kozel_site/runtime/sqlite.py) built that index, and a stock sqlite3 reported it broken."""

import django.core.validators
from django.db import migrations, models

import accounts.validators


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_user_login_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="login_key",
            field=models.CharField(editable=False, max_length=100, unique=True),
        ),
        migrations.RemoveConstraint(
            model_name="user",
            name="accounts_user_login_unique_ci",
        ),
        migrations.AlterField(
            model_name="user",
            name="username",
            field=models.CharField(error_messages={"unique": "This login name is taken."}, help_text="3 to 30 letters, digits, “_” or “-”. Other players see it.", max_length=30, unique=True, validators=[accounts.validators.LoginNameValidator(), accounts.validators.OneAlphabetValidator(), django.core.validators.MinLengthValidator(3)], verbose_name="login name"),
        ),
    ]
