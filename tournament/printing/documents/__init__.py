"""The six printed documents: standings, game sheet, player sheet, arbitration sheet, blank slips, access cards.

Each ``*_document(...)`` function asks :mod:`tournament.services.reading` for what the document shows
(plain dataclasses and the standings rows; the figures are those of :mod:`scoring.sheet`) and returns
a :class:`~tournament.printing.layout.Document` ready to :meth:`~tournament.printing.layout.Document.build`.
The document classes only lay out what they are given: no query, no write. Reason labels, review flags
and coordinates come from :mod:`tournament.labels`.

``common`` (header, table look, numbers), ``board`` (the board diagram and its legend), ``standings``,
``game_sheet``, ``player_sheet``, ``arbitration``, ``cards`` (slips and access cards, QR codes).
Labels are translated with gettext in the active language (the caller activates the tournament's).
"""

from .arbitration import ArbitrationDocument, arbitration_document
from .board import BoardDiagram, board_legend
from .cards import (
    TABLET_LOGIN_PATH,
    AccessCardsDocument,
    SlipsDocument,
    access_cards_document,
    slips_document,
    tablet_login_url,
)
from .common import SheetDocument
from .game_sheet import GameSheetDocument, game_sheet_document
from .player_sheet import (
    PlayerSheetDocument,
    PlayerSheetsDocument,
    player_sheet_document,
    player_sheets_document,
)
from .standings import StandingsDocument, standings_document

__all__ = ["TABLET_LOGIN_PATH", "AccessCardsDocument", "ArbitrationDocument", "BoardDiagram", "GameSheetDocument",
           "PlayerSheetDocument", "PlayerSheetsDocument", "SheetDocument", "SlipsDocument", "StandingsDocument", "access_cards_document",
           "arbitration_document", "board_legend", "game_sheet_document", "player_sheet_document", "player_sheets_document", "slips_document",
           "standings_document", "tablet_login_url"]
