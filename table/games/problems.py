"""Problems found in a game module, and the error that carries them."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in a module file. ``line`` is 1-based; 0 means the file as a whole."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        if self.line > 0:
            return f"{self.file}:{self.line}: {self.message}"
        return f"{self.file}: {self.message}"


class ModuleError(Exception):
    """A game module (or deck list) could not be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid game module")


class ProblemSink:
    """Collects problems for one file, so readers can keep going after the first one."""

    def __init__(self, file: str, problems: list[Problem] | None = None) -> None:
        self.file = file
        self.problems: list[Problem] = problems if problems is not None else []

    def add(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def for_file(self, file: str) -> ProblemSink:
        """A sink for another file that appends to the same list."""
        return ProblemSink(file, self.problems)
