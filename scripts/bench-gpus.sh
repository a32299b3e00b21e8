#!/usr/bin/env bash
# Issue 14's benchmark on a machine with several GPUs (docs/results.md):
# the ladder over the GPUs at 2^28 and 2^30, int32 and float32 (each variant
# on one GPU, then the host, p2p and nccl finishes, against 1 GPU / G); the
# all-reduce of one element (its latency is the aim's second term: the best
# finish at 2^30 within 10% of 1 GPU / G plus that latency); and the
# all-reduce size sweep from 8 B to 4 GiB, every algorithm, nccl-tests
# beside where .nccl-tests/all_reduce_perf is built.
#   scripts/bench-gpus.sh [REDSCOPE] [GPUS] [DIR]     (from the repository's root)
#     REDSCOPE  default build/redscope; GPUS default 0 (every GPU)
#     DIR       also keep each ladder's recording and the sweep's JSON there
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the machines set it.
set -euo pipefail
exe=${1:-build/redscope}
gpus=${2:-0}
dir=${3:-}
export NCCL_NVLS_ENABLE=0
[ -z "$dir" ] || mkdir -p "$dir"
keep() { # --record FILE where DIR is given
  [ -z "$dir" ] || printf '%s\n' --record "$dir/$1"
}
"$exe" devices
for t in int32 float32; do
  for n in 2^28 2^30; do
    echo "== ladder --gpus $gpus --type $t --n $n"
    mapfile -t rec < <(keep "ladder-$t-${n/^/p}.jsonl")
    "$exe" ladder --gpus "$gpus" --type "$t" --n "$n" --reps 20 "${rec[@]}"
  done
done
echo "== allreduce --gpus $gpus --n 1 (the latency of one element)"
"$exe" allreduce --gpus "$gpus" --n 1 --algo nccl --reps 100
nt=()
[ ! -x .nccl-tests/all_reduce_perf ] || nt=(--nccl-tests .nccl-tests)
echo "== allreduce --gpus $gpus --type float32 --algo all --range 2..2^30 ${nt[*]}"
mapfile -t rec < <(keep allreduce.json)
"$exe" allreduce --gpus "$gpus" --type float32 --algo all --range 2..2^30 --reps 20 "${nt[@]}" \
  "${rec[@]}"
