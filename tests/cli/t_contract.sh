#!/usr/bin/env bash
# The importer contract (issue 41): every format pcol reads, one table
# (tests/contract/importers.tsv), the same checks (tests/contract/t_contract.py).
set -u
command -v python3 >/dev/null || { echo "t_contract: python3 not installed: skipped"; exit 0; }
PCOL=${PCOL:-build/bin/pcol} exec python3 "$(dirname "$0")/../contract/t_contract.py"
