/* A stand-in for the driver library of an old NVIDIA driver (CUDA 11.8):
 * enough for the CUDA runtime to find it and refuse it as too old, so the
 * "driver too old" message is tested on machines with no driver or a new
 * one. Loaded only through LD_LIBRARY_PATH by test_cli.py. */
int cuDriverGetVersion(int *version);
int cuInit(unsigned int flags);

int cuDriverGetVersion(int *version)
{
    *version = 11080;
    return 0;
}

int cuInit(unsigned int flags)
{
    (void)flags;
    return 0;
}
