/* A stand-in for the driver library of an old NVIDIA driver (CUDA 11.8):
 * enough for the CUDA runtime to find it and refuse it as too old, so the
 * "driver too old" message is tested on machines with no driver or a new
 * one. Loaded only through LD_LIBRARY_PATH by test_cli.py and test_tui.py;
 * RS_FAKE_CUDA_DELAY_MS makes it slow to answer, as a driver can be on its
 * first call (test_tui.py: keys pressed while CUDA starts). */
#include <stdlib.h>
#include <time.h>

int cuDriverGetVersion(int *version);
int cuInit(unsigned int flags);

int cuDriverGetVersion(int *version)
{
    const char *delay = getenv("RS_FAKE_CUDA_DELAY_MS");
    const long ms = delay ? atol(delay) : 0;
    if (ms > 0) {
        const struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
    }
    *version = 11080;
    return 0;
}

int cuInit(unsigned int flags)
{
    (void)flags;
    return 0;
}
