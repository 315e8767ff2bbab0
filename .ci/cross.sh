#!/usr/bin/env bash
# The cross checks, on this x86-64 machine, with Debian's toolchain and qemu-user
# (.ci/cross-deps.sh installs them):
#   .ci/cross.sh rust    the crate lint-clean for aarch64-unknown-linux-gnu (cargo clippy
#                        --all-targets -D warnings, Debian's rustc-web), and the Rust tests run
#                        under qemu-aarch64 and under qemu-x86_64 on a CPU without BMI2 and
#                        AVX-512, below x86-64-v2 too (Penryn: no POPCNT, no SSE4.2)
#   .ci/cross.sh python  the Python probe (tests/crossprobe.py: simulate, bot decisions, the
#                        solver, sampled worlds, the golden replays) on an aarch64 build under
#                        qemu-aarch64 and on the installed build under qemu-x86_64 (Nehalem,
#                        Penryn, Conroe; AMD's EPYC, EPYC-Rome and EPYC-Milan, whose bmi2
#                        kernel selects by pdep or not; Haswell without AVX2), each compared with the
#                        native run's hashes; and a kernel the emulated CPU lacks refused at
#                        import, naming the extension
# The emulated builds use the `cross` profile (Cargo.toml: optimized, without whole-program
# optimization) so that they compile in minutes and run in seconds under emulation.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
AARCH64=aarch64-unknown-linux-gnu
ROOT=$PWD/target/cross/arm64-root
# x86-64 CPU models: without BMI2 and AVX-512 (x86-64-v2), and below x86-64-v2.
X86_MODELS=(Nehalem Penryn Conroe)
# A CPU with BMI2 but without AVX2.
NO_AVX2=Haswell,-avx2
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $ROOT"

# Debian's cargo, rustc and clippy (the only toolchain here with the aarch64 standard library),
# into their own target directory.
debian_cargo() {
    env PATH=/usr/bin:/bin RUSTC=/usr/bin/rustc CARGO=/usr/bin/cargo \
        CARGO_TARGET_DIR=target/cross "$@"
}

rust() {
    echo "cross: cargo clippy --all-targets for $AARCH64"
    debian_cargo /usr/bin/cargo-clippy clippy --quiet --all-targets --target $AARCH64 \
        -- -D warnings
    debian_cargo /usr/bin/cargo-clippy clippy --quiet --lib --features python \
        --target $AARCH64 -- -D warnings
    # Emulated, the longest property loops run a quarter of their cases (rust/cpu.rs
    # `test_cases`); the native run of `make rust-test` runs them all.
    echo "cross: the Rust tests under qemu-aarch64"
    TARABISH_TEST_EMULATED=1 debian_cargo /usr/bin/cargo test --quiet --profile cross \
        --target $AARCH64
    # Penryn: no BMI2 or AVX-512 (the portable kernel), and below x86-64-v2 (no POPCNT).
    echo "cross: the Rust tests under qemu-x86_64 -cpu Penryn"
    TARABISH_TEST_EMULATED=1 CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="qemu-x86_64 -cpu Penryn" \
        CARGO_TARGET_DIR=target/cross cargo test --quiet --profile cross
}

# A probe's output as "RUNNING AVAILABLE HASHES": the kernel it ran, those it could run, then
# the hashes as JSON.
hashes() {
    "$PYTHON" -c 'import json, sys
probe = json.load(sys.stdin)
kernels = probe.pop("kernels")
print(kernels["running"], ",".join(kernels["available"]), json.dumps(probe, sort_keys=True))'
}

# Checks that a probe's output ($2, from the platform named $1) gave the native hashes ($3),
# running and able to run the kernels $4 ("RUNNING AVAILABLE"; by default the portable alone).
same_as_native() {
    local got
    got=$(hashes <<<"$2")
    echo "cross: $1 $2"
    if [ "$got" != "${4:-portable portable} $3" ]; then
        echo "cross: $1 differs from the native run: $got against ${4:-portable portable} $3" >&2
        exit 1
    fi
}

# qemu-x86_64 on the CPU model $1, running the rest, without qemu's notes on the model's
# features that it does not emulate (the guest never uses them).
qemu_x86() {
    local model=$1
    shift
    qemu-x86_64 -cpu "$model" "$@" 2> >(grep -v "TCG doesn't support requested feature" >&2)
}

python() {
    local probe native interpreter refused stage
    probe=$("$PYTHON" tests/crossprobe.py)
    echo "cross: native $probe"
    native=$(hashes <<<"$probe" | cut -d' ' -f3-)
    interpreter=$("$PYTHON" -c 'import sys; print(sys.executable)')
    for model in "${X86_MODELS[@]}"; do
        same_as_native "x86-64 $model" \
            "$(qemu_x86 "$model" "$interpreter" tests/crossprobe.py)" "$native"
    done
    # AMD's CPUs with BMI2 run the bmi2 kernel: selecting without pdep where it is microcoded
    # (Zen, Zen 2), with it on Zen 3.
    for model in "EPYC bmi2" "EPYC-Rome bmi2" "EPYC-Milan bmi2"; do
        same_as_native "x86-64 ${model% *}" \
            "$(qemu_x86 "${model% *}" "$interpreter" tests/crossprobe.py)" \
            "$native" "${model#* } portable,bmi2"
    done
    same_as_native "x86-64 EPYC-Rome, TARABISH_KERNEL=portable" \
        "$(TARABISH_KERNEL=portable qemu_x86 EPYC-Rome "$interpreter" tests/crossprobe.py)" \
        "$native" "portable portable,bmi2"
    # BMI2 without AVX2, which the bmi2 kernel needs too: the portable kernel alone.
    same_as_native "x86-64 $NO_AVX2" \
        "$(qemu_x86 "$NO_AVX2" "$interpreter" tests/crossprobe.py)" "$native"
    # A kernel the CPU lacks refuses the import, naming the extension.
    for case in "Nehalem bmi1" "$NO_AVX2 avx2"; do
        local model=${case% *} missing=${case#* }
        refused=$(TARABISH_KERNEL=bmi2 qemu_x86 "$model" "$interpreter" \
            -c 'import tarabish; tarabish.HandState' 2>&1 || true)
        echo "cross: x86-64 $model, TARABISH_KERNEL=bmi2: ${refused##*$'\n'}"
        if [[ "$refused" != *"ImportError: TARABISH_KERNEL=bmi2: this CPU lacks $missing"* ]]; then
            echo "cross: the bmi2 kernel was not refused for $missing on $model" >&2
            exit 1
        fi
    done
    echo "cross: the extension for $AARCH64"
    # As maturin builds it: an extension module, not linked to a libpython.
    PYO3_BUILD_EXTENSION_MODULE=1 debian_cargo /usr/bin/cargo build --quiet --profile cross \
        --lib --features python --target $AARCH64
    stage=target/cross/aarch64-python
    rm -rf "$stage" && mkdir -p "$stage"
    cp -r python/tarabish "$stage/"
    find "$stage" -name '*.so' -delete
    cp target/cross/$AARCH64/cross/libtarabish.so "$stage/tarabish/_core.abi3.so"
    # -S: no site directories (the host's would be searched outside the aarch64 root).
    same_as_native "aarch64" "$(PYTHONPATH=$stage qemu-aarch64 -L "$ROOT" \
        "$ROOT/usr/bin/python3.11" -S tests/crossprobe.py)" "$native"
}

case "${1:-}" in
rust) rust ;;
python) python ;;
*)
    echo "usage: .ci/cross.sh rust|python" >&2
    exit 2
    ;;
esac
