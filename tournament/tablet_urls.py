"""Player tablet pages. Included by tournament/urls.py as ``path("tablet/", include("tournament.tablet_urls"))``."""

from django.urls import path

from . import views_display, views_tablet

app_name = "tablet"

urlpatterns = [
    path("", views_tablet.app, name="app"),
    path("login/", views_tablet.login, name="login"),
    path("qr.svg", views_tablet.qr_code, name="qr"),
    path("assist/", views_tablet.AssistScore.as_view(), name="assist"),
    path("version/<slug:slug>/", views_display.state_version, name="version"),
]
