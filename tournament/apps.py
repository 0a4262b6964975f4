from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Duplicate tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the Celery tasks register themselves when imported: the services send them by name
        from . import tasks  # noqa: F401
