"""What the contract tests (t_contract.py, t_writers.py) share: their
failure report."""


def finish(prog, failures):
    """each failure a line "PROG: FAIL: ...", and the exit status: 1 when
    there is any, else 0"""
    for f in failures:
        print("%s: FAIL: %s" % (prog, f))
    return 1 if failures else 0
