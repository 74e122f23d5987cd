/* Buffer suballocation of the reference UMD (src/umd/suballoc.c; docs/rules/umd.md): small
 * DEFAULT buffers take slots of pooled chunk allocations, every address of one is its chunk's at
 * its slot, a freed slot is reused at once behind the work already queued, and chunks come and
 * go with pfnAllocateCb / pfnDeallocateCb. The fake runtime executes each submitted buffer in
 * order against its memory, as the KMD and the GPU would after patching. */
/* rule: umd.wddm-umd-suballoc-0-gives-every (they fail with the pools on: their resources would have no allocation of their own) */
#include "umd/umd_fake.h"
#include "umd/umd.h"

static struct fake *setup_pooled(void)
{
    struct fake *f = fake_new_sized(64 * 1024, 64, 64);
    f->suballoc = 1;
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    return f;
}

/* The fake allocations of the pools: device allocations (no hResource) of GPU-only kind. */
static int is_chunk(const struct fake_alloc *x)
{
    return x->live && !x->hResource && x->priv.kind == SWGPU_ALLOC_GPU_ONLY;
}

static int chunk_count(struct fake *f) { return fake_count_allocs(f, is_chunk); }

static struct fake_alloc *only_chunk(struct fake *f)
{
    assert_int_equal(chunk_count(f), 1);
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        if (is_chunk(&f->allocs[i]))
            return &f->allocs[i];
    return NULL;
}

/* The bytes of a buffer as the GPU sees them: copied into a STAGING buffer, flushed. */
static void read_back(struct fake *f, struct fake_res *src, UINT bytes, BYTE *out)
{
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_STAGING, bytes, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->df.pfnResourceCopy(f->hDevice, s->h, src->h);
    fake_flush(f);
    memcpy(out, fake_mem(f, s)->mem, bytes);
    fake_res_destroy(f, s);
}

/* 16 buffers of 4 KiB share one 64 KiB chunk, each at its own slot; a command buffer naming all
 * of them lists the chunk once (one allocation-list entry, one patch per address field). */
/* rule: umd.default-buffers-most-64-kib-no (mutation-checked: a wanted test that ignores usage/CPU access fails) */
/* rule: umd.every-address-pooled-buffer-names-chunk */
static void test_small_default_buffers_share_one_allocation_at_their_slot_offsets(void **state)
{
    struct fake *f = setup_pooled();
    struct fake_res *b[17];
    for (int i = 0; i < 16; i++) {
        b[i] = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, NULL);
        assert_false(fake_has_own_allocation(f, b[i]));
    }
    assert_int_equal(f->allocate_calls, 1);
    struct fake_alloc *c = only_chunk(f);
    assert_int_equal(c->size, 64 * 1024);
    assert_int_equal(c->priv.usage, D3D10_DDI_USAGE_DEFAULT);
    /* Bytes 4..11 of buffer i := a tag naming i: 16 WRITEs in one command buffer. */
    for (int i = 0; i < 16; i++) {
        BYTE tag[8];
        memset(tag, 0x10 + i, sizeof tag);
        D3D10_DDI_BOX box = { 4, 0, 0, 12, 1, 1 };
        f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b[i]->h, 0, &box, tag, 0, 0);
    }
    fake_flush(f);
    assert_int_equal(f->last_num_allocs, 1);
    assert_int_equal(f->last_alist[0].WriteOperation, 1);
    assert_int_equal(f->last_num_patches, 16);
    BYTE seen[16] = { 0 };
    for (int i = 0; i < 16; i++) {
        BYTE v = c->mem[i * 4096 + 4]; /* slot i: one buffer's tag, nothing else */
        assert_true(v >= 0x10 && v < 0x20);
        for (int k = 0; k < 4096; k++)
            assert_int_equal(c->mem[i * 4096 + k], k >= 4 && k < 12 ? v : 0);
        seen[v - 0x10]++;
    }
    for (int i = 0; i < 16; i++)
        assert_int_equal(seen[i], 1);
    /* The 17th needs a second chunk; its bytes, and the first ones', are its own. */
    BYTE data[4096], got[4096];
    memset(data, 0x7f, sizeof data);
    b[16] = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, data);
    assert_int_equal(f->allocate_calls, 2);
    assert_int_equal(chunk_count(f), 2);
    read_back(f, b[16], sizeof got, got);
    assert_memory_equal(got, data, sizeof got);
    read_back(f, b[3], sizeof got, got);
    assert_int_equal(got[4], 0x13);
    assert_int_equal(got[12], 0);
    for (int i = 0; i < 17; i++)
        fake_res_destroy(f, b[i]);
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

