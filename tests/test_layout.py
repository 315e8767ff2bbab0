"""The layout docs/ARCHITECTURE.md writes down is the layout there is: every source file has its
line there (and every file listed exists), and the Rust modules import one another only as its
layers allow, with no circle between modules. Pure Python: the files are read as text."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"

# What counts as a source file, by folder: the suffixes read there.
SOURCE_SUFFIXES = {".rs", ".py", ".pyi", ".js", ".css", ".html", ".svg"}
SOURCE_ROOTS = ("rust", "python/tarabish", "benches", "tests")
# Folders that hold no source: build output and caches.
NOT_SOURCE = {"__pycache__", "target", "node_modules", ".hypothesis", ".pytest_cache"}
# The build's files, by pattern from the root.
BUILD_FILES = ("Cargo.toml", "pyproject.toml", "Makefile", ".ci/*", ".githooks/*", ".cargo/*")

# A file's line in the layout: "- `path` ...", at the start of a line.
ENTRY = re.compile(r"^- `([^`]+)`", re.M)
# A layer's heading: "### Layer 3: the game (state, table, matches) ...".
LAYER = re.compile(r"^### Layer (\d+): ", re.M)


def source_files() -> set[str]:
    """Every source and build file of the project, relative to the root, test modules excepted
    (their subjects are in docs/TESTING.md): tests/ contributes its helpers only."""
    found = {
        path.relative_to(ROOT).as_posix()
        for pattern in BUILD_FILES
        for path in ROOT.glob(pattern)
        if path.is_file()
    }
    for top in SOURCE_ROOTS:
        for path in (ROOT / top).rglob("*"):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and not parts & NOT_SOURCE:
                if top == "tests" and path.name.startswith("test_"):
                    continue
                found.add(path.relative_to(ROOT).as_posix())
    return found


@cache
def layout() -> str:
    """The "Layout" section of docs/ARCHITECTURE.md."""
    text = ARCHITECTURE.read_text()
    start = text.index("\n## Layout\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def listed_files() -> list[str]:
    return ENTRY.findall(layout())


# A Rust file or folder cited in prose or code, by its path from the root.
RUST_CITATION = re.compile(r"\brust/[\w/]*\w(?:\.rs|/)")


def test_the_docs_and_the_code_cite_only_rust_files_that_exist() -> None:
    """A moved module leaves no stale pointer behind (in the docs, comments or docstrings)."""
    texts = [*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md"), *(ROOT / "benches").glob("*.md")]
    texts += [ROOT / name for name in source_files() if not name.endswith(".svg")]
    texts += [*(ROOT / "tests").glob("test_*.py")]
    stale = {
        f"{path.relative_to(ROOT)}: {cited}"
        for path in texts
        for cited in RUST_CITATION.findall(path.read_text())
        if not (ROOT / cited).exists()
    }
    assert sorted(stale) == []


def test_every_source_file_has_its_line_in_the_architecture() -> None:
    listed = listed_files()
    assert sorted(source_files() - set(listed)) == [], "files without a line in the layout"
    missing = sorted(name for name in set(listed) if not (ROOT / name).is_file())
    assert missing == [], "lines for files that do not exist"
    assert sorted(name for name in set(listed) if listed.count(name) > 1) == []


# ----------------------------------------------------------------------------------------
# The Rust module graph.

RUST = ROOT / "rust"
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'r(#*)".*?"\1|b?"(?:\\.|[^"\\])*"|b?\'(?:\\.|[^\'\\])\'', re.S)
USE = re.compile(r"\buse\s+([^;]+);")
PATH = re.compile(r"\b(crate|super|self)((?:\s*::\s*\w+)*)")
CFG_TEST = re.compile(r"#\[cfg\(test\)\]")


def code_of(text: str) -> str:
    """Rust source without comments and literals (their contents are not code)."""
    text = COMMENT.sub(" ", text)
    return STRING.sub('""', text)


def without_test_items(code: str) -> str:
    """`code` without the items under `#[cfg(test)]` (a test may use any module)."""
    while match := CFG_TEST.search(code):
        end = match.end()
        semicolon, brace = code.find(";", end), code.find("{", end)
        if brace == -1 or -1 < semicolon < brace:
            stop = semicolon + 1
        else:
            depth, stop = 0, brace
            while True:
                depth += {"{": 1, "}": -1}.get(code[stop], 0)
                stop += 1
                if depth == 0:
                    break
        code = code[: match.start()] + code[stop:]
    return code


def module_path(path: Path) -> tuple[str, ...]:
    """The module a file defines: rust/lib.rs the crate root, `a/b.rs` under rust/ `a::b`."""
    parts = path.relative_to(RUST).with_suffix("").parts
    return () if parts == ("lib",) else parts


def rust_test_files() -> set[Path]:
    """Files compiled only for tests (`#[cfg(test)] mod name;`)."""
    files = set()
    for path in RUST.rglob("*.rs"):
        for name in re.findall(r"#\[cfg\(test\)\]\s*mod\s+(\w+)\s*;", code_of(path.read_text())):
            folder = RUST if path.name == "lib.rs" else path.with_suffix("")
            files.add(folder / f"{name}.rs")
    return files


def expand_use(tree: str) -> Iterator[str]:
    """The paths of a use tree: `crate::{a, b::{c, d}}` gives crate::a, crate::b::c, crate::b::d."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        yield tree
        return
    head, body = tree[: tree.index("{")], tree[tree.index("{") + 1 : tree.rindex("}")]
    depth, start = 0, 0
    for at, char in enumerate(body + ","):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            if part := body[start:at]:
                yield from expand_use(head + part)
            start = at + 1


