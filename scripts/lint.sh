#!/usr/bin/env bash
# `npm run lint`: every static check, all of them run even when one fails, then one summary line.
#   eslint (flat config, import boundaries per folder), prettier --check, svelte-check (warnings
#   fail too: a Svelte warning is usually an a11y or reactivity bug; silence one with a
#   `svelte-ignore` comment that says why), tsc per process, electronegativity over src-main.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
step() {
  local name="$1"
  shift
  echo "── $name"
  if "$@"; then
    echo "   ok"
  else
    echo "   FAILED: $name"
    failed+=("$name")
  fi
}

step eslint npx eslint --max-warnings 0 .
step prettier npx prettier --check --log-level warn .
step svelte-check npx svelte-check --tsconfig tsconfig.web.json --fail-on-warnings --output human
step "tsc shared" npx tsc -p tsconfig.shared.json
step "tsc node" npx tsc -p tsconfig.node.json
step "tsc preload" npx tsc -p tsconfig.preload.json
step "tsc web" npx tsc -p tsconfig.web.json
step "tsc test" npx tsc -p tsconfig.test.json
step electronegativity npx tsx scripts/electronegativity-check.ts

if [ ${#failed[@]} -eq 0 ]; then
  echo "lint: all checks passed"
else
  echo "lint: ${#failed[@]} failed: ${failed[*]}"
  exit 1
fi
