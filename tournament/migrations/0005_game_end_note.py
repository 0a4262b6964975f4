from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0004_lead_script_time_zone_explanation"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="end_note",
            field=models.CharField(blank=True, max_length=500, verbose_name="end note"),
        ),
    ]
