#!/usr/bin/env bash
# docs/screenshot-notification.png (see scripts/docs-notification.ts). Needs Debian's xvfb, dunst,
# x11-utils, imagemagick and dbus: apt-get install xvfb dunst x11-utils imagemagick dbus-x11.
set -euo pipefail
cd "$(dirname "$0")/.."
export DISPLAY=:97
Xvfb "$DISPLAY" -screen 0 1290x900x24 -nolisten tcp &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 50); do xdpyinfo -display "$DISPLAY" >/dev/null 2>&1 && break; sleep 0.1; done
dbus-run-session -- bash -c '
  dunst -config scripts/docs-notification.dunstrc &
  npx tsx scripts/docs-notification.ts
'
