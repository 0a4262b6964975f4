"""API URLs, one prefix per audience. The project includes them with ``path("api/", include("tournament.api.urls"))``.

Every pattern is named; ``tests/test_permissions.py`` walks this list so that no endpoint escapes the
permission matrix.
"""

from django.urls import path

from . import arbiter, public, rounds, simultaneous, tablet, topping

app_name = "api"

arbiter_patterns = [
    path("token/", arbiter.ArbiterTokenView.as_view(), name="arbiter-token"),
    path("tournaments/", arbiter.ArbiterTournamentList.as_view(), name="arbiter-tournaments"),
    path("tournaments/<slug:slug>/", arbiter.ArbiterTournamentDetail.as_view(), name="arbiter-tournament"),
    path("tournaments/<slug:slug>/registrations/", arbiter.ArbiterRegistrations.as_view(),
         name="arbiter-registrations"),
    path("tournaments/<slug:slug>/games/", arbiter.ArbiterGames.as_view(), name="arbiter-games"),
    path("tournaments/<slug:slug>/games/<int:number>/", arbiter.ArbiterGameDetail.as_view(), name="arbiter-game"),
    path("tournaments/<slug:slug>/games/<int:number>/rounds/", arbiter.ArbiterGameRounds.as_view(),
         name="arbiter-game-rounds"),
    path("tournaments/<slug:slug>/games/<int:number>/draw/", arbiter.ArbiterDraw.as_view(), name="arbiter-draw"),
    path("tournaments/<slug:slug>/games/<int:number>/rack-typing/", arbiter.ArbiterRackTyping.as_view(),
         name="arbiter-rack-typing"),
    path("tournaments/<slug:slug>/games/<int:number>/standings/", arbiter.ArbiterGameStandings.as_view(),
         name="arbiter-game-standings"),
    path("tournaments/<slug:slug>/games/<int:number>/finish/", arbiter.ArbiterFinishGame.as_view(),
         name="arbiter-game-finish"),
    path("tournaments/<slug:slug>/games/<int:number>/penalties/", arbiter.ArbiterPenalty.as_view(),
         name="arbiter-game-penalty"),
    path("tournaments/<slug:slug>/standings/", arbiter.ArbiterTournamentStandings.as_view(),
         name="arbiter-standings"),
    path("tournaments/<slug:slug>/audit/", arbiter.ArbiterAudit.as_view(), name="arbiter-audit"),
    path("rounds/<int:pk>/", rounds.ArbiterRoundDetail.as_view(), name="arbiter-round"),
    path("rounds/<int:pk>/open/", rounds.ArbiterOpenRound.as_view(), name="arbiter-round-open"),
    path("rounds/<int:pk>/close/", rounds.ArbiterCloseRound.as_view(), name="arbiter-round-close"),
    path("rounds/<int:pk>/judge/", rounds.ArbiterJudgeRound.as_view(), name="arbiter-round-judge"),
    path("rounds/<int:pk>/review/", rounds.ArbiterReviewRound.as_view(), name="arbiter-round-review"),
    path("rounds/<int:pk>/top/", rounds.ArbiterChooseTop.as_view(), name="arbiter-round-top"),
    path("rounds/<int:pk>/publish/", rounds.ArbiterPublishRound.as_view(), name="arbiter-round-publish"),
    path("rounds/<int:pk>/cancel/", rounds.ArbiterCancelRound.as_view(), name="arbiter-round-cancel"),
    path("rounds/<int:pk>/no-move/", rounds.ArbiterNoMoveRedraw.as_view(), name="arbiter-round-no-move"),
    path("rounds/<int:pk>/slips/", rounds.ArbiterSlips.as_view(), name="arbiter-round-slips"),
    path("rounds/<int:pk>/count/", rounds.ArbiterSlipCount.as_view(), name="arbiter-round-count"),
    path("rounds/<int:pk>/verdicts/", rounds.ArbiterVerdicts.as_view(), name="arbiter-round-verdicts"),
    path("rounds/<int:pk>/times/", topping.ArbiterRoundTimes.as_view(), name="arbiter-round-times"),
    path("tournaments/<slug:slug>/games/<int:number>/times/", topping.ArbiterGameTimes.as_view(),
         name="arbiter-game-times"),
    path("tournaments/<slug:slug>/times/", topping.ArbiterTournamentTimes.as_view(), name="arbiter-times"),
    path("verdicts/<int:pk>/override/", rounds.ArbiterOverrideVerdict.as_view(), name="arbiter-verdict-override"),
]

tablet_patterns = [
    path("login/", tablet.TabletLogin.as_view(), name="tablet-login"),
    path("state/", tablet.TabletState.as_view(), name="tablet-state"),
    path("slip/", tablet.TabletSlip.as_view(), name="tablet-slip"),
    path("assist/", tablet.AssistScore.as_view(), name="tablet-assist"),
]

public_patterns = [
    path("tournaments/", public.PublicTournamentList.as_view(), name="public-tournaments"),
    path("tournaments/<slug:slug>/", public.PublicTournamentDetail.as_view(), name="public-tournament"),
    path("tournaments/<slug:slug>/games/<int:number>/rounds/", public.PublicRounds.as_view(), name="public-rounds"),
    path("tournaments/<slug:slug>/games/<int:number>/standings/", public.PublicGameStandings.as_view(),
         name="public-game-standings"),
    path("tournaments/<slug:slug>/games/<int:number>/times/", topping.PublicGameTimes.as_view(),
         name="public-game-times"),
    path("tournaments/<slug:slug>/standings/", public.PublicTournamentStandings.as_view(),
         name="public-standings"),
]

simultaneous_patterns = [
    path("<uuid:game>/halls/<slug:code>/package/", simultaneous.HallPackage.as_view(), name="simul-package"),
    path("<uuid:game>/results/", simultaneous.HallResults.as_view(), name="simul-results"),
]

urlpatterns = [
    *[path("arbiter/" + str(p.pattern), p.callback, name=p.name) for p in arbiter_patterns],
    *[path("tablet/" + str(p.pattern), p.callback, name=p.name) for p in tablet_patterns],
    *[path("public/" + str(p.pattern), p.callback, name=p.name) for p in public_patterns],
    *[path("simultaneous/" + str(p.pattern), p.callback, name=p.name) for p in simultaneous_patterns],
]
