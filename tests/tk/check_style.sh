#!/usr/bin/env bash
# check_style.sh INCLUDE_DIR TESTS_DIR: the shape rules of include/tk (issue 2):
#  - no templates, classes, namespaces, operator overloading, C++ standard
#    library (std::, <cstdint>-style headers) in include/tk; only the C
#    headers <stdint.h>, <stddef.h>, <string.h> are included;
#  - no function overloading: every tk_ function name is defined once;
#  - inline asm / __builtin_amdgcn_* appear only in include/tk, not in the
#    tk test kernels (tests/tk/*.hip) that stand in for user code.
# Comments and string literals are removed first (perl, Essential in Debian),
# so prose like "the class of ..." in a comment does not count.
set -u
inc=$1
tests=$2
fail=0
strip() { perl -0777 -pe 's{("(?:\\.|[^"\\\n])*")|/\*.*?\*/|//[^\n]*}{defined $1 ? "\"\"" : " " . join("", $& =~ /\n/g)}gse' "$1"; }
for h in "$inc"/tk/*.h; do
  code=$(strip "$h")
  for re in '\btemplate\b' '\bclass\b' '\bnamespace\b' '\boperator\b' '\bstd::' \
            '\btypename\b' '\bvirtual\b' '\busing\b' '\bpublic:' '\bprivate:' '\bnew\b' '\bdelete\b'; do
    hits=$(printf '%s\n' "$code" | grep -nP "$re")
    if [ -n "$hits" ]; then echo "FAIL $h: C++-only construct /$re/:"; echo "$hits" | head -5; fail=1; fi
  done
  bad=$(printf '%s\n' "$code" | grep -P '^\s*#\s*include\s*<' | grep -vP '<(stdint|stddef|string)\.h>')
  if [ -n "$bad" ]; then echo "FAIL $h: includes other than <stdint.h>/<stddef.h>/<string.h>:"; echo "$bad"; fail=1; fi
done
# overloading: a tk_ function defined (name followed by '(' ... ')' '{') more than once
defs=$(for h in "$inc"/tk/*.h; do strip "$h"; done |
       perl -0777 -ne 'while (/\b(tk_[A-Za-z0-9_]+)\s*\(([^;{}()]|\([^()]*\))*\)\s*(?:__asm\s*\([^)]*\)\s*;|\{)/g) { print "$1\n" }' |
       sort | uniq -d)
if [ -n "$defs" ]; then echo "FAIL: tk_ functions defined more than once (overloads?):"; echo "$defs"; fail=1; fi
ndefs=$(for h in "$inc"/tk/*.h; do strip "$h"; done |
        perl -0777 -ne 'while (/\b(tk_[A-Za-z0-9_]+)\s*\(([^;{}()]|\([^()]*\))*\)\s*(?:__asm\s*\([^)]*\)\s*;|\{)/g) { print "$1\n" }' | wc -l)
if [ "$ndefs" -lt 20 ]; then echo "FAIL: found only $ndefs tk_ function definitions: the scanner is broken"; fail=1; fi
# tk test kernels are user code: no inline asm or AMDGPU builtins
hits=$(for f in "$tests"/*.hip; do strip "$f" | grep -nE '(^|[^A-Za-z0-9_])(__asm__|__asm|asm)[[:space:]]*(volatile|__volatile__)?[[:space:]]*\(|__builtin_amdgcn_' | sed "s|^|$f:|"; done)
if [ -n "$hits" ]; then echo "FAIL: inline asm / __builtin_amdgcn_ outside include/tk:"; echo "$hits"; fail=1; fi
[ $fail -eq 0 ] && echo "style: $(ls "$inc"/tk/*.h | wc -l) headers, $ndefs tk_ function definitions: C style, no overloads; tests/tk kernels free of asm/builtins"
exit $fail
