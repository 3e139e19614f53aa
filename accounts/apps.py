from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.db.models.signals import post_migrate, post_save

        from accounts import moderators, signals
        from kozel_site.runtime import sqlite

        sqlite.connect()
        post_save.connect(
            signals.create_player, sender=self.get_model("User"), dispatch_uid="kozel-create-player"
        )
        # Every app's post_migrate: the group picks up each app's permissions as they appear.
        post_migrate.connect(moderators.ensure_group, dispatch_uid="kozel-moderators-group")
