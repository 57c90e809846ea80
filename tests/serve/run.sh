#!/bin/sh
# make test-serve: corral serve in headless Chromium, then under load.
# Needs node/npm and Debian's chromium (.ci/run installs them);
# playwright-core comes from npm into tests/serve/node_modules.
set -eu
bin=${1:-./corral}
here=$(dirname "$0")
if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
fi
status=0
node "$here/browser.mjs" "$bin" || status=1
node "$here/load.mjs" "$bin" || status=1
node "$here/hostile.mjs" "$bin" || status=1
exit $status
