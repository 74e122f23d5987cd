/*
 * test_lock_held.c - WDDM_ASSERT_HELD (src/common/lock_held.h; issue 16 §2, docs/rules/build.md):
 * in debug and sanitizer builds a _locked function called without its lock aborts with one line;
 * with the lock held by the caller it returns, also after a condition wait gave the lock back.
 * The failing cases run in a child process, whose death by SIGABRT is the expected answer.
 */
/* rule: common.locked-function-states-lock-adapter-lock (held returns, not held / held by another thread abort, held again after a condition wait; mutation-checked: an always-true check fails two tests) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/lock_held.h"

#if !defined(NDEBUG) && defined(__GLIBC__)

/* Runs WDDM_ASSERT_HELD(m) in a child process (a thread that holds nothing); returns the signal
 * that ended it (0 = it returned). */
static int assert_in_child(pthread_mutex_t *m)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
        WDDM_ASSERT_HELD(m);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        return WTERMSIG(status);
    assert_true(WIFEXITED(status));
    return 0;
}

static void held_by_the_caller_returns(void **state)
{
    (void)state;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&m);
    WDDM_ASSERT_HELD(&m); /* returns: an abort here ends the test program */
    pthread_mutex_unlock(&m);
}

static void not_held_aborts(void **state)
{
    (void)state;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    assert_int_equal(assert_in_child(&m), SIGABRT);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    assert_int_equal(assert_in_child(&m), SIGABRT); /* released: not held any more */
}

struct holder {
    pthread_mutex_t m, gate;
    pthread_cond_t cond;
    bool holding, release;
};

static void *hold(void *arg)
{
    struct holder *h = arg;
    pthread_mutex_lock(&h->m);
    pthread_mutex_lock(&h->gate);
    h->holding = true;
    pthread_cond_broadcast(&h->cond);
    while (!h->release)
        pthread_cond_wait(&h->cond, &h->gate);
    pthread_mutex_unlock(&h->gate);
    pthread_mutex_unlock(&h->m);
    return NULL;
}

static void held_by_another_thread_aborts(void **state)
{
    (void)state;
    struct holder h = { .m = PTHREAD_MUTEX_INITIALIZER, .gate = PTHREAD_MUTEX_INITIALIZER,
                        .cond = PTHREAD_COND_INITIALIZER };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, hold, &h), 0);
    pthread_mutex_lock(&h.gate);
    while (!h.holding)
        pthread_cond_wait(&h.cond, &h.gate);
    pthread_mutex_unlock(&h.gate);
    assert_int_equal(assert_in_child(&h.m), SIGABRT);
    pthread_mutex_lock(&h.gate);
    h.release = true;
    pthread_cond_broadcast(&h.cond);
    pthread_mutex_unlock(&h.gate);
    pthread_join(t, NULL);
}

static void held_again_after_a_condition_wait(void **state)
{
    (void)state;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    pthread_mutex_lock(&m);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    (void)pthread_cond_timedwait(&c, &m, &until);
    WDDM_ASSERT_HELD(&m); /* the wait gave the lock back to this thread */
    pthread_mutex_unlock(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(held_by_the_caller_returns),
        cmocka_unit_test(not_held_aborts),
        cmocka_unit_test(held_by_another_thread_aborts),
        cmocka_unit_test(held_again_after_a_condition_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else
int main(void)
{
    return 0; /* release builds compile the check away (lock_held.h) */
}
#endif
