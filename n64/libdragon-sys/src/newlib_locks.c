/*
 * newlib 3.3 (Debian's newlib-source) still locks __sinit with
 * __lock___sinit_recursive_mutex, which newlib 4 removed and libdragon's
 * system_newlib_locks.c therefore does not define. Without this definition
 * the linker takes newlib's default lock.o for it, whose other locks clash
 * with libdragon's. It is the same kind of object as libdragon's locks (a
 * kernel mutex, zeroed = unlocked), used through libdragon's
 * __retarget_lock_* functions.
 */
#include <kernel.h>

struct __lock {
    kmutex_t mut;
};

struct __lock __lock___sinit_recursive_mutex;
