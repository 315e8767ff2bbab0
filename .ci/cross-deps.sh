#!/usr/bin/env bash
# Debian packages the cross checks need (.ci/cross.sh): Debian's Rust toolchain with the
# aarch64 standard library (rustc-web, cargo-web, rust-web-clippy, libstd-rust-web-dev:arm64,
# through multiarch), the aarch64 linker and C library, and qemu-user. Then an aarch64 Python
# (Debian's python3.11 and the libraries it loads) unpacked into target/cross/arm64-root, the
# root qemu-aarch64 runs it in (the arm64 interpreter cannot be installed beside the amd64 one).
# Idempotent and quick when everything is there; Debian packages only.
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT=target/cross/arm64-root
PACKAGES=(rustc-web cargo-web rust-web-clippy libstd-rust-web-dev:arm64 qemu-user
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
# What Debian's python3.11 loads on aarch64 for the probe (tests/crossprobe.py).
PYTHON_PACKAGES=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 zlib1g
    libexpat1 libffi8 libgcc-s1 libssl3 libbz2-1.0 liblzma5)

missing=()
for package in "${PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ] || [ ! -x "$ROOT/usr/bin/python3.11" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "cross-deps: missing ${missing[*]} $ROOT; run this script as root" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    dpkg --add-architecture arm64
    apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -x "$ROOT/usr/bin/python3.11" ]; then
    debs=target/cross/debs
    mkdir -p "$debs" "$ROOT"
    # apt's download user cannot write into a root-owned work tree.
    chmod a+rwx "$debs"
    (cd "$debs" && apt-get download -qq "${PYTHON_PACKAGES[@]/%/:arm64}")
    for deb in "$debs"/*.deb; do
        dpkg-deb -x "$deb" "$ROOT"
    done
fi
