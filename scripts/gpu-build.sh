#!/usr/bin/env bash
# Build for sm_90 here and pack what the GPU machine needs into .gpu-build/
# (binaries, tests' CTest files and bundled libraries; no objects).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sm90 -DCMAKE_CUDA_ARCHITECTURES=90 -DRS_BUNDLE_RUNTIME_LIBS=ON \
      -DBUILD_TESTING=ON > /dev/null
cmake --build build-sm90 -j"$(nproc)"
rm -rf .gpu-build && mkdir .gpu-build
(cd build-sm90 && tar --exclude='*.o' --exclude='*.a' --exclude='CMakeFiles' \
      --exclude='*.cmake.in' -cf - .) | tar -C .gpu-build -xf -
du -sh .gpu-build