def resolve(module: tuple[str, ...], path: str) -> tuple[str, ...] | None:
    """The crate path `path` (`crate::…`, `super::…`, `self::…`) names from `module`."""
    segments = [s for s in re.split(r"::", path) if s]
    if not segments or segments[0] not in ("crate", "super", "self"):
        return None
    here = list(module)
    if segments[0] == "crate":
        here, segments = [], segments[1:]
    while segments and segments[0] in ("super", "self"):
        if segments.pop(0) == "super":
            here.pop()
    return tuple(here + segments)


def paths_named(module: tuple[str, ...], code: str) -> set[tuple[str, ...]]:
    """The crate paths `code` (of `module`) names: in its use trees and inline."""
    used = [path for tree in USE.findall(code) for path in expand_use(tree)]
    used += [root + re.sub(r"\s+", "", rest) for root, rest in PATH.findall(USE.sub(" ", code))]
    return {name for name in (resolve(module, path) for path in used) if name}


@cache
def rust_imports() -> dict[Path, set[tuple[str, ...]]]:
    """For each Rust file compiled outside tests, the crate paths its code names."""
    skip = rust_test_files()
    imports = {}
    for path in sorted(RUST.rglob("*.rs")):
        if path in skip:
            continue
        code = without_test_items(code_of(path.read_text()))
        imports[path] = paths_named(module_path(path), code)
    return imports


def top_module(path: Path) -> str:
    """The crate's top-level module a file belongs to (`lib` for the root)."""
    return (module_path(path) or ("lib",))[0]


@cache
def layers() -> dict[str, int]:
    """Each top-level Rust module's layer, from the headings its files are listed under."""
    text = layout()
    found: dict[str, int] = {}
    for entry in ENTRY.finditer(text):
        name = entry.group(1)
        if not name.startswith("rust/"):
            continue
        heading = LAYER.match(text, text.rindex("\n### ", 0, entry.start()) + 1)
        assert heading, f"{name} is not listed under a layer's heading"
        module, layer = top_module(ROOT / name), int(heading.group(1))
        assert found.setdefault(module, layer) == layer, f"{module} spans two layers"
    return found


