from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0011_simultaneous"),
    ]

    operations = [
        migrations.AlterField(
            model_name="simultaneous",
            name="variant",
            field=models.CharField(choices=[("classic", "Classic"), ("joker", "Joker"), ("topping", "Topping")],
                                   default="classic", max_length=16, verbose_name="variant"),
        ),
        migrations.AlterField(
            model_name="traininggame",
            name="variant",
            field=models.CharField(choices=[("classic", "Classic"), ("joker", "Joker"), ("topping", "Topping")],
                                   default="classic", max_length=16, verbose_name="variant"),
        ),
        migrations.AlterField(
            model_name="game",
            name="variant",
            field=models.CharField(choices=[("classic", "Classic"), ("joker", "Joker"), ("topping", "Topping")],
                                   default="classic", max_length=16, verbose_name="variant"),
        ),
        migrations.AlterField(
            model_name="slip",
            name="source",
            field=models.CharField(choices=[("tablet", "tablet"), ("paper", "paper"), ("arbiter", "arbiter"),
                                            ("time", "time recorded by the arbiter")],
                                   default="tablet", max_length=8),
        ),
        migrations.AddField(
            model_name="slip",
            name="topped",
            field=models.BooleanField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="slip",
            name="points",
            field=models.IntegerField(blank=True, null=True),
        ),
    ]
