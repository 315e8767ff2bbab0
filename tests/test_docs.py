"""Documentation a user reaches from Python (docs/ARCHITECTURE.md, principle 8): every public
name of ``tarabish`` and ``tarabish.reference`` has its own docstring, every public member of
``HandState`` and ``MatchState`` too (the Rust doc comments on ``#[pymethods]`` become
``__doc__``, shown by ``help()``), the hand-written stub ``_core.pyi`` carries the same
docstrings for editors, the docs cite only files that exist, and their complete Python
examples run."""

from __future__ import annotations

import ast
import importlib
import inspect
import pydoc
import re
from pathlib import Path

import pytest
import tarabish

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "python" / "tarabish" / "_core.pyi"
STATES = (tarabish.HandState, tarabish.MatchState)


def public_members(cls: type) -> dict[str, object]:
    """A class's own public members, as attribute access gives them (the function of a
    static method, the descriptor of a property)."""
    return {name: getattr(cls, name) for name in vars(cls) if not name.startswith("_")}


def stub_docstrings(cls_name: str) -> dict[str, str | None]:
    """The class docstring (key ``""``) and its members' docstrings in the stub."""
    (cls,) = [
        node
        for node in ast.parse(STUB.read_text()).body
        if isinstance(node, ast.ClassDef) and node.name == cls_name
    ]
    docs: dict[str, str | None] = {"": ast.get_docstring(cls)}
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            docs[node.name] = ast.get_docstring(node)
    return docs


@pytest.mark.parametrize("module", ["tarabish", "tarabish.reference"])
def test_every_public_name_has_a_docstring(module: str) -> None:
    engine = importlib.import_module(module)
    missing = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if inspect.isclass(value):
            if not (value.__dict__.get("__doc__") or "").strip():
                missing.append(name)
            missing += [
                f"{name}.{member}"
                for member, attribute in public_members(value).items()
                if callable(attribute) or isinstance(attribute, property | classmethod)
                if not (getattr(attribute, "__doc__", None) or "").strip()
            ]
        elif callable(value) and not (value.__doc__ or "").strip():
            missing.append(name)
    assert missing == []


@pytest.mark.parametrize("cls", STATES, ids=lambda cls: cls.__name__)
def test_state_members_are_documented_in_help_and_in_the_stub(cls: type) -> None:
    members = public_members(cls)
    assert len(members) >= 20
    stub = stub_docstrings(cls.__name__)
    assert stub[""] == inspect.cleandoc(cls.__doc__ or "")
    for name, member in members.items():
        runtime = (getattr(member, "__doc__", None) or "").strip()
        assert runtime, f"{cls.__name__}.{name} has no docstring"
        assert stub.get(name) == inspect.cleandoc(runtime), f"the stub's {cls.__name__}.{name}"
    shown = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    apply_doc = (cls.apply.__doc__ or "").splitlines()[0]  # type: ignore[attr-defined]
    assert "legal_action_ids(self, /, seat=None)" in shown and apply_doc in shown


CITATION = re.compile(r"\b(?:docs/)?([A-Z]+\.md)\b")
SOURCES = [
    *ROOT.glob("*.md"),
    *(ROOT / "docs").glob("*.md"),
    *(ROOT / "python").rglob("*.py"),
    *(ROOT / "python").rglob("*.pyi"),
    *(ROOT / "rust").rglob("*.rs"),
    *(ROOT / "tests").glob("*.py"),
]
# A section of a design doc cited by name, as in `docs/SEARCH.md "The walk"`.
SECTION = re.compile(r'\b((?:SEARCH|SOLVER)\.md)\b[,:]?\s*\(?"([^"]+)"')
# A comment's or docstring's line break: a cited name may run onto the next comment line.
COMMENT_BREAK = re.compile(r"\n\s*(?://[/!]?|#)?\s*")
# What a section is called in a doc: a heading, or a paragraph's bold label.
SECTION_NAME = re.compile(r"^#+\s+(.+)$|\*\*([^*]+?)\.?\*\*", re.MULTILINE)


def test_the_docs_cite_only_files_that_exist() -> None:
    known = {path.name for path in [*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md")]}
    known |= {"README.md"}  # benches/README.md and tests/golden/README.md too
    cited = {
        (source.relative_to(ROOT).as_posix(), name)
        for source in SOURCES
        for name in CITATION.findall(source.read_text())
    }
    assert {(source, name) for source, name in cited if name not in known} == set()


def test_cited_sections_of_the_design_docs_exist() -> None:
    """Code and docs cite SEARCH.md's and SOLVER.md's sections by name; each name must be the
    start of a heading or a bold label there, so a cited section cannot silently vanish."""
    names = {
        doc: [heading or label for heading, label in SECTION_NAME.findall(text)]
        for doc, text in ((path.name, path.read_text()) for path in (ROOT / "docs").glob("S*.md"))
    }
    missing = {
        (source.relative_to(ROOT).as_posix(), doc, section)
        for source in [*SOURCES, *(ROOT / "benches").glob("*.py"), *(ROOT / "benches").glob("*.rs")]
        for doc, section in SECTION.findall(COMMENT_BREAK.sub(" ", source.read_text()))
        if not any(name.startswith(section) for name in names[doc])
    }
    assert missing == set()


# How the work was organised is not the project's text: no numbered working periods, issue
# numbers, commits named as the state of `main`, or the people who did the work.
ORGANISATION = re.compile(
    r"\b[Ss]essions? \d|\b[Ii]ssues? #?\d|\bmain at [0-9a-f]{7}|\b[Tt]he integrator\b"
    r"|\b[Tt]he brief\b|\bwork[ ]period"
)


def test_the_text_says_what_is_not_how_the_work_was_organised() -> None:
    """Docs, code, tests, benchmarks, the page and the build files name rules, sections and
    files, never a working period, an issue number or a commit as the state of `main`."""
    texts = [
        *SOURCES,
        *(ROOT / "benches").glob("*.*"),
        *(
            page
            for page in (ROOT / "python" / "tarabish" / "server" / "static").iterdir()
            if page.suffix in {".html", ".js", ".css"}
        ),
        *(ROOT / ".ci").glob("*"),
        *(ROOT / name for name in ("Makefile", "pyproject.toml", "Cargo.toml")),
    ]
    found = {
        f"{path.relative_to(ROOT).as_posix()}: {match.group()}"
        for path in texts
        if path.is_file()
        for match in ORGANISATION.finditer(path.read_text())
    }
    assert found == set()


def complete_examples() -> dict[str, str]:
    """The Python blocks of README.md and docs/ that are whole programs (they begin with an
    import; the others are signatures or lines that go on from an example), by place."""
    examples = {}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.DOTALL)
        for index, block in enumerate(blocks):
            if block.startswith(("import ", "from ")):
                examples[f"{doc.relative_to(ROOT)} example {index + 1}"] = block
    return examples


EXAMPLES = complete_examples()


@pytest.mark.parametrize("place", sorted(EXAMPLES))
def test_the_docs_complete_python_examples_run(place: str) -> None:
    exec(compile(EXAMPLES[place], place, "exec"), {})


def test_the_docs_have_complete_examples() -> None:
    assert any(place.startswith("README.md") for place in EXAMPLES), EXAMPLES
    assert any(place.startswith("docs/SOLVER.md") for place in EXAMPLES), EXAMPLES
