#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
/* prctl(2) is a C variadic, which Swift cannot call: these wrappers fix its arguments. */
#include <sys/prctl.h>
#include <sys/resource.h>

/* 0: no core dump, /proc/PID/{environ,mem,maps,…} and ptrace for root only; 1: the default. */
static inline int trackwatch_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int trackwatch_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

/* RLIMIT_CORE soft and hard: 0 forbids core files for good, also in children. */
static inline int trackwatch_forbid_core_files(void) {
    struct rlimit none = { 0, 0 };
    return setrlimit(RLIMIT_CORE, &none);
}
#endif
