# The project's commands. `make test` is the README's test command and what .ci/run runs.
PYTHON ?= python3

.PHONY: install system-deps cross-deps test checks lint rust-lint py-lint rust-checks \
	rust-test cross-test py-test cross bench

# Installs the package (release build of the Rust core) with the test tools.
install:
	$(PYTHON) -m pip install --quiet -e ".[test]"

# Debian packages the server tests need (headless Chromium, PostgreSQL); quick when present.
system-deps:
	bash .ci/system-deps.sh

# Debian's Rust toolchain with the aarch64 standard library, qemu-user and an aarch64 Python
# for the cross checks (.ci/cross-deps.sh); quick when present.
cross-deps:
	bash .ci/cross-deps.sh

lint: rust-lint py-lint

# Formatting, clippy on the core and on the bindings, the API docs. In target/cross, beside the
# install's release build in target/, so that `make test` can run them while it builds.
rust-lint:
	cargo fmt --all -- --check
	CARGO_TARGET_DIR=target/cross cargo clippy --all-targets -- -D warnings
	CARGO_TARGET_DIR=target/cross cargo clippy --lib --features python -- -D warnings
	CARGO_TARGET_DIR=target/cross RUSTDOCFLAGS="-D missing_docs -D warnings" \
		cargo doc --no-deps --quiet

# The Python lint, on the package installed first (stubtest imports the core).
py-lint:
	$(PYTHON) -m ruff check python tests benches
	$(PYTHON) -m ruff format --check python
	$(PYTHON) -m mypy --strict python/tarabish
	$(PYTHON) -m mypy.stubtest tarabish._core
	"$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/actionlint"

# The Rust tests, optimized with the debug assertions and overflow checks on (Cargo.toml's
# `cross` profile): they run in seconds instead of a debug build's fifteen, and the emulated
# x86-64 run of `.ci/cross.sh rust` reuses the same build instead of compiling its own.
rust-test:
	CARGO_TARGET_DIR=target/cross cargo test --profile cross

# The crate lint-clean for aarch64 and the Rust tests under qemu (aarch64; x86-64 without
# BMI2, AVX-512 and POPCNT): .ci/cross.sh rust.
cross-test: cross-deps
	bash .ci/cross.sh rust

py-test: system-deps
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-ci} $(PYTHON) -m pytest tests -p no:cacheprovider -n auto --dist worksteal --durations=15

# The Rust checks, which need no Python package, one after the other.
rust-checks:
	$(MAKE) -j1 rust-lint rust-test cross-test

# Every check once the package is installed, two jobs at a time: the Rust checks beside the
# install (the release build spends minutes linking on one core), then pytest as soon as the
# install ends, the longest job, and the Python lint in the first job slot to come free (the
# Rust checks' end) instead of ahead of pytest.
checks: rust-checks py-test py-lint
py-test py-lint: install

# Every test, Rust and Python, after installing what they need: the Debian packages first (one
# apt at a time), then `checks`.
test:
	$(MAKE) -j1 system-deps cross-deps
	$(MAKE) -j2 --output-sync=line checks

# The Python probe under qemu (aarch64, x86-64 Nehalem, Penryn, Conroe) against the native run
# (.ci/cross.sh python); .ci/run runs it after `make test`.
cross: install cross-deps
	bash .ci/cross.sh python

# Benchmarks (not part of `make test`): pytest-benchmark suites and the Rust bench.
bench: install
	$(PYTHON) -m pip install --quiet -e ".[bench]"
	$(PYTHON) -m pytest benches --benchmark-only -p no:cacheprovider
	cargo bench --bench hands
	cargo bench --bench vector