/* Only DEFAULT buffers of at most 64 KiB with no CPU access that are not shared are pooled:
 * nothing else may be touched by the CPU or another device behind the device's context. */
/* rule: umd.default-buffers-most-64-kib-no (11 cases) */
static void test_only_small_gpu_only_unshared_default_buffers_are_pooled(void **state)
{
    static const struct {
        UINT dim, usage, bytes, cpu, misc;
        int pooled;
    } cases[] = {
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, 16, 0, 0, 1 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, 4096, 0, 0, 1 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, UMD_SUBALLOC_MAX_BYTES, 0, 0, 1 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, 4096, 0, D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED, 1 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, 4096, 0, D3D11_DDI_RESOURCE_MISC_DRAWINDIRECT_ARGS, 1 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, UMD_SUBALLOC_MAX_BYTES + 1, 0, 0, 0 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, 4096, 0, D3D10_DDI_RESOURCE_MISC_SHARED, 0 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_IMMUTABLE, 4096, 0, 0, 0 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DYNAMIC, 4096, D3D10_DDI_CPU_ACCESS_WRITE, 0, 0 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_STAGING, 4096, D3D10_DDI_CPU_ACCESS_READ, 0, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, 16, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fake *f = setup_pooled();
        BYTE init[64] = { 1 }; /* a 16x1 RGBA8 row */
        BOOL tex = cases[i].dim == D3D10DDIRESOURCE_TEXTURE2D;
        struct fake_res *r = fake_res_new(cases[i].dim, cases[i].usage, tex ? DXGI_FORMAT_R8G8B8A8_UNORM : DXGI_FORMAT_UNKNOWN,
                                          cases[i].bytes, 1, 1, 1, 1, cases[i].cpu);
        r->args.MiscFlags = cases[i].misc;
        D3D10_DDIARG_SUBRESOURCE_UP up = { init, 64, 64 };
        static BYTE big[UMD_SUBALLOC_MAX_BYTES + 1];
        if (!tex)
            up = (D3D10_DDIARG_SUBRESOURCE_UP){ big, cases[i].bytes, cases[i].bytes };
        assert_true(fake_res_create(f, r, &up));
        if (fake_has_own_allocation(f, r) == cases[i].pooled || chunk_count(f) != cases[i].pooled)
            fail_msg("case %zu: pooled should be %d", i, cases[i].pooled);
        fake_res_destroy(f, r);
        fake_teardown(f);
    }
}

/* A freed slot is reused at once, with no wait: the commands that still read the old buffer
 * were queued first and the device's one context runs them first, so they read its bytes and
 * the new buffer's initial data lands after them. */
/* rule: umd.freed-slot-reused-once-no-wait */
static void test_a_freed_slot_is_reused_at_once_behind_the_work_queued_on_it(void **state)
{
    struct fake *f = setup_pooled();
    BYTE x[4096], y[4096];
    memset(x, 0xaa, sizeof x);
    memset(y, 0x55, sizeof y);
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, x);
    struct fake_res *s1 = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 4096, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->df.pfnResourceCopy(f->hDevice, s1->h, a->h); /* queued, not submitted */
    int renders = f->render_calls;
    fake_res_destroy(f, a);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, y);
    assert_int_equal(f->render_calls, renders); /* neither the free nor the reuse submitted */
    assert_int_equal(f->allocate_calls, 2);     /* the chunk and the staging buffer */
    struct fake_alloc *c = only_chunk(f);
    struct fake_res *s2 = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 4096, D3D10_DDI_CPU_ACCESS_READ, NULL);
    f->df.pfnResourceCopy(f->hDevice, s2->h, b->h);
    fake_flush(f);
    assert_memory_equal(fake_mem(f, s1)->mem, x, sizeof x);
    assert_memory_equal(fake_mem(f, s2)->mem, y, sizeof y);
    assert_memory_equal(c->mem, y, sizeof y); /* b took a's slot, the first */
    fake_res_destroy(f, b);
    fake_res_destroy(f, s1);
    fake_res_destroy(f, s2);
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

/* A copy between two buffers of one chunk names the chunk once, written, and moves the bytes
 * between the two slots. */
