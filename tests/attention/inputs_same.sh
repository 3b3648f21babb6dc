#!/usr/bin/env bash
# inputs_same.sh DIR RUNNER... : --inputs device (one kernel launch loads and
# stores back the inputs after the upload, examples/common/device_inputs.h)
# must leave every input value as the upload wrote it: the forward's O and
# LSE and the backward's dQ, dK, dV (--dump) are bitwise those of --inputs
# host, on a small GQA causal shape whose LSE (3 x 37 floats) does not fill
# whole 16-byte chunks.
set -eu
dir=$1; shift
mkdir -p "$dir"
fail() { echo "inputs_same: $*"; exit 1; }
shape=(--b 1 --hq 3 --hkv 1 --sq 37 --skv 70 --d 64 --causal --iters 1 --warmup 0)
for d in fwd bwd; do
  for i in device host; do
    rm -f "$dir/$d-$i.bin"
    "$@" "${shape[@]}" --dir $d --inputs $i --dump "$dir/$d-$i.bin" > "$dir/$d-$i.log" 2>&1 ||
      { cat "$dir/$d-$i.log"; fail "$d --inputs $i failed"; }
    grep -q "^inputs: $i" "$dir/$d-$i.log" || { cat "$dir/$d-$i.log"; fail "$d: no 'inputs: $i' line"; }
  done
  # fwd: O (37 x 3 x 64 bf16) + LSE (3 x 37 f32); bwd: dQ + dK + dV (70 x 64 bf16 each)
  want=$([ $d = fwd ] && echo $((37 * 3 * 64 * 2 + 3 * 37 * 4)) || echo $((37 * 3 * 64 * 2 + 2 * 70 * 64 * 2)))
  [ "$(stat -c %s "$dir/$d-device.bin")" -eq "$want" ] || fail "$d: dump is not $want bytes"
  cmp "$dir/$d-device.bin" "$dir/$d-host.bin" || fail "$d: outputs differ between --inputs device and host"
  echo "inputs_same: $d outputs bitwise identical ($want bytes)"
done
