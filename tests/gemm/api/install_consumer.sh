#!/usr/bin/env bash
# install_consumer.sh BUILD WORK CC CXX [RUNNER...]: installs the build into
# WORK/prefix (cmake --install), builds tests/gemm/api as a project of its own
# against it (find_package(tk), tk::gemm) and runs the program (through RUNNER,
# e.g. tksim, when given).
set -eu
build=$1 work=$2 cc=$3 cxx=$4
shift 4
src=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work.install.log" 2>&1 || { cat "$work.install.log"; exit 1; }
cmake -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release > "$work.configure.log" 2>&1 ||
  { cat "$work.configure.log"; exit 1; }
cmake --build "$work/build" > "$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
echo "built $work/build/gemm_api_c against $work/prefix"
"$@" "$work/build/gemm_api_c"
