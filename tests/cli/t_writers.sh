#!/usr/bin/env bash
# The writer contract: every surface pcol writes, in one table
# (tests/contract/writers.tsv), the same escaping, read-back and budget
# checks on a profile of hostile names (tests/contract/t_writers.py).
set -u
command -v python3 >/dev/null || { echo "t_writers: python3 not installed: skipped"; exit 0; }
PCOL=${PCOL:-build/bin/pcol} exec python3 "$(dirname "$0")/../contract/t_writers.py"
