"""What the engine commands (``solve``, ``bench_solver``, ``simulate``) share: one-line argument errors,
argument types, and the solver over a lexicon given on the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

from django.core.management.base import CommandError, CommandParser

from lexicon.resolve import LexiconNotFound, open_lexicon
from scoring.rules import RuleSet
from scoring.solver import Solver, SolverError, solver_for

from .. import labels


def one_line_errors(
    parser: CommandParser,
    report: Callable[[str], object],
    otherwise: Callable[[str], NoReturn] | None = None,
) -> CommandParser:
    """Argument errors on the command line: ``report(message)`` (one line, not argparse's whole usage) and
    exit status 2. Called from code (``call_command``): ``otherwise(message)``, by default Django's
    ``CommandError``."""
    original = parser.error

    def error(message: str) -> None:  # never returns: exits, or raises (CommandParser.error does too)
        if parser.called_from_command_line:
            report(message)
            sys.exit(2)
        if otherwise is not None:
            otherwise(message)
        original(message)

    parser.error = error  # type: ignore[method-assign]  # this one parser's errors, not the class's
    return parser


def positive_int(text: str) -> int:
    """An argument type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def open_solver(ruleset: RuleSet, lexicon: str) -> Solver:
    """The cached solver for the rule set over the lexicon (name, .kwg or word-list file); exit 2 if unusable."""
    try:
        graph = open_lexicon(lexicon, ruleset.id)
    except LexiconNotFound as exc:
        raise CommandError(str(exc), returncode=2) from None
    try:
        return solver_for(ruleset, graph)
    except SolverError as exc:
        raise CommandError(str(exc), returncode=2) from None


__all__ = ["one_line_errors", "open_solver", "positive_int"]


def add_script_argument(parser: CommandParser) -> None:
    """``--script latin|cyrillic``: the row letters of the coordinates printed (a Cyrillic rule set's
    tournaments usually read А–П; both are read on input)."""
    parser.add_argument("--script", choices=[labels.LATIN, labels.CYRILLIC], default=labels.LATIN,
                        help="row letters of the coordinates printed: latin (A–O, default) or cyrillic (А–П)")


def script_style(opts: dict[str, object]) -> labels.CoordStyle:
    """The coordinate style the options ask for (``--script``, ``--convention`` when the command has it)."""
    return labels.script_style(str(opts.get("convention") or "duplicate"), str(opts.get("script") or labels.LATIN))
