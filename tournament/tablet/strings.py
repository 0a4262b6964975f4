"""Every text the tablet's scripts show, in the active language (rendered into the page as JSON)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import labels


def tablet_strings() -> dict[str, str | dict[str, str]]:
    return {
        "status_none": _("The game has not started yet."),
        "status_drawn": _("The arbiter is drawing the rack…"),
        "status_open": _("Hand in your slip before the time is over."),
        "status_closed": _("Time is over. The arbiter is judging the slips."),
        "status_published": _("Results of the round"),
        "round_results": _("Round %(n)s: results"),
        "status_typing": _("The arbiter is typing the rack drawn from the bag…"),
        "game_round": _("Game %(game)s · round %(round)s"),
        "time_over": _("Time is over"),
        "time_over_long": _("Time is over: the slip can no longer be changed."),
        "online": _("online"),
        "offline": _("no network"),
        "hand_in": _("Hand in"),
        "replace": _("Replace the slip"),
        "received": _("Slip received at %(time)s"),
        "version": _("version %(n)s"),
        "can_replace": _("You can replace it until the time is over; the last slip counts."),
        "counts": _("This slip counts."),
        "pending": _("It is kept on this tablet and will be sent as soon as the network is back."),
        "pending_short": _("Slip not sent yet"),
        "sending": _("Sending…"),
        "retry_in": _("next try in %(s)s s"),
        "refused": _("Slip refused"),
        "late": _("The slip reached the server after the deadline: it was stored as late and counts as missing."),
        "late_paper": _("Your paper slip was handed in after the deadline: it was stored as late and counts as "
                        "missing."),
        "round_over": _("The round is over: the slip was not taken."),
        "round_changed": _("The round changed: the slip was for an earlier round."),
        "login_again": _("Log in again with your access code: the slip is kept and will be sent."),
        "word_missing": _("Write the word."),
        "coords_bad": _("Coordinates look like %(across)s (horizontal) or %(down)s (vertical)."),
        "off_board_column": _("«%(word)s» from %(place)s runs off the board: its last letter would be in column "
                              "%(end)s."),
        "off_board_row": _("«%(word)s» from %(place)s runs off the board: its last letter would be in row %(end)s."),
        "off_board_again": _("Check the coordinates. To hand the slip in as it is, press «%(button)s» again."),
        "score_bad": _("The score is a whole number."),
        "your_move": _("Your move"),
        "no_slip": _("You handed in no slip."),
        "points": labels.points_forms(),
        "warning": _("warning"),
        "top": _("Top"),
        "round_score": _("Round score"),
        "total": _("Total"),
        "rank": _("Rank"),
        "of_players": _("of %(n)s"),
        "top_total": _("top total %(n)s"),
        "solo": _("solo +%(n)s"),
        "horizontal": _("horizontal"),
        "vertical": _("vertical"),
        "start_square": _("Start square %(sq)s: which direction?"),
        "cancel": _("Cancel"),
        "log_in": _("Log in"),
        "logged_out": _("This tablet was logged out: log in with your access code."),
        "confirm_logout": _("A slip is not sent yet. Log out anyway? It stays on this tablet."),
        "logout_question": _("Log out of this tablet? To log in again you need the access code of your card."),
        "log_out": _("Log out"),
        "stay": _("Stay logged in"),
        "assist_hint": _("Tap a tile of your rack, then a square of the board."),
        "assist_use": _("Use this move"),
        "assist_clear": _("Take the tiles back"),
        "assist_error": _("Cannot compute the score."),
        "blank_letter": _("Which letter does the blank stand for?"),
        "status_drawn_random": _("The computer drew the rack: the round opens in a moment…"),
        "status_drawn_typed": _("The arbiter typed the rack drawn from the bag: the round opens in a moment…"),
        "status_drawn_prepared": _("The rack of the prepared game is ready: the round opens in a moment…"),
        "redrawn": _("Rack redrawn: %(rack)s — %(reason)s"),
        "redraw_reasons": labels.redraw_reason_texts(),
        "end_reasons": labels.end_reason_texts(),
        "reasons": labels.reason_texts(),
        "placement": labels.placement_texts(),
        **_results_strings(),
        **_topping_strings(),
    }


def _results_strings() -> dict[str, str]:
    """The end of a game and the tournament's results."""
    return {
        "game_over": _("Game over"),
        "game_over_n": _("Game %(game)s is over"),
        "final_total": _("Final total"),
        "final_rank": _("Final rank"),
        "tournament_total": _("Tournament total"),
        "tournament_rank": _("Tournament rank"),
        "game_n": _("Game %(game)s"),
        "game_result": _("%(total)s (top total %(top_total)s) · rank %(rank)s of %(n)s"),
    }


def _topping_strings() -> dict[str, str]:
    """A topping game's texts (each attempt answered at once)."""
    return {
        "topping_status": _("Topping: find the top. Your round ends when you hand it in; the time counts."),
        "topping_try": _("Try this move"),
        "topping_top": _("Top!"),
        "topping_time": _("Your time: %(time)s"),
        "topping_done": _("Your round is over: wait for the next rack."),
        "topping_not_top": _("Not the top — try again"),
        "topping_missed": _("Top not found: the round counts the time limit plus the penalty."),
        "topping_points": _("Your move %(move)s: %(points)s"),
        "topping_invalid": _("Your move %(move)s is not a legal move of valid words."),
        "topping_total_time": _("Total time"),
        "topping_tops": _("tops: %(n)s"),
    }


def login_strings() -> dict[str, str]:
    return {
        "bad_code": _("This access code is wrong. Check it and try again."),
        "too_many": _("Too many wrong codes from this tablet: wait a few minutes and try again."),
        "network": _("No network: check the connection and try again."),
        "logging_in": _("Logging in…"),
        "expired": _("This tablet was logged out (the code was used on another tablet?): log in again."),
    }
