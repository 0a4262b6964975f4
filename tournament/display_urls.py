"""Hall display (projector). Included by tournament/urls.py as ``path("display/", include("tournament.display_urls"))``."""

from django.urls import path

from . import views_display

app_name = "display"

urlpatterns = [
    path("", views_display.index, name="index"),
    path("<slug:slug>/", views_display.display, name="display"),
    path("<slug:slug>/state.json", views_display.display_state_json, name="state"),
    path("<slug:slug>/version/", views_display.state_version, name="version"),
]
