#!/usr/bin/env bash
# nccl-tests' all_reduce_perf for `redscope allreduce --nccl-tests PATH`,
# built for one architecture against the toolkit's NCCL:
#   scripts/build-nccl-tests.sh SRC [OUT] [ARCH]
# SRC: a checkout of https://github.com/NVIDIA/nccl-tests; OUT (default
# .nccl-tests, ignored by git) receives all_reduce_perf; ARCH default 90.
set -euo pipefail
src=${1:?usage: scripts/build-nccl-tests.sh NCCL_TESTS_CHECKOUT [OUT] [ARCH]}
out=$(realpath -m "${2:-.nccl-tests}")
arch=${3:-90}
cuda=${CUDA_HOME:-/usr/local/cuda}
nccl=${NCCL_HOME:-$cuda}
[ -f "$nccl/include/nccl.h" ] || { echo "no nccl.h under $nccl/include (set NCCL_HOME)" >&2; exit 1; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
make -C "$src" -j"$(nproc)" src.build CUDA_HOME="$cuda" NCCL_HOME="$nccl" BUILDDIR="$build" \
     NVCC_GENCODE="-gencode=arch=compute_$arch,code=sm_$arch" > "$build/log" 2>&1 ||
  { tail -20 "$build/log" >&2; exit 1; }
mkdir -p "$out"
cp "$build/all_reduce_perf" "$out/"
echo "$out/all_reduce_perf"