def module_graph() -> dict[str, set[str]]:
    """Top-level module -> the other top-level modules its files use (the crate root, which
    only re-exports, and the binding layer above everything are nodes like the others)."""
    graph: dict[str, set[str]] = {}
    for path, names in rust_imports().items():
        module = top_module(path)
        used = {name[0] for name in names if name[0] != module}
        graph.setdefault(module, set()).update(used)
    return graph


def test_every_rust_module_is_in_a_layer() -> None:
    assert sorted(set(module_graph()) - set(layers())) == []


def test_rust_modules_use_only_their_own_layer_and_those_below() -> None:
    placed = layers()
    upward = sorted(
        f"{module} (layer {placed[module]}) uses {used} (layer {placed[used]})"
        for module, uses in module_graph().items()
        for used in uses
        if placed[used] > placed[module]
    )
    assert upward == []


def test_the_rust_module_graph_has_no_circle() -> None:
    try:
        TopologicalSorter(module_graph()).prepare()
    except CycleError as error:
        raise AssertionError(f"modules that use one another in a circle: {error.args[1]}") from None


def test_the_import_reader_sees_uses_paths_and_skips_tests() -> None:
    """The reader above, on a made-up file: every form of path counts, test items, comments
    and strings do not."""
    code = code_of(
        """
        use crate::{cards::Card, seats::{next_seat, partner}};
        use super::table::Table;
        // use crate::commented::Out;
        fn f() { crate::rng::derive(1, 2); let s = "crate::in_string"; }
        #[cfg(test)]
        mod tests { use crate::registry::BotSpec; fn g() { let c = '{'; } }
        #[cfg(test)]
        use crate::sim::Batch;
        """
    )
    names = paths_named(("solver", "search"), without_test_items(code))
    assert {name[0] for name in names} == {"cards", "seats", "solver", "rng"}


def test_only_the_bindings_name_pyo3() -> None:
    """Principle 1: the rules live in pure Rust; only layer 8 (rust/py.rs, rust/py/) knows
    Python exists."""
    naming = {
        path.relative_to(ROOT).as_posix()
        for path in RUST.rglob("*.rs")
        if re.search(r"\bpyo3\b", code_of(path.read_text()))
    }
    assert naming and all(name == "rust/py.rs" or name.startswith("rust/py/") for name in naming)


# ----------------------------------------------------------------------------------------
# The Python package's imports.

PACKAGE = ROOT / "python" / "tarabish"
# The values and errors, pure Python (the first group of the package in the layout).
VALUES = {f"tarabish.{name}" for name in ("_cards", "_rules", "_runs", "_actions", "_views")}
VALUES |= {"tarabish._errors", "tarabish._json"}


def python_module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def python_imports() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports (anywhere in it,
    lazily or under TYPE_CHECKING too)."""
    imports: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = python_module(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = imports.setdefault(module, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                if node.module:
                    found.add(".".join([*base, node.module]))
                else:  # from . import name: a module of that package
                    found |= {".".join([*base, alias.name]) for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
        imports[module] = {name for name in found if name.split(".")[0] == "tarabish"}
    return imports


def test_the_reference_imports_only_the_values_and_itself() -> None:
    """Principle 6: the reference is written from the rules, not from the engine it checks."""
    wrong = {
        f"{module} imports {used}"
        for module, uses in python_imports().items()
        if module.startswith("tarabish.reference")
        for used in uses
        if used not in VALUES and not used.startswith("tarabish.reference")
    }
    assert sorted(wrong) == []


def test_only_tarabish_serve_imports_the_server() -> None:
    wrong = {
        f"{module} imports {used}"
        for module, uses in python_imports().items()
        if not module.startswith("tarabish.server") and module != "tarabish._cli.serve"
        for used in uses
        if used.startswith("tarabish.server")
    }
    assert sorted(wrong) == []
