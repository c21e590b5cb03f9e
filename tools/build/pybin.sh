#!/bin/sh
# pybin.sh DIR — DIR/python3: a two-line script that execs the interpreter
# `python3` on PATH resolves to.  Where python3 is a version manager's shim
# (pyenv's runs `pyenv exec`: ~0.6 s of CPU a start), the tests' some 400
# python3 starts then start the interpreter directly
# (bench/results/test-time.md).  A script, not a link, so that a venv's
# interpreter still finds its pyvenv.cfg.  Nothing is written when python3
# is missing.
mkdir -p "$1" && rm -f "$1/python3"
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ]; then
  printf '#!/bin/sh\nexec %s "$@"\n' "'$py'" >"$1/python3" && chmod +x "$1/python3"
fi
