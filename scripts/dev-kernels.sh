export LD_LIBRARY_PATH=$PWD/.gpu-build/lib:$LD_LIBRARY_PATH; mkdir -p /work && ln -sfn $PWD /work/main; ln -sfn .gpu-build build-sm90
R=/work/main/build-sm90/redscope; cd /work/main
$R ladder --kernel conf/kernels/template.cu --kernel conf/kernels/fast.cu --kernel conf/kernels/lab-barrier.cu --kernel conf/kernels/lab-tail.cu --n 2^24 --metrics default --record $OUT/h100-kernels.jsonl 2>&1 | cut -c1-100
$R run --kernel conf/kernels/lab-tail.cu --input ones --n 1000 --record $OUT/k3.jsonl 2>&1 | tail -3
$R run --kernel tests/kernels/oob.cu --n 1000 --record $OUT/k4.jsonl 2>&1 | tail -3
$R run --kernel conf/kernels/lab-barrier.cu --n 2^16 --block 1024 --check race 2>&1 | tail -12
cd build-sm90 && PYTHONUNBUFFERED=1 timeout 500 ctest -L gpu -E "gpu_soak|gpu_tui" 2>&1 | tail -15
