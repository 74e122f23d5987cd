/* The handle table's own rules (dxgkrnl/handle.c), driven directly through the kernel's
 * private interface: handles are typed and generation-checked (docs/architecture.md "Errors and bad
 * input"), unusable by lookups until published, and a publish that comes after the handle was
 * removed publishes nothing (the lock-free publish of the allocation create path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>

#include "dxgkrnl/objects/objects.h"

static int released;

static void count_release(struct dxgk_object *obj)
{
    (void)obj;
    released++;
}

static void test_batch_insert_is_unpublished_until_publish(void **state)
{
    (void)state;
    released = 0;
    struct dxgk_object a, r;
    dxgk_object_init(&a, DXGK_TYPE_ALLOCATION, count_release);
    dxgk_object_init(&r, DXGK_TYPE_RESOURCE, count_release);
    struct dxgk_object *objs[2] = { &a, &r };
    D3DKMT_HANDLE h[2];
    assert_true(dxgk_handle_insert_n(objs, 2, h));
    assert_int_not_equal(h[0], 0);
    assert_int_not_equal(h[1], 0);
    assert_int_not_equal(h[0], h[1]);
    /* Inserted, not published: D3DKMT lookups miss it, DxgkCbGetHandleData sees it. */
    assert_null(dxgk_handle_get(h[0], DXGK_TYPE_ALLOCATION));
    assert_ptr_equal(dxgk_handle_peek_unpublished(h[0], DXGK_TYPE_ALLOCATION), &a);
    assert_ptr_equal(dxgk_handle_peek_unpublished(h[1], DXGK_TYPE_RESOURCE), &r);
    /* Typed: the wrong type never matches, published or not. */
    assert_null(dxgk_handle_peek_unpublished(h[0], DXGK_TYPE_RESOURCE));
    dxgk_handle_publish(h[0]);
    dxgk_handle_publish(h[1]);
    struct dxgk_object *got = dxgk_handle_get(h[0], DXGK_TYPE_ALLOCATION);
    assert_ptr_equal(got, &a);
    dxgk_object_put(got);
    assert_null(dxgk_handle_get(h[1], DXGK_TYPE_ALLOCATION));
    /* Removal hands the handle's reference back; the handle is dead for every lookup. */
    dxgk_object_put(dxgk_handle_remove(h[0], DXGK_TYPE_ALLOCATION));
    dxgk_object_put(dxgk_handle_remove(h[1], DXGK_TYPE_RESOURCE));
    assert_int_equal(released, 2);
    assert_null(dxgk_handle_get(h[0], DXGK_TYPE_ALLOCATION));
    assert_null(dxgk_handle_peek_unpublished(h[0], DXGK_TYPE_ALLOCATION));
    assert_null(dxgk_handle_remove(h[1], DXGK_TYPE_RESOURCE));
}

static void test_publish_after_remove_publishes_nothing(void **state)
{
    (void)state;
    released = 0;
    struct dxgk_object a, b;
    dxgk_object_init(&a, DXGK_TYPE_ALLOCATION, count_release);
    dxgk_object_init(&b, DXGK_TYPE_ALLOCATION, count_release);
    D3DKMT_HANDLE ha = dxgk_handle_insert(&a);
    assert_int_not_equal(ha, 0);
    /* Removed before its creator published it (a device destroyed meanwhile). */
    dxgk_object_put(dxgk_handle_remove(ha, DXGK_TYPE_ALLOCATION));
    dxgk_handle_publish(ha);
    assert_null(dxgk_handle_get(ha, DXGK_TYPE_ALLOCATION));
    assert_null(dxgk_handle_peek_unpublished(ha, DXGK_TYPE_ALLOCATION));
    /* A later object is not published by the stale publish either. */
    D3DKMT_HANDLE hb = dxgk_handle_insert(&b);
    assert_int_not_equal(hb, 0);
    assert_int_not_equal(hb, ha);
    dxgk_handle_publish(ha);
    assert_null(dxgk_handle_get(hb, DXGK_TYPE_ALLOCATION));
    dxgk_handle_publish(hb);
    struct dxgk_object *got = dxgk_handle_get(hb, DXGK_TYPE_ALLOCATION);
    assert_ptr_equal(got, &b);
    dxgk_object_put(got);
    dxgk_object_put(dxgk_handle_remove(hb, DXGK_TYPE_ALLOCATION));
    assert_int_equal(released, 2);
    dxgk_handle_table_fini();
}

