"""Per tournament: the row letters of coordinates and the hall's time zone; verdicts keep the engine's
explanation as data. Existing tournaments keep what their players saw: Cyrillic rows on a Cyrillic rule set
in the duplicate convention for a Russian or Ukrainian tournament."""

from django.conf import settings
from django.db import migrations, models

from scoring.rules import RulesError, get_ruleset


def set_scripts(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    for t in Tournament.objects.all():
        try:
            cyrillic = get_ruleset(t.ruleset).cyrillic
        except RulesError:
            cyrillic = False
        if cyrillic and t.convention == "duplicate" and t.language in ("ru", "uk"):
            Tournament.objects.filter(pk=t.pk).update(coordinate_script="cyrillic")


class Migration(migrations.Migration):
    dependencies = [("tournament", "0003_screen_version")]

    operations = [
        migrations.AddField(
            model_name="tournament", name="coordinate_script",
            field=models.CharField(choices=[("latin", "Latin: A B C … O"), ("cyrillic", "Cyrillic: А Б В … П")],
                                   default="latin", max_length=8, verbose_name="row letters"),
        ),
        migrations.AddField(
            model_name="tournament", name="time_zone",
            field=models.CharField(default=settings.TIME_ZONE, max_length=64, verbose_name="time zone"),
        ),
        migrations.AlterField(
            model_name="tournament", name="convention",
            field=models.CharField(choices=[("duplicate", "duplicate: rows are letters, columns numbers"),
                                            ("english", "English: columns are letters, rows numbers")],
                                   default="duplicate", max_length=10, verbose_name="coordinates"),
        ),
        migrations.AddField(model_name="verdict", name="explanation", field=models.JSONField(blank=True, null=True)),
        migrations.RunPython(set_scripts, migrations.RunPython.noop),
    ]
