"""Hall display (projector). Included by tournament/urls.py as ``path("display/", include("tournament.display.urls"))``."""

from django.urls import path

from ..live.views import state_version
from . import views

app_name = "display"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.display, name="display"),
    path("<slug:slug>/state.json", views.display_state_json, name="state"),
    path("<slug:slug>/version/", state_version, name="version"),
    path("<slug:slug>/topped.json", views.topped_json, name="topped"),
]
