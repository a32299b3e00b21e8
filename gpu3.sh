export LD_LIBRARY_PATH=$PWD/.gpu-build/lib:$LD_LIBRARY_PATH RS_GPU_MACHINE=1
mkdir -p /work && ln -sfn $PWD /work/main; ln -sfn .gpu-build build-sm90
rs=$PWD/build-sm90/redscope
date -u
$rs devices --measure
for i in 1 2 3; do /usr/bin/time -f "run --metrics: wall %e s" $rs run --variant sequential --n 2^24 --metrics > /dev/null; done 2>&1
/usr/bin/time -f "run, no counters: wall %e s" $rs run --variant sequential --n 2^24 2>&1 > /dev/null
REDSCOPE_TRACE=1 $rs run --variant sequential --n 2^24 --metrics 2>&1 | grep -E "trace" | cut -c1-90
(cd build-sm90 && timeout 60 ctest -R "gpu_variants" 2>&1 | grep -E "Test +#|checks")
