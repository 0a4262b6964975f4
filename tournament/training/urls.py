"""Training pages. Included by tournament/urls.py as ``path("training/", include("tournament.training.urls"))``."""

from django.urls import path

from . import club_views, views

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
    path("run/<str:code>/state/", club_views.run_state, name="run_state"),
    path("club/open/", club_views.open_club, name="club_open"),
    path("club/join/", club_views.join, name="club_join"),
    path("club/<str:code>/", club_views.table, name="club"),
    path("club/<str:code>/state/", club_views.state, name="club_state"),
    path("club/<str:code>/lead/<str:key>/", club_views.lead, name="club_lead"),
    path("club/<str:code>/lead/<str:key>/start/", club_views.start, name="club_start"),
]
