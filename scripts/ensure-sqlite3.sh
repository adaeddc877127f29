#!/usr/bin/env bash
# The CSV export benchmark (bench/export.ts) compares with SQLite's own command-line shell, whose smoke
# run is part of the tests. Installs Debian's sqlite3 once on a fresh machine; does nothing when it is there.
set -euo pipefail
if command -v sqlite3 > /dev/null; then exit 0; fi
echo "Installing Debian's sqlite3 for the export benchmark's smoke run (once per machine)…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends sqlite3 > /dev/null
sqlite3 -version
