#!/usr/bin/env bash
# One GPU of a big node (issue 44): the wall time of one-GPU commands with
# every GPU visible to the GPU process (REDSCOPE_EVERY_GPU=1: as before),
# with the process seeing its GPU alone (now), and with CUDA_VISIBLE_DEVICES=0
# set by hand (the goal: within 0.1 s of it); CUDA's own start with all GPUs
# and with one; the explorer's GPU facts (the trace's "counter facts" line).
#   usage: scripts/bench-startup.sh [REDSCOPE] [REPS]     (on the GPU machine)
set -u
rs=${1:-/work/main/build-sm90/redscope}
reps=${2:-5}
export NCCL_NVLS_ENABLE=0
now() { date +%s.%N; }
# min / median / max of the wall times of a command, in seconds
times() {
  local label=$1; shift
  local all=()
  for _ in $(seq "$reps"); do
    local t0; t0=$(now)
    "$@" > /dev/null 2>&1 || { echo "$label: exit $? ($*)"; return; }
    all+=("$(awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}')")
  done
  printf '%s\n' "${all[@]}" | sort -n | awk -v l="$label" \
    '{v[NR]=$1} END {printf "%-52s %6.2f %6.2f %6.2f\n", l, v[1], v[int((NR+1)/2)], v[NR]}'
}
cuda_start='
import ctypes
cu = ctypes.CDLL("libcuda.so.1")
assert cu.cuInit(0) == 0
ctx = ctypes.c_void_p(); d = ctypes.c_int()
cu.cuDeviceGet(ctypes.byref(d), 0)
assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), d) == 0
cu.cuCtxSetCurrent(ctx); cu.cuCtxSynchronize()'
echo "GPUs: $(nvidia-smi -L | wc -l) ($(nvidia-smi --query-gpu=name,persistence_mode --format=csv,noheader | sort | uniq -c | tr -s ' '))"
echo "date: $(date -u +%F) driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
printf '%-52s %6s %6s %6s\n' "seconds ($reps each)" min median max
times "CUDA start, every GPU visible" python3 -c "$cuda_start"
times "CUDA start, CUDA_VISIBLE_DEVICES=0" env CUDA_VISIBLE_DEVICES=0 python3 -c "$cuda_start"
for cmd in "run --variant sequential --n 2^24" "ladder --n 2^24 --metrics" "metrics"; do
  # shellcheck disable=SC2086
  times "$cmd: every GPU (REDSCOPE_EVERY_GPU=1)" env REDSCOPE_EVERY_GPU=1 $rs $cmd
  # shellcheck disable=SC2086
  times "$cmd: alone (now)" $rs $cmd
  # shellcheck disable=SC2086
  times "$cmd: CUDA_VISIBLE_DEVICES=0 by hand" env CUDA_VISIBLE_DEVICES=0 $rs $cmd
done
times "devices (every GPU, as it must)" $rs devices
# The explorer: the trace's time of its GPU facts (counter facts, the
# profiler started), in tmux, three ways.
facts() {
  local label=$1; shift
  local all=()
  for _ in $(seq "$reps"); do
    local tr; tr=$(mktemp)
    tmux -L rsbench new-session -d -x 120 -y 40 \
      "env $* REDSCOPE_TRACE=1 LANG=C.UTF-8 $rs 2> $tr; sleep 30"
    for _ in $(seq 300); do grep -q "counter facts" "$tr" && break; sleep 0.1; done
    tmux -L rsbench kill-server 2> /dev/null
    local ms; ms=$(grep "counter facts" "$tr" | head -1 | awk '{print $3}')
    rm -f "$tr"
    [ -n "$ms" ] && all+=("$(awk -v m="$ms" 'BEGIN {print m / 1000}')")
    sleep 0.5
  done
  printf '%s\n' "${all[@]}" | sort -n | awk -v l="$label" \
    '{v[NR]=$1} END {printf "%-52s %6.2f %6.2f %6.2f\n", l, v[1], v[int((NR+1)/2)], v[NR]}'
}
if command -v tmux > /dev/null; then
  facts "explorer's GPU facts: every GPU" REDSCOPE_EVERY_GPU=1
  facts "explorer's GPU facts: alone (now)" REDSCOPE_EVERY_GPU=0
  facts "explorer's GPU facts: CUDA_VISIBLE_DEVICES=0" CUDA_VISIBLE_DEVICES=0
fi
