# The project's commands. `make test` is the README's test command and what .ci/run runs.
PYTHON ?= python3

.PHONY: install system-deps cross-deps test lint rust-test cross-test py-test cross bench

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

lint:
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --lib --features python -- -D warnings
	RUSTDOCFLAGS="-D missing_docs -D warnings" cargo doc --no-deps --quiet
	$(PYTHON) -m ruff check python tests benches
	$(PYTHON) -m ruff format --check python
	$(PYTHON) -m mypy --strict python/tarabish
	$(PYTHON) -m mypy.stubtest tarabish._core
	"$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/actionlint"

rust-test:
	cargo test

# The crate lint-clean for aarch64 and the Rust tests under qemu (aarch64; x86-64 without
# BMI2, AVX-512 and POPCNT): .ci/cross.sh rust.
cross-test: cross-deps
	bash .ci/cross.sh rust

py-test: system-deps
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-ci} $(PYTHON) -m pytest tests -p no:cacheprovider -n auto --dist worksteal --durations=15

# Every test, Rust and Python, after installing what they need.
test: install lint rust-test cross-test py-test

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
