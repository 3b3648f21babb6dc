#!/usr/bin/env bash
# sweep_outputs.sh DIR RUNNER... : runs a 3-shape sweep and checks the CSV (header
# plus one row per shape with the requested sizes) and the PNG (signature, IHDR
# 800x400 RGB, IEND at the end).
set -eu
dir=$1; shift
rm -f "$dir/sweep.csv" "$dir/sweep.png"
"$@" --sweep-shapes 64x64x64,96x32x160,17x5x33 --csv "$dir/sweep.csv" --png "$dir/sweep.png"
[ "$(head -1 "$dir/sweep.csv")" = "m,n,k,batch,layout,out,kernel,ms,tflops,timing" ] || { echo "bad CSV header"; exit 1; }
[ "$(wc -l < "$dir/sweep.csv")" -eq 4 ] || { echo "CSV should have 4 lines"; exit 1; }
grep -q '^96,32,160,1,nt,bf16,' "$dir/sweep.csv" || { echo "CSV misses the 96x32x160 row"; exit 1; }
sig=$(od -An -tx1 -N 20 "$dir/sweep.png" | tr -d ' \n')
[ "$sig" = "89504e470d0a1a0a0000000d4948445200000320" ] || { echo "bad PNG signature/IHDR: $sig"; exit 1; }
dims=$(od -An -tx1 -j 16 -N 10 "$dir/sweep.png" | tr -d ' \n')
[ "$dims" = "00000320000001900802" ] || { echo "bad PNG dimensions/type: $dims"; exit 1; }
tail=$(tail -c 12 "$dir/sweep.png" | od -An -tx1 | tr -d ' \n')
[ "$tail" = "0000000049454e44ae426082" ] || { echo "bad PNG IEND: $tail"; exit 1; }
echo "sweep outputs ok"
