#!/usr/bin/env python3
"""bench/validate-model --suite's projected idle-machine wall time (idle_wall) against
schedules worked out by hand: rows start in order, each on the first free core."""
import importlib.machinery
import importlib.util
import sys

loader = importlib.machinery.SourceFileLoader("validate_model", sys.argv[1])
spec = importlib.util.spec_from_loader("validate_model", loader)
vm = importlib.util.module_from_spec(spec)
loader.exec_module(vm)

cases = [
    # cpus, jobs, (lower, upper)
    ([3, 1, 1, 1], 2, (3.0, 3.0)),        # core A: 3; core B: 1+1+1
    ([1, 1, 1, 1, 4], 2, (4.0, 6.0)),     # the long row starts last, at t=2, on a core alone
    ([4, 1, 1, 1, 1], 2, (4.0, 4.0)),     # long row first: the short ones fill the other core
    ([5], 2, (2.5, 5.0)),                 # one row: 2 cores only if its threads use both
    ([2, 2, 2], 1, (6.0, 6.0)),           # -j 1: the rows back to back
]
bad = 0
for cpus, jobs, want in cases:
    got = vm.idle_wall(cpus, jobs)
    if any(abs(g - w) > 1e-9 for g, w in zip(got, want)):
        print("idle_wall(%s, %d) = %s, expected %s" % (cpus, jobs, got, want))
        bad += 1
print("idle_wall: %d of %d schedules as worked out by hand" % (len(cases) - bad, len(cases)))
sys.exit(1 if bad else 0)
