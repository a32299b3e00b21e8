#!/usr/bin/env bash
# Build for sm_90 here and pack what the GPU machine needs (binaries, tests'
# CTest files and bundled libraries; no objects):
#   scripts/gpu-build.sh        build-sm90/      -> .gpu-build/
#   scripts/gpu-build.sh asan   build-asan-sm90/ -> .gpu-asan/ (the program under
#                               ASan+UBSan with its sanitizer runtimes; run there
#                               with RS_SAN_NO_BUILD=1 RS_SAN_DIR=build-asan-sm90
#                               scripts/sanitize-test.sh -R gpu_soak)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = asan ]; then
  cmake -S . -B build-asan-sm90 -DCMAKE_CUDA_ARCHITECTURES=90 -DRS_BUNDLE_RUNTIME_LIBS=ON \
        -DRS_SANITIZE=ON -DBUILD_TESTING=ON > /dev/null
  cmake --build build-asan-sm90 -j"$(nproc)" --target redscope
  rm -rf .gpu-asan && mkdir -p .gpu-asan/tests .gpu-asan/lib
  cp build-asan-sm90/redscope .gpu-asan/
  cp build-asan-sm90/CTestTestfile.cmake .gpu-asan/
  cp build-asan-sm90/tests/CTestTestfile.cmake .gpu-asan/tests/
  cp -L build-asan-sm90/lib/* .gpu-asan/lib/ 2>/dev/null || true
  for l in libasan.so.8 libubsan.so.1; do cp -L "$(gcc -print-file-name=$l)" .gpu-asan/lib/; done
  du -sh .gpu-asan
  exit 0
fi
cmake -S . -B build-sm90 -DCMAKE_CUDA_ARCHITECTURES=90 -DRS_BUNDLE_RUNTIME_LIBS=ON \
      -DBUILD_TESTING=ON > /dev/null
cmake --build build-sm90 -j"$(nproc)"
rm -rf .gpu-build && mkdir .gpu-build
# Unit tests that link the kernels but run in CI, not there: the carried tree
# stays under 64 MiB with the kernels' cubins (cubins/, for PC sampling).
(cd build-sm90 && tar --exclude='*.o' --exclude='*.a' --exclude='CMakeFiles' \
      --exclude='*.cmake.in' --exclude='./tests/test_plan' --exclude='./tests/test_export' \
      -cf - .) | tar -C .gpu-build -xf -
du -sh .gpu-build
