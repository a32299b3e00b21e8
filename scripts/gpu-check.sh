#!/usr/bin/env bash
# On the GPU machine (see docs/results.md): the GPU tests, the benchmarks and
# the Nsight Compute comparison in one go. Logs go to $OUT/gpu-logs.tar.gz;
# a short summary is printed last.
#   usage: scripts/gpu-check.sh [tests|bench|check|record|lecture|decks|ncu-probe|l2|l2-record|all]
#          (check: tests and bench; lecture: only the demo's two ladders with stall
#          views, to $OUT/h200-lecture.jsonl; decks: the shipped decks' ladders
#          (the lecture's two with energy and racecheck, Harris 2007 and the lab
#          with stall views) to $OUT/decks.jsonl; ncu-probe: the step-configurations where
#          the stall view and Nsight Compute disagreed, at three ncu sampling intervals
#          and without ncu's cache control; l2: the two ceilings' benchmark, vectorized,
#          the fastest own variants and CUB cold and warm from 2^16 to 2^26 in three types;
#          l2-record: the shipped warm recording, conf/recordings/h200-warm.jsonl, to $OUT)
set -u
what=${1:-all}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-/tmp/rs-out}
logs=$(mktemp -d)
mkdir -p "$OUT"
# The CTest files name the paths the build was made under (/work/main).
if [ ! -e /work/main/CMakeLists.txt ]; then mkdir -p /work && ln -sfn "$root" /work/main; fi
[ -d build-sm90 ] || ln -sfn .gpu-build build-sm90
export LD_LIBRARY_PATH="$root/build-sm90/lib:${LD_LIBRARY_PATH:-}"
# This machine has no gnuplot and cannot install it: test_examples checks the
# refusal there instead (in CI a missing gnuplot fails).
export RS_GPU_MACHINE=1
rs=/work/main/build-sm90/redscope
summary="$logs/summary.txt"
record_lecture() {
  # The lecture's two ladders: counters and a stall view of every step.
  r="$logs/rec"
  mkdir -p "$r"
  $rs ladder --type int32 --n 2^24 --block 256 --metrics full --stalls --record "$r/1.jsonl" > /dev/null 2>&1
  echo "== ladder int32 2^24 --metrics full --stalls (exit $?)" >> "$summary"
  $rs ladder --type float32 --n 2^24 --block 256 --metrics default --stalls --record "$r/0.jsonl" > /dev/null 2>&1
  echo "== ladder float32 2^24 --metrics default --stalls (exit $?)" >> "$summary"
  cat "$r"/1.jsonl "$r"/0.jsonl > "$OUT/h200-lecture.jsonl"
}
record_demo() {
  # The demo recording shipped in conf/recordings: ladders with counters, the
  # lecture's two with a stall view of every step, and a sweep.
  record_lecture
  $rs ladder --preset harris-2007 --metrics default --record "$r/2.jsonl" > /dev/null 2>&1
  $rs ladder --preset student-lab --metrics default --record "$r/3.jsonl" > /dev/null 2>&1
  $rs ladder --type float32 --n 2^28 --block 256 --metrics default --record "$r/4.jsonl" > /dev/null 2>&1
  $rs sweep --preset atomic-vs-tree --variants atomic,first_add,multi_element,vectorized,cub \
      --range 2^10..2^28 --reps 5 --record "$r/5.jsonl" > "$logs/sweep.txt" 2>&1
  echo "== sweep (exit $?)" >> "$summary"
  cat "$logs/sweep.txt" >> "$summary"
  cat "$r"/1.jsonl "$r"/0.jsonl "$r"/[2-5].jsonl > "$OUT/h200-demo.jsonl"
  wc -l "$r"/*.jsonl >> "$summary"
  cp "$summary" "$OUT/summary.txt"
}
record_decks() {
  # The decks of `redscope present` (README, "The lecture"): every step's
  # counters, stall view and energy, and racecheck of the racy step in both
  # types (at the ladder's n; at 2^20 where that runs past 200 s).
  r="$logs/rec"
  mkdir -p "$r"
  $rs ladder --type int32 --n 2^24 --block 256 --metrics full --stalls --energy \
      --record "$r/1.jsonl" > /dev/null 2>&1
  echo "== ladder int32 2^24 --metrics full --stalls --energy (exit $?)" >> "$summary"
  $rs ladder --type float32 --n 2^24 --block 256 --metrics default --stalls --energy \
      --record "$r/2.jsonl" > /dev/null 2>&1
  echo "== ladder float32 2^24 --metrics default --stalls --energy (exit $?)" >> "$summary"
  $rs ladder --preset harris-2007 --metrics default --stalls --record "$r/4.jsonl" > /dev/null 2>&1
  echo "== harris-2007 --stalls (exit $?)" >> "$summary"
  $rs ladder --preset student-lab --metrics default --stalls --record "$r/5.jsonl" > /dev/null 2>&1
  echo "== student-lab --stalls (exit $?)" >> "$summary"
  # racecheck last, both types at once: nothing is timed while they run
  for t in int32 float32; do
    (
      n=2^24
      timeout 200 $rs run --variant unroll_warp_volatile --type $t --n $n --check race \
          --record "$r/3-$t.jsonl" > "$logs/check-$t.txt" 2>&1
      e=$?
      if [ $e -eq 124 ]; then
        n=2^20
        timeout 100 $rs run --variant unroll_warp_volatile --type $t --n $n --check race \
            --record "$r/3-$t.jsonl" --force > "$logs/check-$t.txt" 2>&1
        e=$?
      fi
      echo "== racecheck $t $n (exit $e)" > "$logs/check-$t.sum"
      tail -3 "$logs/check-$t.txt" >> "$logs/check-$t.sum"
    ) &
  done
  wait
  cat "$logs"/check-*.sum >> "$summary"
  cat "$r"/1.jsonl "$r"/2.jsonl "$r"/3-int32.jsonl "$r"/3-float32.jsonl "$r"/4.jsonl \
      "$r"/5.jsonl > "$OUT/decks.jsonl"
  wc -l "$r"/*.jsonl >> "$summary"
  cp "$summary" "$OUT/summary.txt"
}

{
  echo "date: $(date -u +%F' '%T) UTC"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv,noheader
  $rs devices --measure
} > "$summary" 2>&1

if [ "$what" = record ] || [ "$what" = all ]; then
  record_demo
elif [ "$what" = lecture ]; then
  record_lecture
elif [ "$what" = decks ]; then
  record_decks
fi

if [ "$what" = ncu-probe ]; then
  pairs=sequential@0,unroll_warp_volatile@1,unrolled@1,first_add@2,vectorized@0
  for s in 5 2 0; do
    (cd /work/main/build-sm90 && RS_NCU_SHIFT=$s RS_NCU_ONLY=$pairs timeout 200 \
        ctest -R "^gpu_stalls_ncu$" -V) > "$logs/ncu-shift$s.log" 2>&1
    echo "== ncu interval = redscope's period - $s" >> "$summary"
    grep -E "pp \(|checks," "$logs/ncu-shift$s.log" | sed 's/^[0-9]*: //' >> "$summary"
  done
  (cd /work/main/build-sm90 && RS_NCU_EXTRA="--cache-control none" \
      RS_NCU_ONLY=sequential@0,unrolled@1 timeout 100 ctest -R "^gpu_stalls_ncu$" -V) \
      > "$logs/ncu-nocache.log" 2>&1
  echo "== ncu --cache-control none" >> "$summary"
  grep -E "pp \(|checks," "$logs/ncu-nocache.log" | sed 's/^[0-9]*: //' >> "$summary"
fi

if [ "$what" = tests ] || [ "$what" = check ] || [ "$what" = all ]; then
  (cd /work/main/build-sm90 && ctest -L gpu -V --timeout 900) > "$logs/ctest-gpu.log" 2>&1
  echo "ctest -L gpu: exit $?" >> "$summary"
  grep -E "tests passed|Test +#|runs \(|checks, " "$logs/ctest-gpu.log" >> "$summary"
  cp "$summary" "$OUT/summary.txt"
  sed -n "/sequential 2^24: DRAM/,/^11: test_gpu_metrics/p" "$logs/ctest-gpu.log" > "$logs/ncu-compare.md"
  cp "$logs/ncu-compare.md" "$OUT/ncu-compare.md"
  cp "$logs/ctest-gpu.log" "$OUT/ctest-gpu.log"
fi

if [ "$what" = bench ] || [ "$what" = check ] || [ "$what" = all ]; then
  for t in int32 float32 float64; do
    for n in 2^28 2^24; do
      f="$logs/ladder-$t-${n/^/_}"
      $rs ladder --type "$t" --n "$n" --record "$f.jsonl" > "$f.txt" 2>&1
      echo "== redscope ladder --type $t --n $n (exit $?)" >> "$summary"
      cut -c1-96 "$f.txt" >> "$summary"
    done
  done
  $rs ladder --variants vectorized,cub --n 2^20 --reps 50 > "$logs/vectorized-cub-2_20.txt" 2>&1
  echo "== redscope ladder --variants vectorized,cub --n 2^20 --reps 50" >> "$summary"
  cut -c1-96 "$logs/vectorized-cub-2_20.txt" >> "$summary"
  # user kernels: NVRTC's compile time, and the shipped kernels beside the last steps
  for f in template fast; do
    for t in int32 float16; do
      $rs compile conf/kernels/$f.cu --type $t 2>&1 | head -1 >> "$summary"
    done
  done
  $rs ladder --kernel conf/kernels/template.cu --kernel conf/kernels/fast.cu \
      --variants sequential,vectorized,cub --n 2^24 > "$logs/kernels.txt" 2>&1
  echo "== redscope ladder --kernel template.cu --kernel fast.cu --n 2^24 (exit $?)" >> "$summary"
  cut -c1-96 "$logs/kernels.txt" >> "$summary"
  /usr/bin/time -f "run --kernel template.cu --n 2^24 --metrics: %e s wall" \
      $rs run --kernel conf/kernels/template.cu --n 2^24 --metrics 2>> "$summary" > /dev/null
  for set in default full; do
    $rs run --variant sequential --n 2^24 --metrics=$set --format json > "$logs/metrics-$set.json" 2>&1
    python3 - "$logs/metrics-$set.json" "$set" >> "$summary" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["metrics"]
print(f"metrics {sys.argv[2]}: {j['passes']} passes, collected in {j['wall_ms']:.0f} ms wall")
PY
  done
fi
if [ "$what" = l2-record ]; then
  # both states of the shapes users meet: LeetGPU's 16 MiB, Harris' 2^22, GPU MODE's
  # vectorsum sizes, and float32 from 2^16 to 2^28 across the L2's edge
  r="$logs/warm"
  mkdir -p "$r"
  for c in warm cold; do
    $rs ladder --preset leetgpu-reduction --cache $c --metrics default --energy \
        --record "$r/1-$c.jsonl" > "$r/1-$c.txt" 2>&1
    echo "== ladder --preset leetgpu-reduction --cache $c --metrics default --energy (exit $?)" >> "$summary"
    cut -c1-110 "$r/1-$c.txt" >> "$summary"
    $rs sweep --preset gpumode-vectorsum --cache $c --record "$r/3-$c.jsonl" > /dev/null 2>&1
    echo "== sweep --preset gpumode-vectorsum --cache $c (exit $?)" >> "$summary"
    $rs sweep --type float32 --variants vectorized,cub --range 2^16..2^28 --cache $c \
        --record "$r/4-$c.jsonl" > /dev/null 2>&1
    echo "== sweep float32 vectorized,cub 2^16..2^28 --cache $c (exit $?)" >> "$summary"
  done
  $rs ladder --preset harris-2007 --cache warm --metrics default --record "$r/2-warm.jsonl" \
      > "$r/2-warm.txt" 2>&1
  echo "== ladder --preset harris-2007 --cache warm --metrics default (exit $?)" >> "$summary"
  cut -c1-110 "$r/2-warm.txt" >> "$summary"
  cat "$r"/1-warm.jsonl "$r"/1-cold.jsonl "$r"/2-warm.jsonl "$r"/3-warm.jsonl "$r"/3-cold.jsonl \
      "$r"/4-warm.jsonl "$r"/4-cold.jsonl > "$OUT/h200-warm.jsonl"
  wc -l "$r"/*.jsonl >> "$summary"
  cp "$summary" "$OUT/summary.txt"
fi

if [ "$what" = l2 ]; then
  # cold and warm: the own variants near the ceilings beside CUB, every size
  for t in int32 float32 float64; do
    for c in cold warm; do
      f="$logs/l2-$t-$c"
      $rs sweep --type "$t" --cache "$c" --range 2^16..2^26 --reps 50 \
          --variants multi_element,warp_shuffle,vectorized,cub --format csv > "$f.csv" 2> "$f.err"
      echo "== sweep --type $t --cache $c --range 2^16..2^26 --reps 50 (exit $?)" >> "$summary"
    done
  done
  $rs devices --measure --format json > "$logs/devices.json" 2>&1
  # one launch that only reads the input, warm, per size (tests/lib/l2_read.cu)
  build-sm90/tests/l2_read curve > "$logs/curve.txt" 2>&1
  python3 - "$logs" >> "$summary" <<'PY'
import csv, json, os, re, sys
alone = {}
for line in open(os.path.join(sys.argv[1], "curve.txt")):
    m = re.match(r"2\^(\d+) int32 \((\d+) bytes\): ([\d.]+) us", line)
    if m:
        alone[int(m.group(2))] = float(m.group(3))
d = json.load(open(os.path.join(sys.argv[1], "devices.json")))[0]
dram, l2, floor = d["measured_gbps"], d["l2_gbps"], d["floor_launch_ms"] * 1e3
print(f"ceilings: DRAM read {dram:.0f} GB/s, L2 read {l2:.0f} GB/s, one-launch floor {floor:.1f} µs, "
      f"L2 {d['l2_bytes'] / 2**20:.0f} MiB")
OWN = ("multi_element", "warp_shuffle", "vectorized")
for t, size in (("int32", 4), ("float32", 4), ("float64", 8)):
    by = {}
    for c in ("cold", "warm"):
        p = os.path.join(sys.argv[1], f"l2-{t}-{c}.csv")
        for r in (csv.DictReader(open(p)) if os.path.exists(p) else []):
            if r["status"] == "0":
                by.setdefault(int(r["n"]), {})[(r["variant"], c)] = float(r["time_median_ms"]) * 1e3
    print(f"\n{t}: µs (GB/s); fastest own = the fastest of {', '.join(OWN)}")
    print("| n | MiB | vectorized cold | cub cold | fastest own warm | cub warm | cub warm / own warm "
          "| own warm % of its ceiling | read alone, warm | own warm / read alone |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sorted(by):
        x, b = by[n], n * size
        own = min((x[(v, "warm")], v) for v in OWN if (v, "warm") in x)
        g = lambda us: f"{us:.2f} ({b / us / 1e3:.0f})"
        ceil = l2 if b <= d["l2_bytes"] else dram  # warm: the L2 read where it fits
        ra = alone.get(b)
        ratio = f"{own[0] / ra:.2f}" if ra else "-"
        print(f"| 2^{n.bit_length() - 1} | {b / 2**20:g} | {g(x[('vectorized', 'cold')])} | "
              f"{g(x[('cub', 'cold')])} | {g(own[0])} {own[1]} | {g(x[('cub', 'warm')])} | "
              f"{x[('cub', 'warm')] / own[0]:.2f} | {100 * b / own[0] / 1e3 / ceil:.0f}% "
              f"{'L2' if ceil == l2 else 'DRAM'} | {g(ra) if ra else '-'} | {ratio} |")
PY
  cp "$summary" "$OUT/summary.txt"
fi
tar -C "$logs" -czf "$OUT/gpu-logs.tar.gz" .
cp "$summary" "$OUT/summary.txt"
cat "$summary"
