#!/usr/bin/env bash
# isa_check.sh READELF OBJDUMP ELF[:ELF...] KERNEL...: resource report of gfx942 code objects
# (one per translation unit of the library, separated by colons)
# from its AMDGPU metadata note (AMDGPUUsage, "Code Object V4/V5 Metadata") and
# checks, for every kernel in it: no private segment (scratch) and no VGPR/SGPR
# spills; .vgpr_count (unified arch + acc VGPRs on gfx90a+) <= 256, so two waves
# fit per SIMD (512 per SIMD lane, CDNA3 ISA guide ch. 3); LDS
# (.group_segment_fixed_size) <= 64 KiB. Each named KERNEL must be present;
# KERNEL:N also requires exactly N v_mfma instructions in its disassembly
# (OBJDUMP is llvm-objdump; its K loop is not unrolled, so N = MFMAs per K step).
set -eu
readelf=$1 objdump=$2 elf=$3
shift 3
IFS=: read -r -a elfs <<< "$elf"
report=$(for e in "${elfs[@]}"; do "$readelf" --notes "$e"; done | awk '
  /^  - \.agpr_count:/ { if (name != "") print name, vgpr, agpr, priv, lds, vsp, ssp; name=""; agpr=$3 }
  /^    \.name:/ { name=$2 }
  /^    \.vgpr_count:/ { vgpr=$2 }
  /^    \.private_segment_fixed_size:/ { priv=$2 }
  /^    \.group_segment_fixed_size:/ { lds=$2 }
  /^    \.vgpr_spill_count:/ { vsp=$2 }
  /^    \.sgpr_spill_count:/ { ssp=$2 }
  END { if (name != "") print name, vgpr, agpr, priv, lds, vsp, ssp }')
[ -n "$report" ] || { echo "isa_check: no kernels found in $elf"; exit 1; }
fail=0
printf '%-60s %5s %5s %7s %6s %6s %6s\n' kernel vgprs agprs scratch lds vspill sspill
while read -r name vgpr agpr priv lds vsp ssp; do
  printf '%-60s %5s %5s %7s %6s %6s %6s\n' "$name" "$vgpr" "$agpr" "$priv" "$lds" "$vsp" "$ssp"
  [ "$priv" -eq 0 ] || { echo "  FAIL: $name uses $priv bytes of scratch"; fail=1; }
  [ "$vsp" -eq 0 ] && [ "$ssp" -eq 0 ] || { echo "  FAIL: $name spills registers ($vsp VGPRs, $ssp SGPRs)"; fail=1; }
  [ "$vgpr" -le 256 ] || { echo "  FAIL: $name needs $vgpr VGPRs (> 256: fewer than 2 waves/SIMD)"; fail=1; }
  [ "$lds" -le 65536 ] || { echo "  FAIL: $name needs $lds bytes of LDS (> 64 KiB)"; fail=1; }
done <<< "$report"
for spec in "$@"; do
  k=${spec%%:*}
  grep -q "$k" <<< "$report" || { echo "  FAIL: kernel $k not in the code object"; fail=1; continue; }
  if [ "$spec" != "$k" ]; then
    want=${spec#*:}
    got=$(for e in "${elfs[@]}"; do "$objdump" -d --mcpu=gfx942 "$e"; done | awk -v k="$k" '/^[0-9a-f]+ <.*>:$/ { f = index($0, k) > 0 } f' | grep -c 'v_mfma' || true)
    echo "$k: $got v_mfma instructions (expected $want)"
    [ "$got" -eq "$want" ] || { echo "  FAIL: $k has $got MFMAs, expected $want"; fail=1; }
  fi
done
[ $fail -eq 0 ] && echo "isa_check: ok"
exit $fail