static void test_forged_handles_miss_without_a_table(void **state)
{
    (void)state;
    /* Index 0, an index beyond every chunk, a type that does not exist. */
    assert_null(dxgk_handle_peek_unpublished(0x40000000u, DXGK_TYPE_ALLOCATION));
    assert_null(dxgk_handle_peek_unpublished(0x4003ffffu, DXGK_TYPE_ALLOCATION));
    assert_null(dxgk_handle_get(0xf0000001u, DXGK_TYPE_ALLOCATION));
    dxgk_handle_publish(0x4003ffffu); /* no chunk there: nothing happens */
}

/* Several threads insert, publish, look up (locked and lock-free) and remove at once; with
 * ThreadSanitizer this checks the lock-free publish and DxgkCbGetHandleData lookups. Each
 * thread also probes the handles of the others, which may be removed under it. */
#define STRESS_THREADS 3
#define STRESS_ROUNDS 2000
static _Atomic D3DKMT_HANDLE last_handle[STRESS_THREADS];

static void noop_release(struct dxgk_object *obj)
{
    (void)obj;
}

static void *hammer_thread(void *arg)
{
    UINT id = (UINT)(uintptr_t)arg;
    struct dxgk_object objs[2];
    for (UINT round = 0; round < STRESS_ROUNDS; round++) {
        dxgk_object_init(&objs[0], DXGK_TYPE_ALLOCATION, noop_release);
        dxgk_object_init(&objs[1], DXGK_TYPE_RESOURCE, noop_release);
        struct dxgk_object *list[2] = { &objs[0], &objs[1] };
        D3DKMT_HANDLE h[2];
        if (!dxgk_handle_insert_n(list, 2, h))
            return (void *)1;
        if (dxgk_handle_peek_unpublished(h[0], DXGK_TYPE_ALLOCATION) != &objs[0])
            return (void *)2;
        atomic_store(&last_handle[id], h[0]);
        dxgk_handle_publish(h[0]);
        dxgk_handle_publish(h[1]);
        for (UINT o = 0; o < STRESS_THREADS; o++) {
            D3DKMT_HANDLE other = atomic_load(&last_handle[o]);
            (void)dxgk_handle_peek_unpublished(other, DXGK_TYPE_ALLOCATION);
            if (o == id) {
                struct dxgk_object *got = dxgk_handle_get(other, DXGK_TYPE_ALLOCATION);
                if (got != &objs[0])
                    return (void *)3;
                dxgk_object_put(got);
            }
        }
        if (dxgk_handle_remove(h[0], DXGK_TYPE_ALLOCATION) != &objs[0] ||
            dxgk_handle_remove(h[1], DXGK_TYPE_RESOURCE) != &objs[1])
            return (void *)4;
        dxgk_handle_publish(h[0]); /* late: must publish nothing */
    }
    return NULL;
}

static void test_concurrent_insert_publish_remove(void **state)
{
    (void)state;
    pthread_t t[STRESS_THREADS];
    for (UINT i = 0; i < STRESS_THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hammer_thread, (void *)(uintptr_t)i), 0);
    for (UINT i = 0; i < STRESS_THREADS; i++) {
        void *ret = (void *)-1;
        assert_int_equal(pthread_join(t[i], &ret), 0);
        assert_null(ret);
    }
    dxgk_handle_table_fini();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_insert_is_unpublished_until_publish),
        cmocka_unit_test(test_publish_after_remove_publishes_nothing),
        cmocka_unit_test(test_forged_handles_miss_without_a_table),
        cmocka_unit_test(test_concurrent_insert_publish_remove),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
