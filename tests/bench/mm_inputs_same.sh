#!/usr/bin/env bash
# mm_inputs_same.sh DIR TKSIM MM_ATTN_FWD: MoonMath's harness with --inputs
# device (one launch loads and stores back Q, K, V after the upload,
# examples/common/device_inputs.h) must leave every input value as the upload
# wrote it: both modes pass --check (CPU double reference over every row) and
# O (--dump, B·H·S·D bf16) is bitwise the same. gfx942 only (MoonMath's
# kernel is built for gfx942 by clang-19).
set -eu
dir=$1 tksim=$2 mm=$3
mkdir -p "$dir"
fail() { echo "mm_inputs_same: $*"; exit 1; }
for i in device host; do
  rm -f "$dir/o-$i.bin"
  "$tksim" "$mm" --b 1 --h 2 --s 256 --check --inputs $i --dump "$dir/o-$i.bin" > "$dir/$i.log" 2>&1 ||
    { cat "$dir/$i.log"; fail "--inputs $i failed"; }
  cat "$dir/$i.log"
  grep -q "^inputs: $i" "$dir/$i.log" || fail "no 'inputs: $i' line"
  grep -q "^check: PASSED" "$dir/$i.log" || fail "--inputs $i: check did not pass"
done
want=$((1 * 2 * 256 * 128 * 2))
[ "$(stat -c %s "$dir/o-device.bin")" -eq "$want" ] || fail "dump is not $want bytes"
cmp "$dir/o-device.bin" "$dir/o-host.bin" || fail "O differs between --inputs device and host"
echo "mm_inputs_same: O bitwise identical ($want bytes)"
