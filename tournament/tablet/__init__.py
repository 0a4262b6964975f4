"""The player's tablet: the pages (login by code or QR, the tablet itself) and the texts of its script.

The tablet page is one screen driven by ``static/js/tablet.js`` over the tablet API
(``/api/tablet/login|state|slip|assist/``, :mod:`tournament.api.tablet`) and the version poll
(:mod:`tournament.live.views`).
"""
