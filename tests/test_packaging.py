"""Packaging (docs/RELEASING.md): the wheel and the sdist that maturin builds carry the MIT
license file and its SPDX expression (PEP 639, Metadata 2.4), the project URLs, the version of
Cargo.toml (the one version source), and a stripped extension; the sdist installs from source
in a fresh virtual environment and passes the release smoke test (.ci/smoke.sh) with the
installed build's results.

The wheel is built with ``maturin build`` in the repository, which reuses the release build
that ``make install`` (``pip install -e .``) left in target/: seconds, not a new compile."""

from __future__ import annotations

import email.parser
import io
import json
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from pathlib import Path

import pytest
import tarabish

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]
URL_LABELS = ("Homepage", "Documentation", "Repository", "Issues", "Changelog")


def maturin(*args: str, out: Path) -> Path:
    """Run ``maturin ARGS --out OUT`` in the repository; the one file it wrote."""
    subprocess.run(
        [sys.executable, "-m", "maturin", *args, "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=900,
    )
    (built,) = out.iterdir()
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    path = maturin("build", out=tmp_path_factory.mktemp("wheel"))
    assert path.name.startswith(f"tarabish-{VERSION}-cp311-abi3-")
    return zipfile.ZipFile(path)


def metadata(text: str) -> Message:
    return email.parser.Parser().parsestr(text)


def check_metadata(meta: Message) -> None:
    assert meta["Metadata-Version"] in ("2.4", "2.5")  # PEP 639 fields exist from 2.4
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["License"] is None  # the expression replaces the old free-text field
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL", []))
    assert set(urls) == set(URL_LABELS)
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = meta.get_all("Classifier", [])
    for wanted in (
        "Development Status :: 3 - Alpha",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.14",
        "Programming Language :: Rust",
    ):
        assert wanted in classifiers
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Author"]


def section_names(elf: bytes) -> set[str]:
    """The section names of a 64-bit little-endian ELF file (the Linux extension)."""
    assert elf[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF file"

    def number(at: int, size: int) -> int:
        return int.from_bytes(elf[at : at + size], "little")

    table, entry, count, names_index = (
        number(0x28, 8),
        number(0x3A, 2),
        number(0x3C, 2),
        number(0x3E, 2),
    )
    headers = [table + i * entry for i in range(count)]
    names_at = number(headers[names_index] + 0x18, 8)
    names = set()
    for header in headers:
        start = names_at + number(header, 4)
        names.add(elf[start : elf.index(b"\0", start)].decode())
    return names


def test_the_wheel_carries_the_license_metadata_and_urls(wheel: zipfile.ZipFile) -> None:
    info = f"tarabish-{VERSION}.dist-info"
    license_text = wheel.read(f"{info}/licenses/LICENSE").decode()
    assert license_text == (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License")
    check_metadata(metadata(wheel.read(f"{info}/METADATA").decode()))
    names = wheel.namelist()
    assert "tarabish/py.typed" in names and "tarabish/_core.pyi" in names


def test_the_wheel_s_extension_is_stripped(wheel: zipfile.ZipFile) -> None:
    (extension,) = [
        name
        for name in wheel.namelist()
        if name.startswith("tarabish/_core.") and name.endswith(".so")
    ]
    sections = section_names(wheel.read(extension))
    assert ".dynsym" in sections and ".text" in sections  # what loading it needs is there
    assert ".symtab" not in sections  # the symbol table is gone
    assert not any(name.startswith(".debug") for name in sections)


def test_the_sdist_carries_the_license(tmp_path: Path) -> None:
    path = maturin("sdist", out=tmp_path)
    with tarfile.open(path) as sdist:
        top = f"tarabish-{VERSION}"
        names = sdist.getnames()
        assert f"{top}/LICENSE" in names and f"{top}/CHANGELOG.md" in names
        pkg_info = sdist.extractfile(f"{top}/PKG-INFO")
        assert pkg_info is not None
        check_metadata(metadata(io.TextIOWrapper(pkg_info, "utf-8").read()))


def test_the_version_comes_from_cargo_toml() -> None:
    assert tarabish.__version__ == VERSION
    assert "version" not in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@pytest.mark.long
@pytest.mark.timeout(1200)  # a build from source: minutes on a busy machine
def test_the_sdist_installs_in_a_fresh_venv_and_passes_the_smoke(tmp_path: Path) -> None:
    sdist = maturin("sdist", out=tmp_path / "sdist")
    # The release profile's whole-program optimization only costs time here: the same code.
    fast = {"CARGO_PROFILE_RELEASE_LTO": "false", "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": "16"}
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "smoke.sh"), str(sdist)],
        env={**os.environ, **fast, "PYTHON": sys.executable, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert f"tarabish {VERSION} (kernels " in done.stderr
    probe = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "crossprobe.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    from_sdist, installed = json.loads(done.stdout), json.loads(probe.stdout)
    assert from_sdist == installed and installed["goldens_replay"] is True
