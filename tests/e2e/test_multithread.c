/* ID3D11Multithread / ID3D10Multithread on a D3D11 device (MicrosoftDocs sdk-api d3d11_4
 * ID3D11Multithread: Enter, Leave, SetMultithreadProtected, GetMultithreadProtected; the SDK gives
 * it ID3D10Multithread's IID): one face for both names; protection off by default on a D3D11
 * device; while it is on, a thread inside Enter ... Leave has the immediate context to itself -
 * another thread's call waits until Leave; while it is off, the call runs at once. Runs in both
 * driver models. */
#include "e2e.h"

#include <d3d11_4.h>
#include <d3d10.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <time.h>

struct flusher {
    ID3D11DeviceContext *ctx;
    atomic_int done;
};

static void *flush_thread(void *arg)
{
    struct flusher *f = arg;
    ID3D11DeviceContext_Flush(f->ctx);
    atomic_store(&f->done, 1);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec t = { 0, ms * 1000000L };
    nanosleep(&t, NULL);
}

/* Whether another thread's Flush of the immediate context returned while this one is inside
 * Enter (waiting 50 ms for it), then Leave and join. */
static bool flush_runs_inside_enter(ID3D11Multithread *mt, ID3D11DeviceContext *ctx)
{
    struct flusher f = { .ctx = ctx };
    pthread_t t;
    ID3D11Multithread_Enter(mt);
    assert_int_equal(pthread_create(&t, NULL, flush_thread, &f), 0);
    for (int i = 0; i < 50 && !atomic_load(&f.done); i++)
        sleep_ms(1);
    bool ran = atomic_load(&f.done);
    ID3D11Multithread_Leave(mt);
    pthread_join(t, NULL);
    assert_int_equal(atomic_load(&f.done), 1);
    return ran;
}

/* rule: runtime.multithread-protects-immediate-context */
static void protection_gives_the_immediate_context_to_the_thread_inside_enter(void **state)
{
    struct e2e *e = *state;
    ID3D11Multithread *mt = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_ID3D11Multithread, (void **)&mt), S_OK);
    ID3D10Multithread *mt10 = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_ID3D10Multithread, (void **)&mt10), S_OK);
    assert_ptr_equal(mt10, mt); /* one IID, one face */
    ID3D11Device *back = NULL;
    assert_int_equal(ID3D11Multithread_QueryInterface(mt, &IID_ID3D11Device, (void **)&back), S_OK);
    assert_ptr_equal(back, e->dev);
    SAFE_RELEASE(back);
    assert_false(ID3D11Multithread_GetMultithreadProtected(mt)); /* a D3D11 device: off */
    assert_true(flush_runs_inside_enter(mt, e->ctx));            /* off: nothing waits */
    assert_false(ID3D11Multithread_SetMultithreadProtected(mt, TRUE)); /* the previous value */
    assert_true(ID3D11Multithread_GetMultithreadProtected(mt));
    assert_false(flush_runs_inside_enter(mt, e->ctx)); /* on: the other thread waited for Leave */
    /* Enter nests, and the thread inside it calls the context itself. */
    ID3D11Multithread_Enter(mt);
    ID3D11Multithread_Enter(mt);
    ID3D11DeviceContext_Flush(e->ctx);
    ID3D11Multithread_Leave(mt);
    ID3D11Multithread_Leave(mt);
    assert_true(ID3D11Multithread_SetMultithreadProtected(mt, FALSE));
    SAFE_RELEASE(mt10);
    SAFE_RELEASE(mt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(protection_gives_the_immediate_context_to_the_thread_inside_enter, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
