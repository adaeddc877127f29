#!/usr/bin/env bash
# The CSV export benchmark (bench/export.ts) compares with SQLite's own command-line shell and with psql's
# \copy, and its smoke run is part of the tests. Installs Debian's sqlite3 and PostgreSQL client once on
# a fresh machine; does nothing when they are there.
set -euo pipefail
wanted=()
command -v sqlite3 > /dev/null || wanted+=(sqlite3)
command -v psql > /dev/null || wanted+=(postgresql-client)
if [ "${#wanted[@]}" -eq 0 ]; then exit 0; fi
echo "Installing Debian's ${wanted[*]} for the export benchmark's smoke run (once per machine)…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${wanted[@]}" > /dev/null
sqlite3 -version
psql --version
