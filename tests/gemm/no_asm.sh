#!/usr/bin/env bash
# no_asm.sh DIR: fails when any source under DIR uses inline assembly or an
# AMDGPU compiler builtin: the GEMM must be built from tk primitives only.
set -u
dir=$1
files=$(find "$dir" -type f \( -name '*.hip' -o -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.c' \))
[ -n "$files" ] || { echo "no_asm.sh: no sources under $dir"; exit 1; }
hits=$(grep -nE '(^|[^A-Za-z0-9_])(__asm__|__asm|asm)[[:space:]]*(volatile|__volatile__|goto)?[[:space:]]*\(|__builtin_amdgcn_' $files)
if [ -n "$hits" ]; then echo "no_asm.sh: inline asm / builtins found:"; echo "$hits"; exit 1; fi
echo "no_asm.sh: $(echo "$files" | wc -l) files clean"
