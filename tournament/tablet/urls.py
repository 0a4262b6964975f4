"""Player tablet pages. Included by tournament/urls.py as ``path("tablet/", include("tournament.tablet.urls"))``."""

from django.urls import path

from ..live.views import state_version
from . import views

app_name = "tablet"

urlpatterns = [
    path("", views.app, name="app"),
    path("login/", views.login, name="login"),
    path("qr.svg", views.qr_code, name="qr"),
    path("version/<slug:slug>/", state_version, name="version"),
]
