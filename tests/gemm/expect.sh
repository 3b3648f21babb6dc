#!/usr/bin/env bash
# expect.sh STATUS REGEX -- COMMAND...: runs COMMAND and passes when its exit
# status is STATUS ("nonzero" accepts any 1..127, i.e. an error exit that is not
# a signal) and its combined stdout+stderr matches the extended REGEX.
set -u
want=$1 re=$2
shift 2
[ "$1" = "--" ] && shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$want" = nonzero ]; then
  if [ "$rc" -lt 1 ] || [ "$rc" -gt 127 ]; then echo "expect.sh: exit status $rc, wanted an error exit (1..127)"; exit 1; fi
elif [ "$rc" -ne "$want" ]; then
  echo "expect.sh: exit status $rc, wanted $want"; exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then echo "expect.sh: output does not match /$re/"; exit 1; fi
echo "expect.sh: ok (status $rc, output matches /$re/)"
