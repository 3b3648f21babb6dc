#!/usr/bin/env bash
# README's first command in a fresh build directory: examples/gemm/run
# (.ci/deps --first, .ci/build --first: tksim and the demo-only gemm,
# TK_GEMM_DEMO_ONLY) runs the demo shape with --check under tksim; then that
# gemm refuses, with exit 2 and a message naming TK_GEMM_DEMO_ONLY, the
# configurations its build left out, before touching any data.
#   check_first_command.sh <source dir> <work dir>
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
export TK_BUILD_DIR=$work/build TK_FORCE_SIM=1
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$("$src/examples/gemm/run" --m 512 --n 512 --k 512 --kernel 8wave --check 2>&1) || fail "the first command failed:
$out"
grep -q '^check: PASSED' <<<"$out" || fail "no 'check: PASSED' in:
$out"
grep -q '^TK_GEMM_DEMO_ONLY:BOOL=ON' "$TK_BUILD_DIR/CMakeCache.txt" || fail "the build is not the demo-only one"
echo "first command: check PASSED (demo-only build)"
# left out: other kernels, B as K x N, other tiles, fp8, and a stream-K
# count the 4352^2 problem would use (289 tiles over 100 workgroups)
for args in "--kernel 4wave" "--kernel simple" "--layout nn --kernel 8wave" "--kernel 8wave --tile 128x128" \
            "--in fp8 --kernel 8wave" "--m 4352 --n 4352 --k 1024 --kernel 8wave --stream-k 100"; do
  set +e
  # shellcheck disable=SC2086
  err=$("$TK_BUILD_DIR/bin/tksim" "$TK_BUILD_DIR/bin/gemm" --m 512 --n 512 --k 512 $args 2>&1 >/dev/null)
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "gemm $args: exit $rc, expected 2 (not built): $err"
  grep -q 'TK_GEMM_DEMO_ONLY' <<<"$err" || fail "gemm $args: the message does not name TK_GEMM_DEMO_ONLY: $err"
  echo "gemm $args: refused (exit 2, names TK_GEMM_DEMO_ONLY)"
done
