#!/usr/bin/env bash
# Issue 14's benchmark on a machine with several GPUs (docs/results.md):
# the ladder over the GPUs at 2^28 and 2^30, int32 and float32 (each variant
# on one GPU, then the host, p2p and nccl finishes, against 1 GPU / G), and
# the all-reduce size sweep from 8 B to 4 GiB, every algorithm.
#   scripts/bench-gpus.sh [REDSCOPE] [GPUS]     (default: build/redscope, every GPU)
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the machines set it.
set -euo pipefail
exe=${1:-build/redscope}
gpus=${2:-0}
export NCCL_NVLS_ENABLE=0
"$exe" devices
for t in int32 float32; do
  for n in 2^28 2^30; do
    echo "== ladder --gpus $gpus --type $t --n $n"
    "$exe" ladder --gpus "$gpus" --type "$t" --n "$n" --reps 20
  done
done
echo "== allreduce --gpus $gpus --type float32 --algo all --range 2..2^30"
"$exe" allreduce --gpus "$gpus" --type float32 --algo all --range 2..2^30 --reps 20
