"""API URLs, one prefix per audience. The project includes them with ``path("api/", include("tournament.api.urls"))``.

Every pattern is named; ``tests/test_permissions.py`` walks this list so that no endpoint escapes the
permission matrix.
"""

from django.urls import path

from . import views

app_name = "api"

arbiter = [
    path("token/", views.ArbiterTokenView.as_view(), name="arbiter-token"),
    path("tournaments/", views.ArbiterTournamentList.as_view(), name="arbiter-tournaments"),
    path("tournaments/<slug:slug>/", views.ArbiterTournamentDetail.as_view(), name="arbiter-tournament"),
    path("tournaments/<slug:slug>/registrations/", views.ArbiterRegistrations.as_view(),
         name="arbiter-registrations"),
    path("tournaments/<slug:slug>/games/", views.ArbiterGames.as_view(), name="arbiter-games"),
    path("tournaments/<slug:slug>/games/<int:number>/", views.ArbiterGameDetail.as_view(), name="arbiter-game"),
    path("tournaments/<slug:slug>/games/<int:number>/rounds/", views.ArbiterGameRounds.as_view(),
         name="arbiter-game-rounds"),
    path("tournaments/<slug:slug>/games/<int:number>/draw/", views.ArbiterDraw.as_view(), name="arbiter-draw"),
    path("tournaments/<slug:slug>/games/<int:number>/standings/", views.ArbiterGameStandings.as_view(),
         name="arbiter-game-standings"),
    path("tournaments/<slug:slug>/games/<int:number>/finish/", views.ArbiterFinishGame.as_view(),
         name="arbiter-game-finish"),
    path("tournaments/<slug:slug>/games/<int:number>/penalties/", views.ArbiterPenalty.as_view(),
         name="arbiter-game-penalty"),
    path("tournaments/<slug:slug>/standings/", views.ArbiterTournamentStandings.as_view(),
         name="arbiter-standings"),
    path("tournaments/<slug:slug>/audit/", views.ArbiterAudit.as_view(), name="arbiter-audit"),
    path("rounds/<int:pk>/", views.ArbiterRoundDetail.as_view(), name="arbiter-round"),
    path("rounds/<int:pk>/open/", views.ArbiterOpenRound.as_view(), name="arbiter-round-open"),
    path("rounds/<int:pk>/close/", views.ArbiterCloseRound.as_view(), name="arbiter-round-close"),
    path("rounds/<int:pk>/judge/", views.ArbiterJudgeRound.as_view(), name="arbiter-round-judge"),
    path("rounds/<int:pk>/review/", views.ArbiterReviewRound.as_view(), name="arbiter-round-review"),
    path("rounds/<int:pk>/top/", views.ArbiterChooseTop.as_view(), name="arbiter-round-top"),
    path("rounds/<int:pk>/publish/", views.ArbiterPublishRound.as_view(), name="arbiter-round-publish"),
    path("rounds/<int:pk>/cancel/", views.ArbiterCancelRound.as_view(), name="arbiter-round-cancel"),
    path("rounds/<int:pk>/no-move/", views.ArbiterNoMoveRedraw.as_view(), name="arbiter-round-no-move"),
    path("rounds/<int:pk>/slips/", views.ArbiterSlips.as_view(), name="arbiter-round-slips"),
    path("rounds/<int:pk>/count/", views.ArbiterSlipCount.as_view(), name="arbiter-round-count"),
    path("rounds/<int:pk>/verdicts/", views.ArbiterVerdicts.as_view(), name="arbiter-round-verdicts"),
    path("verdicts/<int:pk>/override/", views.ArbiterOverrideVerdict.as_view(), name="arbiter-verdict-override"),
]

tablet = [
    path("login/", views.TabletLogin.as_view(), name="tablet-login"),
    path("state/", views.TabletState.as_view(), name="tablet-state"),
    path("slip/", views.TabletSlip.as_view(), name="tablet-slip"),
]

public = [
    path("tournaments/", views.PublicTournamentList.as_view(), name="public-tournaments"),
    path("tournaments/<slug:slug>/", views.PublicTournamentDetail.as_view(), name="public-tournament"),
    path("tournaments/<slug:slug>/games/<int:number>/rounds/", views.PublicRounds.as_view(), name="public-rounds"),
    path("tournaments/<slug:slug>/games/<int:number>/standings/", views.PublicGameStandings.as_view(),
         name="public-game-standings"),
    path("tournaments/<slug:slug>/standings/", views.PublicTournamentStandings.as_view(),
         name="public-standings"),
]

urlpatterns = [
    *[path("arbiter/" + str(p.pattern), p.callback, name=p.name) for p in arbiter],
    *[path("tablet/" + str(p.pattern), p.callback, name=p.name) for p in tablet],
    *[path("public/" + str(p.pattern), p.callback, name=p.name) for p in public],
]
