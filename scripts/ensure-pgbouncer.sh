#!/usr/bin/env bash
# The tests run `ninefold serve` behind PgBouncer in transaction mode (packages/cli/test/pgbouncer.test.ts),
# as many deployments run PostgreSQL. Installs Debian's pgbouncer once on a fresh machine; does nothing
# when it is there. Its own service is not used: each test starts one of its own, on a free port.
set -euo pipefail
if command -v pgbouncer > /dev/null || [ -x /usr/sbin/pgbouncer ]; then exit 0; fi
echo "Installing Debian's pgbouncer for the tests behind a pooler (once per machine)…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends pgbouncer > /dev/null
# A package's service may have been started; the tests use their own.
$SUDO service pgbouncer stop > /dev/null 2>&1 || true
/usr/sbin/pgbouncer --version
