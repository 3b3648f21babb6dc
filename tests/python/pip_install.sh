#!/usr/bin/env bash
# ctest driver: pip install ./python (after the build made libtk_gemm.so and
# libtk_attn.so) into a new venv with the system site packages, then run a
# gemm through the installed package, from a directory outside both trees.
#   pip_install.sh PYTHON SRC BUILD WORK [TKSIM]
set -euo pipefail
py=$1 src=$2 build=$3 work=$4 tksim=${5:-}
rm -rf "$work"
mkdir -p "$work"
"$py" -m venv --system-site-packages "$work/venv"
# pip builds in the source tree: keep its build/ and egg-info out of it
cp -r "$src/python" "$work/pkg"
TK_BUILD_DIR="$build" "$work/venv/bin/python" -m pip install --no-build-isolation --no-index -q "$work/pkg"
test -f "$(ls -d "$work"/venv/lib/python3*/site-packages/tk/_lib/libtk_gemm.so)"
cd "$work"
cat > check.py <<'PY'
import numpy as np
import tk
assert "site-packages" in tk.__file__, tk.__file__
a = np.eye(64, dtype=np.float32) * 2
b = (np.arange(64 * 32) % 256).astype(np.float32).reshape(32, 64) / 8  # exact in bf16
c = tk.gemm(a, b)  # A B^T = 2 B^T, exact in bf16 for these values
assert np.array_equal(c, 2 * b.T), abs(c - 2 * b.T).max()
n = tk.attention_backward_dq_partials((16, 1024, 16, 128), (16, 1024, 16, 128))  # the deterministic dQ's partials
assert 1 <= n <= 8, n
print("installed tk ok:", tk.__file__)
PY
env -u PYTHONPATH $tksim "$work/venv/bin/python" check.py
