/* WDDM_ASSERT_HELD (lock_held.h). The owner is glibc's own field of the mutex: the kernel thread
 * id of the holder, set on every lock (also by a condition wait's re-acquisition) and cleared on
 * every unlock, for every mutex kind. Reading it costs one load, and no lock or unlock call site
 * changes. */
#include "common/lock_held.h"

#if !defined(NDEBUG) && defined(__GLIBC__)
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void wddm_assert_held(const pthread_mutex_t *m, const char *lock, const char *func)
{
    int owner = __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED);
    if (owner == (int)gettid())
        return;
    fprintf(stderr, "wddm: lock rule: %s needs %s held by the calling thread (held by %d)\n", func, lock, owner);
    abort();
}
#endif
