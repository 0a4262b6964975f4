"""The tournament's rows: the domain (:mod:`.core`: tournaments, players, games, rounds, slips, verdicts, penalties,
solos, audit, code keys), training (:mod:`.training`) and one game in many halls (:mod:`.simultaneous`).

State changes go through :mod:`tournament.services` (transactions, conditional status claims, audit log); the
models hold data and small helpers only.
"""

from .core import *  # noqa: F403  (every name of the domain's rows, as `tournament.models`)
from .core import __all__ as _core_names
from .simultaneous import HallGame, SimulHall, SimulResult, Simultaneous
from .training import TrainingClub, TrainingGame, TrainingRun

__all__ = [*_core_names, "HallGame", "SimulHall", "SimulResult", "Simultaneous", "TrainingClub", "TrainingGame",
           "TrainingRun"]
