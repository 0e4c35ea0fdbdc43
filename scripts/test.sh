#!/usr/bin/env bash
# `npm test`: the three lanes (test/support/lanes.ts) in one vitest run. `--lane unit|integration|e2e`
# (npm run test:unit, test:integration, test:e2e) runs one. Makes sure what the lanes need is there
# (Debian packages, keytar's native build), builds the app for the e2e lane (it drives the built
# renderer), then runs the tests inside a throwaway D-Bus session with an unlocked gnome-keyring,
# so the keychain tests talk to a real Secret Service. The unit lane needs none of that and runs
# without it (a unit test that reaches for the keychain or a browser fails). Ends with one summary
# line: "tests: N passed, N failed, N skipped"; a full run (no arguments after the lane) or any
# run under CI fails when a single test was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

lane=all
if [ "${1:-}" = "--lane" ]; then
  lane="${2:-}"
  shift 2
  case "$lane" in
    unit | integration | e2e) ;;
    *) echo "scripts/test.sh: --lane takes unit, integration or e2e, not '$lane'" >&2; exit 2 ;;
  esac
fi
projects=()
# The tree's own vitest, not through npx: npx is an npm start of its own (a second of CPU, several
# on a loaded machine) before vitest even loads.
vitest="$(pwd)/node_modules/.bin/vitest"
if [ "$lane" != all ]; then projects=(--project "$lane"); fi

results="$(pwd)/.vitest-results.json"
rm -f "$results"
# A filtered run (`npm test -- <file>` or `-t <name>`) skips tests by design; a full run does not.
no_skips=0
if [ $# -eq 0 ] || [ "${CI:-}" = "true" ]; then no_skips=1; fi

if [ "$lane" = unit ]; then
  status=0
  env -u DBUS_SESSION_BUS_ADDRESS "$vitest" run "${projects[@]}" --reporter=default \
    --reporter=json --outputFile="$results" "$@" || status=$?
  FIELDMAP_TEST_NO_SKIPS="$no_skips" node scripts/test-summary.mjs "$results" || status=1
  exit $status
fi

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

if [ "$lane" = all ] || [ "$lane" = e2e ]; then npx electron-vite build >/dev/null; fi

keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT

status=0
HOME="$keyring_home" FIELDMAP_TEST_REAL_HOME="${HOME:-}" dbus-run-session -- sh -c '
  eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
  results="$1"
  shift
  exec "$0" run --reporter=default --reporter=json --outputFile="$results" "$@"
' "$vitest" "$results" "${projects[@]}" "$@" || status=$?

FIELDMAP_TEST_NO_SKIPS="$no_skips" node scripts/test-summary.mjs "$results" || status=1
exit $status
