from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0007_audit_address"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="variant",
            field=models.CharField(choices=[("classic", "Classic"), ("joker", "Joker")], default="classic",
                                   max_length=16, verbose_name="variant"),
        ),
    ]
