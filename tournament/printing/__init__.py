"""Printed documents as PDF: standings, game sheets, player sheets, arbitration sheets, blank slips and
access cards.

``spec`` (what to print, checked), ``build`` (the file and its cache), ``jobs`` (a print job run by a
Celery worker, with its progress for the page), ``documents`` (the documents, drawn with reportlab on
``layout``), ``views`` and ``urls`` (the arbiter's printing page). The documents read the services and
the game state (:mod:`tournament.services`, :mod:`tournament.gamestate`); printing changes nothing but
new access codes, which a service stores once the cards are written.
"""
