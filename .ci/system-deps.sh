#!/usr/bin/env bash
# System packages the server tests need (tests/test_server_*.py): headless Chromium and its
# driver for the browser test (test_server_browser.py), PostgreSQL for the fault tests
# (test_server_faults.py, through tests/serverkit.py), and iproute2's `ip` and util-linux's
# `unshare` for the IPv6 addresses of test_server_limits.py's own network namespace, and nginx,
# the reverse proxy of test_server_proxy.py (installed without starting its service).
# Idempotent and quick when they are installed: apt-get runs only when a command is missing. Debian packages only (no browser download).
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
[ -x /usr/sbin/nginx ] || missing+=(nginx)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: missing ${missing[*]}; run this script as root to install them" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# No package's service starts (nginx's would listen on port 80): the tests start their own.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
