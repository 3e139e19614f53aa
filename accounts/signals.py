from accounts.models import Player


def create_player(sender, instance, created, raw=False, **kwargs):
    """Every user is a player: sign-up, createsuperuser and the admin all come through here."""
    if created and not raw:
        Player.objects.get_or_create(user=instance)
