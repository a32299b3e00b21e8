export LD_LIBRARY_PATH=$PWD/.gpu-build/lib:$LD_LIBRARY_PATH
rs=$PWD/.gpu-build/redscope
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
echo "cs=$cs"; $cs --version | tail -2
for v in unroll_warp_volatile unroll_warp; do
  echo "=== racecheck $v"
  time $cs --tool racecheck --racecheck-report analysis --log-file $OUT/race-$v.txt $rs run --variant $v --n 1000003 --reps 1 --warmup 0 --format json > $OUT/race-$v.json 2>&1
  echo rc=$?; head -c 1500 $OUT/race-$v.txt; tail -5 $OUT/race-$v.txt
done
echo "=== racecheck hazard mode"
$cs --tool racecheck --racecheck-report hazard --print-limit 3 $rs run --variant unroll_warp_volatile --n 65536 --reps 1 --warmup 0 2>&1 | head -30
echo "=== memcheck vectorized odd"
time $cs --tool memcheck --error-exitcode 9 $rs run --variant vectorized --type float16 --op max --n 1000003 --reps 1 --warmup 0 2>&1 | tail -4
echo "=== initcheck"
time $cs --tool initcheck --error-exitcode 9 $rs run --variant cub --n 1000003 --reps 1 --warmup 0 2>&1 | tail -4
echo "=== ladder memcheck"
time $cs --tool memcheck --error-exitcode 9 $rs ladder --n 100003 --reps 1 --warmup 0 2>&1 | tail -22
echo "=== xml"
$cs --help 2>&1 | grep -i -E "xml|save|log-file|print-limit|racecheck" | head
