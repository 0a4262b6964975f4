from django.contrib import admin
from django.http import HttpRequest

from .models import Lexicon


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin):  # unparameterised: ModelAdmin[...] fails at runtime
    list_display = ("name", "version", "ruleset", "status", "word_count", "short_hash", "file_size", "built_at", "source")
    list_filter = ("status", "ruleset", "name")
    search_fields = ("name", "source", "content_hash")
    ordering = ("name", "-version")
    readonly_fields = (
        "version", "word_count", "node_count", "content_hash", "file_path", "file_size", "input_path",
        "options", "build_seconds", "built_at", "status", "progress", "report", "error", "created_by",
        "created_at", "updated_at",
    )
    fields = ("name", "ruleset", "source", *readonly_fields)

    @admin.display(description="hash")
    def short_hash(self, obj: Lexicon) -> str:
        return obj.hash_prefix

    def has_add_permission(self, request: HttpRequest) -> bool:
        # lexicons are built by `manage.py lexicon` or the upload page, never typed in
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Lexicon | None = None) -> tuple[str, ...]:
        if obj is not None and obj.status == Lexicon.Status.READY:
            # a ready version may be referenced by tournaments: its identity does not change
            return ("name", "ruleset", "source", *self.readonly_fields)
        return self.readonly_fields
