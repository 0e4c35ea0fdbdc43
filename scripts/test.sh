#!/usr/bin/env bash
# `npm test`: builds the app (the e2e suites drive the built renderer), then runs every suite
# inside a throwaway D-Bus session with an unlocked gnome-keyring, so the keychain suite talks
# to a real Secret Service. Ends with one summary line: "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

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

node scripts/test-summary.mjs "$results" || status=1
exit $status
