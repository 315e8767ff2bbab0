"""The progress bar of ``tarabish simulate``: done / total, the rate and the time left, drawn
with rich on standard error only when standard error is a terminal (a log or a pipe gets no
redraws and no ``\\r``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``, as ``tarabish.simulate`` calls it between chunks."""


class CountColumn(ProgressColumn):
    """Games done of the total, with thousands separators."""

    def render(self, task: Task) -> Text:
        """``"1,920,048/2,000,000"``."""
        total = "?" if task.total is None else f"{task.total:,.0f}"
        return Text(f"{task.completed:,.0f}/{total}", style="progress.download")


class RateColumn(ProgressColumn):
    """Games a second, from rich's running estimate."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        """``"1,234,567 hands/s"``, or a dash before the first estimate."""
        speed = task.finished_speed or task.speed
        rate = "-" if speed is None else f"{speed:,.0f}"
        return Text(f"{rate} {self.unit}/s", style="progress.data.speed")


@contextmanager
def progress_bar(unit: str, console: Console | None = None) -> Iterator[ProgressCallback | None]:
    """A callback that draws a bar of ``unit`` (``"hands"``, ``"matches"``) while the block
    runs, or None when ``console`` (standard error by default) is not a terminal."""
    console = console if console is not None else Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (  # 80 columns wide with the largest counts
        TextColumn(unit),
        BarColumn(bar_width=16),
        TaskProgressColumn(),
        CountColumn(),
        RateColumn(unit),
        TimeRemainingColumn(),
        TextColumn("left"),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(unit, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
