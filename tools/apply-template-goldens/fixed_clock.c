// A fixed wall clock: PROMPTSCOPE_NOW (epoch seconds, default 1768472430 = 2026-01-15 10:20:30 UTC).
// Interposes time(), clock_gettime(CLOCK_REALTIME*) and gettimeofday(); monotonic clocks are untouched.
// Linked into harness.cpp's program, and built as fixed_clock.so for LD_PRELOAD into llama-server.
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static time_t fixed_now(void) {
    const char * s = getenv("PROMPTSCOPE_NOW");
    return s ? (time_t) atoll(s) : (time_t) 1768472430;
}

time_t time(time_t * out) {
    time_t t = fixed_now();
    if (out) {
        *out = t;
    }
    return t;
}

int clock_gettime(clockid_t id, struct timespec * ts) {
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        ts->tv_sec  = fixed_now();
        ts->tv_nsec = 0;
        return 0;
    }
    return (int) syscall(SYS_clock_gettime, id, ts);
}

int gettimeofday(struct timeval * tv, void * tz) {
    (void) tz;
    if (tv) {
        tv->tv_sec  = fixed_now();
        tv->tv_usec = 0;
    }
    return 0;
}
