"""The reference stands alone (docs/ARCHITECTURE.md): ``import tarabish.reference`` never loads
the Rust extension ``tarabish._core``, so a broken or missing build cannot break the reference
or its tests. The package's names that need the core are imported on first use (PEP 562)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_reference_plays_a_match_with_the_extension_unimportable() -> None:
    done = run_python(
        """
        import sys
        sys.modules["tarabish._core"] = None  # any import of the extension now fails

        import tarabish.reference as ref
        from tarabish import Rules, parse_cards

        match = ref.MatchState(seed=3, rules=Rules(forced_at=400))
        while not match.is_terminal:
            match.apply(match.legal_action_ids()[0])
        print("winner", match.winner, match.scores)
        print("plays", ref.legal_plays(parse_cards("6S 7S 8S 9S"), parse_cards("TS"), "S"))
        try:
            import tarabish
            tarabish.HandState
        except ImportError:
            print("core blocked")
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("winner ") and lines[0] != "winner None"  # R7.1
    assert lines[1] == "plays [Card(9S)]"  # R10 example 2: only the 9 heads the trick
    assert lines[2] == "core blocked"  # the block was real: the core's names need the extension


def test_importing_the_reference_does_not_load_the_extension() -> None:
    done = run_python(
        """
        import sys
        import tarabish.reference
        import tarabish
        print("tarabish._core" in sys.modules)
        tarabish.legal_plays  # the first use of a core name loads it
        print("tarabish._core" in sys.modules)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def test_every_public_name_of_the_package_resolves() -> None:
    import tarabish

    missing = [name for name in tarabish.__all__ if not hasattr(tarabish, name)]
    assert missing == []
    assert set(tarabish.__all__) <= set(dir(tarabish))


def test_dir_lists_the_public_names_and_submodules_not_the_helpers() -> None:
    import tarabish
    import tarabish.vector  # a public submodule: once imported, it is listed

    dunders = {name for name in dir(tarabish) if name.startswith("__") and name.endswith("__")}
    expected = {*tarabish.__all__, *_imported_public_submodules()} - dunders
    assert set(dir(tarabish)) - dunders == expected
    assert "vector" in dir(tarabish)
    for helper in ("TYPE_CHECKING", "annotations", "_LAZY", "_LAZY_BY_MODULE", "_cards"):
        assert helper not in dir(tarabish)


def _imported_public_submodules() -> set[str]:
    prefix = "tarabish."
    return {
        name[len(prefix) :]
        for name in sys.modules
        if name.startswith(prefix) and "." not in name[len(prefix) :] and name[len(prefix)] != "_"
    }


def test_the_type_checkers_imports_are_the_table_of_lazy_names() -> None:
    # ``_LAZY_BY_MODULE`` is the one list of the names loaded on first use; type checkers cannot
    # run it, so ``if TYPE_CHECKING:`` imports the same names (``X as X``, an explicit
    # re-export): they must be exactly the table's, module by module.
    import tarabish

    source = Path(tarabish.__file__).read_text()
    (block,) = [
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    imported: dict[str, str] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        for alias in node.names:
            assert alias.asname == alias.name, ast.unparse(node)  # re-exported as itself
            imported[alias.name] = "." * node.level + (node.module or "")
    assert imported == tarabish._LAZY
    assert len(tarabish.__all__) == len(set(tarabish.__all__))
    assert set(tarabish._LAZY) <= set(tarabish.__all__)


def test_the_reference_exports_the_engine_interface_the_package_loads_from_the_core() -> None:
    # docs/ENGINE.md: both engines give the same names. The package's table lists what it loads
    # from the core; the reference has each of them, and beside them only its own minimax
    # ``solve`` (the package's ``solve`` is the Rust solver, in ``_solve``).
    import tarabish
    import tarabish.reference

    # What the build is and which CPU kernels it runs describe the compiled core, not the
    # game: the reference, pure Python, has neither.
    build_names = {"__version__", "kernels"}
    core_names = set(tarabish._LAZY_BY_MODULE["._core"]) - build_names
    assert set(tarabish.reference.__all__) == core_names | {"solve"}
