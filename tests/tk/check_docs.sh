#!/usr/bin/env bash
# check_docs.sh ROOT CXX FLAGS...: the docs stay in step with the code.
#  1. every public tk_/TK_ name defined in include/tk appears in docs/api-*.md
#     (not counted: header guards TK_*_H, names starting tk__/TK__ or ending
#     in _, the per-field macros of a fragment kind, TK_K_<kind>_ROWS etc.,
#     whose kind name TK_K_<kind> must appear instead);
#  2. every code line of docs/tutorial.md is a line of tests/tk/test_tutorial.hip
#     (comments and spacing aside), so the tutorial is the compiled test;
#  3. the example kernel in README.md compiles (CXX FLAGS -fsyntax-only).
set -u
root=$1; cxx=$2; shift 2
fail=0
names=$(perl -0777 -ne '
  s{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g;
  while (/^\s*#\s*define\s+((?:tk|TK)_\w+)/mg) { print "$1\n" }
  while (/\b((?:tk|TK)_\w+)\s*\([^;{]*\)\s*(?:\{|__asm)/g) { print "$1\n" }
  while (/\}\s*((?:tk|TK)_\w+)\s*;/g) { print "$1\n" }
  while (/typedef[^;{]*?\b(tk_\w+)(?:\s+__attribute__\S*\)\))?\s*;/g) { print "$1\n" }
  while (/\b(TK_[A-Z0-9_]+)\s*=/g) { print "$1\n" }
' "$root"/include/tk/*.h | sort -u)
n=0; missing=""
for nm in $names; do
  case "$nm" in tk__*|TK__*|*_) continue;; esac
  [[ "$nm" =~ ^TK_[A-Z0-9]+_H$ ]] && continue
  if [[ "$nm" =~ ^(TK_K_.*)_(ROWS|COLS|VEC|N|DT|SHAPE|OP)$ ]]; then nm=${BASH_REMATCH[1]}; fi
  n=$((n + 1))
  grep -qw -- "$nm" "$root"/docs/api-*.md || missing="$missing $nm"
done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -n "${missing// /}" ]; then echo "FAIL: public names not in docs/api-*.md: $missing"; fail=1; fi
[ "$n" -gt 100 ] || { echo "FAIL: only $n public names found: the scanner is broken"; fail=1; }
# 2. tutorial code == test code
norm='chomp; s{//.*$}{}; s/^\s+|\s+$//g; s/\s+/ /g; $_ .= "\n";'
tut=$(perl -ne 'if (/^```c\s*$/) { $in = 1; next } if (/^```/) { $in = 0; next } print if $in' "$root/docs/tutorial.md" | perl -pe "$norm" | grep -v '^$')
src=$(perl -pe "$norm" "$root/tests/tk/test_tutorial.hip")
nt=0
while IFS= read -r l; do
  nt=$((nt + 1))
  grep -qxF -- "$l" <<<"$src" || { echo "FAIL: docs/tutorial.md line not in tests/tk/test_tutorial.hip: $l"; fail=1; }
done <<<"$tut"
[ "$nt" -gt 20 ] || { echo "FAIL: only $nt tutorial code lines found"; fail=1; }
# 3. README example compiles
tmp=$(mktemp -d)
perl -ne 'if (/^```c\s*$/) { $in = 1; next } if (/^```/) { exit if $in; next } print if $in' "$root/README.md" > "$tmp/readme_example.hip"
nr=$(grep -c . "$tmp/readme_example.hip")
if [ "$nr" -lt 10 ]; then echo "FAIL: README.md has no example kernel (first \`\`\`c block)"; fail=1
elif ! "$cxx" "$@" -fsyntax-only "$tmp/readme_example.hip" 2>"$tmp/err"; then
  echo "FAIL: README.md example kernel does not compile:"; cat "$tmp/err"; fail=1
fi
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "docs: $n public names documented; $nt tutorial code lines match the test; README example ($nr lines) compiles"
exit $fail
