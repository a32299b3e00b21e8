#!/usr/bin/env bash
# The speed benchmark of issue 11, on a GPU machine: redscope's best variant
# against CUB in one run, for int32, float32 and float64, at n = 2^10..2^30,
# at a set of odd n, and over blockDim 32..1024 at 2^20 and 2^28. Prints one
# table per part: the ratio (CUB's time / ours), GB/s and % of the limit
# measured in the same process by 'redscope devices --measure'. In the
# blockDim part vectorized picks its own launch (as it does for any user who
# leaves --grid and --ept alone): it shows what a user's blockDim costs.
#
#   usage: scripts/bench-speed.sh [REDSCOPE] [--quick]
#     REDSCOPE  the binary (default: build-sm90/redscope, else build/redscope)
#     --quick   2^10..2^28 only (2^29 and 2^30 take most of the time)
#   environment: BEST (default vectorized), TYPES (default "int32 float32 float64"),
#                REPS (default 30), LOG (a folder to keep the CSV in)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rs=""
top=2^30
for a in "$@"; do
  case "$a" in
    --quick) top=2^28 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) rs=$a ;;
  esac
done
if [ -z "$rs" ]; then
  for c in "$root/build-sm90/redscope" "$root/build/redscope"; do
    [ -x "$c" ] && rs=$c && break
  done
fi
[ -n "$rs" ] && [ -x "$rs" ] || { echo "bench-speed: no redscope binary (build it first)" >&2; exit 2; }
best=${BEST:-vectorized}
types=${TYPES:-int32 float32 float64}
reps=${REPS:-30}
log=${LOG:-$(mktemp -d)}
mkdir -p "$log"
csv="$log/bench-speed.csv"
odd="1,3,7,31,1000,4097,65537,999999,1000003,1048577,16777259,268435459"
blocks="32 64 128 192 256 384 512 768 1024"

echo "date:   $(date -u '+%F %T') UTC"
"$rs" devices --measure --format csv > "$log/devices.csv" || {
  echo "bench-speed: 'redscope devices --measure' failed (exit $?)" >&2; exit 3; }
echo "device: $(sed -n 2p "$log/devices.csv" | cut -d, -f2)"
echo "run:    $rs sweep --variants $best,cub --reps $reps (L2 flushed before each repetition)"
: > "$csv"
sweep() { # PART TYPE BLOCK RANGE; a failed sweep is said, and its rows show as failed
  if ! "$rs" sweep --variants "$best,cub" --type "$2" --block "$3" --range "$4" --reps "$reps" \
      --format csv > "$log/part.csv"; then
    echo "bench-speed: the $1 sweep of $2 at block $3 ended with an error (rows kept)" >&2
  fi
  tail -n +2 "$log/part.csv" | sed "s/^/$1,$2,$3,/" >> "$csv"
}
for t in $types; do
  sweep pow2 "$t" 256 "2^10..$top"
  sweep odd "$t" 256 "$odd"
  for b in $blocks; do sweep block "$t" "$b" "2^20,2^28"; done
done
python3 "$root/scripts/bench_table.py" "$log/devices.csv" "$csv" "$best"
echo "csv:    $csv"
