"""Training pages. Included by tournament/urls.py as ``path("training/", include("tournament.training.urls"))``."""

from django.urls import path

from . import views

app_name = "training"

urlpatterns = [
    path("", views.index, name="index"),
    path("upload/", views.upload, name="upload"),
    path("start/", views.start, name="start"),
    path("resume/", views.resume, name="resume"),
    path("run/<str:code>/", views.run, name="run"),
    path("run/<str:code>/next/", views.next_round, name="next"),
    path("run/<str:code>/slip/", views.slip, name="slip"),
    path("run/<str:code>/moves/", views.show_moves, name="moves"),
]
