// No __global__ function at all.
__device__ int twice(int x) { return 2 * x; }
