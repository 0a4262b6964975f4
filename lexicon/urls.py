"""Arbiter lexicon pages. Included by tournament/urls.py as ``path("arbiter/lexicons/", include("lexicon.urls"))``."""

from django.urls import path

from . import views

app_name = "lexicon"

urlpatterns = [
    path("", views.lexicon_list, name="list"),
    path("check/", views.check, name="check"),
    path("upload/", views.upload, name="upload"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/status.json", views.status, name="status"),
]
