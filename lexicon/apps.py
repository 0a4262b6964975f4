from django.apps import AppConfig


class LexiconConfig(AppConfig):
    name = "lexicon"
    verbose_name = "Lexicons"
    default_auto_field = "django.db.models.BigAutoField"