/* rule: umd.every-address-pooled-buffer-names-chunk */
static void test_a_copy_between_two_buffers_of_one_chunk_lists_the_chunk_once_as_written(void **state)
{
    struct fake *f = setup_pooled();
    BYTE x[1024], got[1024];
    for (size_t i = 0; i < sizeof x; i++)
        x[i] = (BYTE)(i * 7u + 1u);
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 1024, 0, x);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 1024, 0, NULL);
    fake_flush(f);
    f->df.pfnResourceCopy(f->hDevice, b->h, a->h);
    fake_flush(f);
    assert_int_equal(f->last_num_allocs, 1);
    assert_int_equal(f->last_alist[0].WriteOperation, 1);
    read_back(f, b, sizeof got, got);
    assert_memory_equal(got, x, sizeof x);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

/* A chunk whose last buffer is destroyed stays while it is its class's only empty chunk (a
 * create/destroy loop never calls the runtime); a second empty chunk of the class is freed. */
/* rule: umd.chunk-kept-while-class-only-empty */
static void test_one_empty_chunk_is_kept_per_class_and_a_second_is_freed(void **state)
{
    struct fake *f = setup_pooled();
    struct fake_res *b[32];
    for (int i = 0; i < 32; i++)
        b[i] = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, NULL);
    assert_int_equal(chunk_count(f), 2);
    for (int i = 0; i < 32; i++)
        fake_res_destroy(f, b[i]);
    assert_int_equal(f->deallocate_calls, 1);
    assert_int_equal(chunk_count(f), 1);
    int allocs = f->allocate_calls;
    for (int i = 0; i < 100; i++)
        fake_res_destroy(f, fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, NULL));
    assert_int_equal(f->allocate_calls, allocs);
    assert_int_equal(f->deallocate_calls, 1);
    /* Another class has its own chunks. */
    struct fake_res *small = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 256, 0, NULL);
    assert_int_equal(chunk_count(f), 2);
    fake_res_destroy(f, small);
    assert_int_equal(chunk_count(f), 2);
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

/* DestroyDevice frees every chunk, the kept empty ones included. */
/* rule: umd.chunk-kept-while-class-only-empty (mutation-checked both ways: always freeing, never freeing; no fini) */
static void test_destroy_device_frees_every_chunk(void **state)
{
    struct fake *f = setup_pooled();
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 300, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 40000, 0, NULL);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    assert_int_equal(chunk_count(f), 2);
    f->df.pfnDestroyDevice(f->hDevice);
    assert_int_equal(f->live_allocs, 0);
    free(f->device_mem);
    f->device_mem = NULL;
    fake_teardown(f);
}

/* No chunk can be allocated: the create fails with E_OUTOFMEMORY through pfnSetErrorCb and
 * leaves nothing; the buffers already in the pool keep their bytes, and the pool works again. */
/* rule: umd.chunk-cannot-allocated-fails */
static void test_a_chunk_that_cannot_be_allocated_fails_only_that_create(void **state)
{
    struct fake *f = setup_pooled();
    struct fake_res *b[16];
    BYTE data[16][4096], got[4096];
    for (int i = 0; i < 16; i++) {
        memset(data[i], i + 1, sizeof data[i]);
        b[i] = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, data[i]);
    }
    f->allocate_result = E_OUTOFMEMORY;
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_UNKNOWN, 4096, 1,
                                      1, 1, 1, 0);
    assert_false(fake_res_create(f, r, NULL));
    assert_int_equal(f->errors[f->n_errors - 1], E_OUTOFMEMORY);
    free(r->h.pDrvPrivate);
    free(r);
    f->allocate_result = S_OK;
    f->n_errors = 0;
    assert_int_equal(chunk_count(f), 1);
    for (int i = 0; i < 16; i++) {
        read_back(f, b[i], sizeof got, got);
        assert_memory_equal(got, data[i], sizeof got);
    }
    struct fake_res *again = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4096, 0, NULL);
    assert_int_equal(chunk_count(f), 2);
    fake_res_destroy(f, again);
    for (int i = 0; i < 16; i++)
        fake_res_destroy(f, b[i]);
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_default_buffers_share_one_allocation_at_their_slot_offsets),
        cmocka_unit_test(test_only_small_gpu_only_unshared_default_buffers_are_pooled),
        cmocka_unit_test(test_a_freed_slot_is_reused_at_once_behind_the_work_queued_on_it),
        cmocka_unit_test(test_a_copy_between_two_buffers_of_one_chunk_lists_the_chunk_once_as_written),
        cmocka_unit_test(test_one_empty_chunk_is_kept_per_class_and_a_second_is_freed),
        cmocka_unit_test(test_destroy_device_frees_every_chunk),
        cmocka_unit_test(test_a_chunk_that_cannot_be_allocated_fails_only_that_create),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
