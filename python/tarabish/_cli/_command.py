"""The one way a ``tarabish`` subcommand is declared: a ``Command`` in its own module of this
package, listed in ``COMMANDS`` (``__init__.py``), which builds its parser and runs it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: ``summary`` in the top-level help, ``description`` in its own;
    ``add_arguments`` declares its arguments, ``run`` does it and returns the exit status.
    Errors in its arguments are reported under its own usage (``main``)."""

    name: str
    summary: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]

    def add_to(self, commands: Subcommands) -> None:
        """Add the subcommand's parser to the top-level parser's ``commands``."""
        parser = commands.add_parser(self.name, help=self.summary, description=self.description)
        parser.set_defaults(run=self.run, parser=parser)
        self.add_arguments(parser)
