"""The arbiter console: pages by job (``tournaments``, ``players``, ``games`` with the round actions,
``slips`` for paper slips, ``review``, ``board``, ``standings``, ``audit``), their ``forms`` and ``urls``.

Views are thin: they read a form, call a service (:mod:`tournament.services`), and show the outcome as
a message; refusals come with the error catalogue's explanation (:mod:`tournament.errors`).
"""
