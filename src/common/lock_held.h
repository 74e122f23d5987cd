/* Lock assertions (issue 16 §2; the idea of Linux's lockdep_assert_held): a function whose name
 * ends in _locked states the lock it needs with WDDM_ASSERT_HELD(&lock). Debug and sanitizer
 * builds check that the calling thread holds it and abort with one line naming the function
 * and the lock; release builds compile the check away. */
#ifndef WDDM_COMMON_LOCK_HELD_H
#define WDDM_COMMON_LOCK_HELD_H

#include <pthread.h>

#if !defined(NDEBUG) && defined(__GLIBC__)
void wddm_assert_held(const pthread_mutex_t *m, const char *lock, const char *func);
#define WDDM_ASSERT_HELD(m) wddm_assert_held((m), #m, __func__)
#else
#define WDDM_ASSERT_HELD(m) ((void)sizeof(m)) /* not evaluated: no call left in release builds */
#endif

#endif
