from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0015_antifarm"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_level",
            field=models.CharField(blank=True, choices=[("beginner", "beginner"), ("heuristic", "club player"), ("master", "master")], default="", max_length=16, verbose_name="bot's level"),
        ),
    ]
