#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright's own browser download cannot work here).
# Installs it once on a fresh machine; does nothing when it is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Installing Debian's chromium for the browser tests (once per machine)…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core > /dev/null
/usr/bin/chromium --version
