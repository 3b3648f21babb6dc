#!/usr/bin/env bash
# peers_inputs.sh PYTHON ATTN_VS_PEERS BUILD: both sides of a row get the same
# --inputs mode (--dry-run command lines, nothing emulated): MoonMath's harness
# and tk's attn take --inputs device by default and --inputs host when asked;
# backward rows (HipKittens) host by default (its harness zeroes like its fixture);
# HipKittens' harnesses write nothing on the device (HK_GEN_DEVICE_BYTES=0)
# exactly when tk's attn gets --inputs host. Exit 77 without the fixtures.
set -u
py=$1 peers=$2 build=$3
fail() { echo "peers_inputs: $*"; exit 1; }
run() { out=$("$py" "$peers" --dry-run --no-build --build "$build" --model-sample 1 "$@" 2>&1); rc=$?; echo "$out"; }
for mode in default device host; do
  arg=(); [ $mode = default ] || arg=(--inputs $mode)
  want=$([ $mode = host ] && echo host || echo device)
  run --peer moonmath --shapes '1,2,256,128' "${arg[@]}"
  [ $rc = 77 ] && { echo "skipped: no MoonMath fixture"; exit 77; }
  [ $rc = 0 ] || fail "moonmath $mode: exit $rc"
  [ "$(grep -c -- "--inputs $want\$" <<< "$out")" = 2 ] || fail "moonmath $mode: both lines must end in --inputs $want"
  [ $mode = default ] && want=host  # backward rows: host unless asked
  run --peer hipkittens --dir bwd --variants mha_d128_causal --sizes 1024 "${arg[@]}"
  [ $rc = 77 ] && { echo "skipped: no HipKittens CDNA4 fixture"; exit 77; }
  [ $rc = 0 ] || fail "hipkittens $mode: exit $rc"
  peer=$(grep "peer:" <<< "$out") tk=$(grep " tk:" <<< "$out")
  grep -q -- "--inputs $want\$" <<< "$tk" || fail "hipkittens $mode: tk's line must end in --inputs $want"
  if [ $want = host ]; then grep -q "peer: env HK_GEN_DEVICE_BYTES=0 " <<< "$peer" || fail "hipkittens host: no HK_GEN_DEVICE_BYTES=0"
  else ! grep -q HK_GEN_DEVICE_BYTES <<< "$peer" || fail "hipkittens $mode: HK_GEN_DEVICE_BYTES set"; fi
  if [ $mode = default ]; then  # forward rows keep device-written inputs by default
    run --peer hipkittens --dir fwd --variants mha_d128_noncausal --sizes 1024
    [ $rc = 0 ] || fail "hipkittens fwd default: exit $rc"
    grep " tk:" <<< "$out" | grep -q -- "--inputs device\$" || fail "hipkittens fwd default: tk's line must end in --inputs device"
    ! grep "peer:" <<< "$out" | grep -q HK_GEN_DEVICE_BYTES || fail "hipkittens fwd default: HK_GEN_DEVICE_BYTES set"
  fi
done
echo "peers_inputs: both sides alike in every mode"
