#error "]0;PWNED[2J"
extern "C" __global__ void k() {}
