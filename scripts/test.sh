#!/usr/bin/env bash
# `npm test`: makes sure what the suites need is there (Debian packages, keytar's native build),
# builds the app (the e2e suites drive the built renderer), then runs every suite inside a
# throwaway D-Bus session with an unlocked gnome-keyring, so the keychain suites talk to a real
# Secret Service. Ends with one summary line: "tests: N passed, N failed, N skipped"; a full run
# (no arguments) or any run under CI fails when a single test was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# 1. Debian packages: installed when missing and we can (root, or CI through sudo); otherwise
#    named, with the one command that installs them.
if command -v dpkg-query >/dev/null; then
  missing="$(bash scripts/install-system-deps.sh --list-missing)"
  if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ] || [ "${CI:-}" = "true" ]; then
      bash scripts/install-system-deps.sh
    else
      echo "npm test needs these Debian packages: $missing" >&2
      echo "Install them with:  sudo bash scripts/install-system-deps.sh" >&2
      exit 1
    fi
  fi
else
  echo "npm test: not a Debian system; make sure chromium, libsecret, gnome-keyring and dbus-run-session are installed" >&2
fi

# 2. keytar, the one native addon: `npm install` does not run its build script (.npmrc), and
#    the build needs the packages of step 1. Built once, here.
node scripts/ensure-keytar.mjs

npx electron-vite build >/dev/null

results="$(pwd)/.vitest-results.json"
rm -f "$results"
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT

status=0
HOME="$keyring_home" FIELDMAP_TEST_REAL_HOME="${HOME:-}" dbus-run-session -- sh -c '
  eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
  exec npx vitest run --reporter=default --reporter=json --outputFile="$0" "$@"
' "$results" "$@" || status=$?

# A filtered run (`npm test -- <file>` or `-t <name>`) skips tests by design; a full run does not.
no_skips=0
if [ $# -eq 0 ] || [ "${CI:-}" = "true" ]; then no_skips=1; fi
FIELDMAP_TEST_NO_SKIPS="$no_skips" node scripts/test-summary.mjs "$results" || status=1
exit $status
