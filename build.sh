#!/usr/bin/env bash
# redscope, from a fresh clone:
#   ./build.sh run    install what is missing, build, start the explorer
#   ./build.sh test   install what is missing, build, run the tests
# Debian packages are installed when run as root; otherwise the apt-get line
# is printed. The CUDA toolkit (nvcc, CUPTI, CCCL) must already be there.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
case "$mode" in run|test) ;; *) echo "usage: $0 [run|test]" >&2; exit 2 ;; esac

run_pkgs="cmake make gcc g++ pkg-config libncurses-dev libinih-dev libcjson-dev gnuplot-nox"
# the tests also build and check the Debian package (dpkg-shlibdeps, file,
# lintian), read the man page (man-db, groff) and parse the completions (zsh, fish)
test_pkgs="python3 tmux clang libclang-rt-14-dev procps dpkg-dev file man-db groff-base lintian zsh fish"
want=$run_pkgs
[ "$mode" = test ] && want="$run_pkgs $test_pkgs"
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "redscope: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    echo "redscope: missing packages; as root run:" >&2
    echo "  apt-get update && apt-get install -y$missing" >&2
    exit 1
  fi
fi

export PATH="$PATH:/usr/local/cuda/bin"
if ! command -v nvcc >/dev/null; then
  echo "redscope: nvcc not found: install the CUDA toolkit 13 (nvcc, CUPTI, CCCL)" >&2
  exit 1
fi

args=(-DCMAKE_BUILD_TYPE=Release)
# Without a GPU here, one architecture keeps the build short (replay needs none).
nvidia-smi -L >/dev/null 2>&1 || args+=(-DCMAKE_CUDA_ARCHITECTURES=90)
[ "$mode" = test ] && command -v clang >/dev/null && args+=(-DRS_FUZZ=ON)
cmake -S . -B build "${args[@]}" >/dev/null
cmake --build build -j"$(nproc)"

if [ "$mode" = test ]; then
  (cd build && ctest --output-on-failure)
  # The same tests again on a build with ASan and UBSan (build-asan/).
  arch=""
  nvidia-smi -L >/dev/null 2>&1 || arch=-DCMAKE_CUDA_ARCHITECTURES=90
  exec env RS_SAN_CMAKE_ARGS="$arch" scripts/sanitize-test.sh
fi
# A GPU: the live explorer. None: the explorer replaying a real H200.
if ./build/redscope devices >/dev/null 2>&1; then
  exec ./build/redscope
fi
echo "redscope: no usable CUDA device here; replaying a recording of an H200" >&2
sleep 1
exec ./build/redscope --replay conf/recordings/h200-demo.jsonl
