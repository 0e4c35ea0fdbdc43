#!/usr/bin/env bash
# Installs the Debian packages the test suites need. Idempotent: packages already installed are
# skipped, and apt-get update runs only when something is missing. Runs as root with no stdin
# (CI); as another user it goes through sudo.
#   chromium           the e2e and map suites (through playwright-core, never a downloaded browser)
#   libsecret-1-dev    keytar's build (npm rebuild keytar) and its runtime libsecret
#   gnome-keyring      the real Secret Service the keychain suite talks to
#   dbus-x11, dbus     dbus-run-session, the throwaway session bus of `npm test`
#   python3 make g++ pkg-config   node-gyp, when keytar has no prebuilt binary for this platform
#   fonts-dejavu-core  a known font, so screenshots render text the same way everywhere
# `--list-missing` only prints the missing ones (space-separated; nothing when all are there).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

packages=(chromium libsecret-1-dev gnome-keyring dbus dbus-x11 python3 make g++ pkg-config fonts-dejavu-core)

missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$package")
done

if [ "${1:-}" = "--list-missing" ]; then
  echo "${missing[*]}"
  exit 0
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "system deps: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "system deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo --non-interactive --preserve-env=DEBIAN_FRONTEND)
fi

echo "system deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -q </dev/null
"${as_root[@]}" apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
  "${missing[@]}" </dev/null
echo "system deps: done"
