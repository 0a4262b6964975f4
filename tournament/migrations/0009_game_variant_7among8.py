from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_game_variant"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="variant",
            field=models.CharField(
                choices=[("classic", "Classic"), ("joker", "Joker"), ("7among8", "7-among-8")],
                default="classic",
                max_length=16,
                verbose_name="variant",
            ),
        ),
    ]
