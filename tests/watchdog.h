/* A bound on a test that would otherwise wait for ever when the rule it checks is broken: after
 * `seconds` without watchdog_stop(), the process prints one failure line naming what did not
 * happen and exits 1, so CTest reports a failure instead of a hang. One watchdog at a time. */
#ifndef WDDM_TESTS_WATCHDOG_H
#define WDDM_TESTS_WATCHDOG_H

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done, seconds;
    const char *what;
    pthread_t thread;
} watchdog_state = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, 0 };

static void *watchdog_main(void *arg)
{
    (void)arg;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += watchdog_state.seconds;
    pthread_mutex_lock(&watchdog_state.lock);
    int rc = 0;
    while (!watchdog_state.done && rc == 0)
        rc = pthread_cond_timedwait(&watchdog_state.cond, &watchdog_state.lock, &ts);
    int done = watchdog_state.done;
    pthread_mutex_unlock(&watchdog_state.lock);
    if (!done) {
        fprintf(stdout, "[  FAILED  ] %s: not within %d s\n", watchdog_state.what, watchdog_state.seconds);
        fflush(stdout);
        _exit(1);
    }
    return NULL;
}

static inline int watchdog_start(const char *what, int seconds)
{
    watchdog_state.done = 0;
    watchdog_state.seconds = seconds;
    watchdog_state.what = what;
    return pthread_create(&watchdog_state.thread, NULL, watchdog_main, NULL);
}

static inline void watchdog_stop(void)
{
    pthread_mutex_lock(&watchdog_state.lock);
    watchdog_state.done = 1;
    pthread_cond_signal(&watchdog_state.cond);
    pthread_mutex_unlock(&watchdog_state.lock);
    pthread_join(watchdog_state.thread, NULL);
}

#endif
