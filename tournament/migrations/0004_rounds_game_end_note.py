from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0003_screen_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="end_note",
            field=models.CharField(blank=True, max_length=500, verbose_name="end note"),
        ),
    ]
