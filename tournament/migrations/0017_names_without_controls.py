"""Names stored before :class:`tournament.models.names.NameField` cleaned them lose their invisible controls
(bidi controls, other Cc/Cf characters), as every name saved since: pages show what the PDFs print."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from tournament.models.names import USER_NAMES, clean_name

#: (app, model) → the name fields of the model.
NAMES = {
    ("tournament", "Tournament"): ("name", "venue"),
    ("tournament", "Player"): ("name", "club", "category", "series", "licence"),
    ("tournament", "Simultaneous"): ("name",),
    ("tournament", "SimulHall"): ("name", "club", "city"),
    ("tournament", "HallGame"): ("hall_name",),
    ("tournament", "TrainingGame"): ("title",),
    ("tournament", "TrainingClub"): ("name",),
    ("tournament", "TrainingRun"): ("name",),
    ("auth", "User"): USER_NAMES,
}


def clean_names(apps: Any, schema_editor: Any) -> None:
    for (app, name), fields in NAMES.items():
        model = apps.get_model(app, name)
        for pk, *values in model.objects.values_list("pk", *fields).iterator(chunk_size=2000):
            cleaned = [clean_name(v) if isinstance(v, str) else v for v in values]
            if cleaned != values:
                model.objects.filter(pk=pk).update(**dict(zip(fields, cleaned, strict=True)))


class Migration(migrations.Migration):
    dependencies = [("tournament", "0016_registration_access_code_sealed"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(clean_names, migrations.RunPython.noop)]
