from django.core.management import call_command


def test_models_and_migrations_agree(db):
    # Fails when a model changed without a migration to go with it.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
