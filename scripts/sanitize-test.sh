#!/usr/bin/env bash
# The whole program built with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), then its tests: every test without a GPU by default, or the
# ctest arguments given (on the GPU machine: -L gpu). A sanitizer report fails
# the run even where the test itself passed: each lands in build-asan/san-logs.
#   scripts/sanitize-test.sh [ctest args]     build and test
#   RS_SAN_NO_BUILD=1 scripts/sanitize-test.sh -L gpu   a carried build
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${RS_SAN_DIR:-build-asan}
if [ -z "${RS_SAN_NO_BUILD:-}" ]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRS_SANITIZE=ON -DRS_FUZZ=OFF \
    ${RS_SAN_CMAKE_ARGS:-} >/dev/null
  cmake --build "$dir" -j"$(nproc)"
fi
logs="$PWD/$dir/san-logs"
rm -rf "$logs" && mkdir -p "$logs"
supp="$PWD/tests/lib/lsan.supp"
# protect_shadow_gap=0: the CUDA driver maps memory where ASan's gap would be.
# use_tls=0: LeakSanitizer crashes walking the dynamic TLS CUPTI leaves.
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:protect_shadow_gap=0:strict_string_checks=1"
export LSAN_OPTIONS="use_tls=0:print_suppressions=0:suppressions=$supp"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1"
[ $# -gt 0 ] || set -- -LE "gpu|fuzz"
rc=0
(cd "$dir" && ctest --output-on-failure -j"$(nproc)" "$@") || rc=$?
# A report is an error (ASan, LSan) or a runtime error (UBSan); LeakSanitizer's
# notes ("Running thread ... was not suspended") are shown, not failed on.
bad=$(grep -l -E "ERROR: |runtime error" "$logs"/* 2>/dev/null || true)
for f in "$logs"/*; do
  [ -e "$f" ] || continue
  echo "== $f" >&2
  head -60 "$f" >&2
done
if [ -n "$bad" ]; then
  echo "sanitizers: reports in $bad" >&2
  rc=1
else
  echo "sanitizers: no error reported"
fi
exit $rc
