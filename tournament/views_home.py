"""The landing page: one door per audience (arbiter, player tablet, hall display, API)."""

from django.shortcuts import render

from .models import Tournament


def home(request):
    tournaments = Tournament.objects.order_by("-starts_on", "name")[:20]
    return render(request, "home.html", {"tournaments": tournaments})
