/* The upload ring of the reference UMD (src/umd/ring.c; docs/rules/umd.md): a small DYNAMIC
 * buffer is a slice of a chunk allocation the UMD locked once; Map(WRITE_DISCARD) takes the next
 * slice with no kernel call while the commands already queued keep reading the last one
 * (docs/semantics.md §3.3: the ID3D11DeviceContext::Map reference's D3D11_MAP_WRITE_DISCARD,
 * "the previous contents of the resource will be undefined" for the CPU while the GPU still
 * reads them); Map(WRITE_NOOVERWRITE) returns the current slice; a full chunk submits the open
 * buffer and the ring moves to the oldest chunk no buffer lives in once the GPU is done with it
 * (a DonotWait lock asks), makes a new one while it is busy, and waits at UMD_RING_CHUNKS. The
 * fake runtime executes each submitted buffer in order against its memory; `busy` makes every
 * DonotWait lock answer WASSTILLDRAWING. */
#include "umd/umd_fake.h"
#include "umd/umd.h"

static struct fake *setup_ring(void)
{
    struct fake *f = fake_new_sized(64 * 1024, 64, 64);
    f->dyn_ring = 1;
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    return f;
}

/* The ring's chunks: device allocations (no hResource) of upload kind. */
static int is_chunk(const struct fake_alloc *x)
{
    return x->live && !x->hResource && x->priv.kind == SWGPU_ALLOC_UPLOAD && x->size == UMD_RING_CHUNK_BYTES;
}

static int chunk_count(struct fake *f) { return fake_count_allocs(f, is_chunk); }

/* The chunk whose memory holds p, or NULL. */
static struct fake_alloc *chunk_holding(struct fake *f, const BYTE *p)
{
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        if (is_chunk(&f->allocs[i]) && p >= f->allocs[i].mem && p < f->allocs[i].mem + f->allocs[i].size)
            return &f->allocs[i];
    return NULL;
}

static BYTE *map(struct fake *f, struct fake_res *r, D3D10_DDI_MAP type, UINT flags)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnResourceMap(f->hDevice, r->h, 0, type, flags, &m);
    if (m.pData)
        f->df.pfnResourceUnmap(f->hDevice, r->h, 0);
    return m.pData;
}

/* Discard, fill with `tag`, and copy the bytes into dst at dst_off with a queued GPU copy. */
static BYTE *upload(struct fake *f, struct fake_res *dyn, UINT bytes, BYTE tag, struct fake_res *dst, UINT dst_off)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnResourceMap(f->hDevice, dyn->h, 0, D3D10_DDI_MAP_WRITE_DISCARD, 0, &m);
    assert_non_null(m.pData);
    memset(m.pData, tag, bytes);
    f->df.pfnResourceUnmap(f->hDevice, dyn->h, 0);
    if (dst) {
        D3D10_DDI_BOX box = { 0, 0, 0, bytes, 1, 1 };
        f->df.pfnResourceCopyRegion(f->hDevice, dst->h, 0, dst_off, 0, 0, dyn->h, 0, &box);
    }
    return m.pData;
}

static void expect_bytes(struct fake *f, struct fake_res *r, UINT off, UINT bytes, BYTE tag)
{
    const BYTE *p = fake_mem(f, r)->mem + off;
    for (UINT i = 0; i < bytes; i++)
        if (p[i] != tag)
            fail_msg("byte %u of the range at %u is 0x%02x, want 0x%02x", i, off, p[i], tag);
}

/* One chunk, locked once; three discards are three slices one after the other, with no lock;
 * each queued copy reads the bytes of the slice that was current when it was recorded. */
/* rule: umd.dynamic-buffer-most-64-kib-256 */
/* rule: umd.map-takes-next-slice-no-kernel */
static void test_discard_takes_the_next_slice_without_a_kernel_call(void **state)
{
    (void)state;
    struct fake *f = setup_ring();
    BYTE init[4096];
    memset(init, 0x11, sizeof init);
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 4096, D3D10_DDI_CPU_ACCESS_WRITE, init);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 4 * 4096, 0, NULL);
    assert_false(fake_has_own_allocation(f, dyn));
    assert_int_equal(chunk_count(f), 1);
    D3D10_DDI_BOX box = { 0, 0, 0, 4096, 1, 1 }; /* the initial data, by a copy queued first */
    f->df.pfnResourceCopyRegion(f->hDevice, dst->h, 0, 0, 0, 0, dyn->h, 0, &box);
    int locks = f->lock_calls, renders = f->render_calls;
    assert_int_equal(f->locked, 1); /* the chunk's one lock, kept */

    BYTE *p[3];
    for (int i = 0; i < 3; i++)
        p[i] = upload(f, dyn, 4096, (BYTE)(0x20 + i), dst, (UINT)(i + 1) * 4096u);
    assert_int_equal(f->lock_calls, locks);
    assert_int_equal(f->unlock_calls, 0);
    assert_int_equal(f->render_calls, renders); /* nothing submitted yet */
    struct fake_alloc *c = chunk_holding(f, p[0]);
    assert_non_null(c);
    for (int i = 0; i < 3; i++) {
        assert_ptr_equal(chunk_holding(f, p[i]), c);
        assert_int_equal(p[i] - c->mem, (i + 1) * 4096); /* slice 0 holds the initial data */
    }
    /* WRITE_NOOVERWRITE: the current slice, its bytes kept. */
    BYTE *q = map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0);
    assert_ptr_equal(q, p[2]);
    assert_int_equal(q[100], 0x22);
    fake_flush(f);
    expect_bytes(f, dst, 0, 4096, 0x11);
    for (int i = 0; i < 3; i++)
        expect_bytes(f, dst, (UINT)(i + 1) * 4096u, 4096, (BYTE)(0x20 + i));
    assert_int_equal(f->lock_calls, locks);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* A full chunk submits the open buffer; with the GPU done, the ring goes back to the oldest chunk
 * no buffer lives in (one DonotWait lock asks VidMm) instead of making another. */
/* rule: umd.full-chunk-submits-open-command-buffer */
static void test_a_full_chunk_submits_and_the_oldest_idle_chunk_is_reused(void **state)
{
    (void)state;
    struct fake *f = setup_ring();
    const UINT bytes = 64 * 1024, per_chunk = UMD_RING_CHUNK_BYTES / bytes;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, bytes, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, bytes, 0, NULL);
    BYTE *first = map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0);
    struct fake_alloc *c1 = chunk_holding(f, first);
    /* The rest of chunk 1. */
    for (UINT i = 1; i < per_chunk; i++)
        assert_ptr_equal(chunk_holding(f, upload(f, dyn, bytes, (BYTE)i, dst, 0)), c1);
    int renders = f->render_calls, locks = f->lock_calls;
    /* Chunk 1 is full and still holds dyn's slice: a second chunk, after a submission. */
    BYTE *p = upload(f, dyn, bytes, 0x40, dst, 0);
    assert_int_equal(f->render_calls, renders + 1);
    struct fake_alloc *c2 = chunk_holding(f, p);
    assert_non_null(c2);
    assert_ptr_not_equal(c2, c1);
    assert_int_equal(chunk_count(f), 2);
    assert_int_equal(f->lock_calls, locks + 1); /* the new chunk's lock */
    for (UINT i = 1; i < per_chunk; i++)
        assert_ptr_equal(chunk_holding(f, upload(f, dyn, bytes, (BYTE)(0x40 + i), dst, 0)), c2);
    /* Chunk 2 full: chunk 1 holds no buffer now, and a DonotWait lock finds it idle. */
    locks = f->lock_calls;
    int unlocks = f->unlock_calls;
    p = upload(f, dyn, bytes, 0x7e, dst, 0);
    assert_ptr_equal(p, c1->mem);
    assert_int_equal(chunk_count(f), 2);
    assert_int_equal(f->lock_calls, locks + 1);
    assert_true(f->lock_log[locks].DonotWait);
    assert_int_equal(f->unlock_calls, unlocks + 1); /* the probe's lock given back, the chunk's kept */
    fake_flush(f);
    expect_bytes(f, dst, 0, bytes, 0x7e);
    fake_res_destroy(f, dyn);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* While the GPU still uses every chunk: a new chunk per full one up to UMD_RING_CHUNKS, then the
 * CPU waits for the oldest (a lock without DonotWait); with DONOTWAIT the map answers
 * WASSTILLDRAWING instead and the buffer keeps its slice. */
/* rule: umd.full-chunk-submits-open-command-buffer (mutated: no idle check; no submission) */
static void test_busy_chunks_grow_the_ring_to_its_bound_then_the_cpu_waits(void **state)
{
    (void)state;
    struct fake *f = setup_ring();
    const UINT bytes = 64 * 1024, per_chunk = UMD_RING_CHUNK_BYTES / bytes;
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, bytes, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    BYTE *oldest = map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0);
    f->busy = 1;
    for (UINT i = 1; i < per_chunk * UMD_RING_CHUNKS; i++)
        (void)upload(f, dyn, bytes, (BYTE)i, NULL, 0);
    assert_int_equal(chunk_count(f), UMD_RING_CHUNKS);
    assert_int_equal(f->n_errors, 0);

    /* At the bound, DONOTWAIT: still drawing, nothing made, the slice kept. */
    BYTE *last = map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0);
    assert_null(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, D3D10_DDI_MAP_FLAG_DONOTWAIT));
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_WASSTILLDRAWING);
    assert_int_equal(chunk_count(f), UMD_RING_CHUNKS);
    assert_ptr_equal(map(f, dyn, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0), last);

    /* Without it, the CPU waits for the oldest chunk and takes it. */
    int locks = f->lock_calls;
    BYTE *p = map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0);
    assert_ptr_equal(p, oldest);
    assert_int_equal(chunk_count(f), UMD_RING_CHUNKS);
    assert_false(f->lock_log[f->lock_calls - 1].DonotWait);
    assert_true(f->lock_calls > locks);
    assert_int_equal(f->n_errors, 1);
    fake_res_destroy(f, dyn);
    fake_teardown(f);
}

/* A buffer that is never discarded keeps its bytes and its chunk: the ring goes round without
 * it, and past the bound when every chunk holds such a buffer. */
/* rule: umd.buffer-never-discarded-keeps-bytes-chunk */
static void test_a_buffer_never_discarded_keeps_its_chunk_and_bytes(void **state)
{
    (void)state;
    struct fake *f = setup_ring();
    const UINT bytes = 64 * 1024, per_chunk = UMD_RING_CHUNK_BYTES / bytes;
    BYTE init[256];
    memset(init, 0x5c, sizeof init);
    struct fake_res *keep = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, sizeof init, D3D10_DDI_CPU_ACCESS_WRITE, init);
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, bytes, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    struct fake_res *dst = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, sizeof init, 0, NULL);
    struct fake_alloc *home = chunk_holding(f, map(f, keep, D3D10_DDI_MAP_WRITE_NOOVERWRITE, 0));
    /* The stream fills the rest of keep's chunk, then never comes back to it. */
    int left_home = 0;
    for (UINT i = 0; i < 4 * per_chunk; i++) {
        struct fake_alloc *c = chunk_holding(f, upload(f, dyn, bytes, (BYTE)i, NULL, 0));
        if (left_home)
            assert_ptr_not_equal(c, home);
        left_home |= c != home;
    }
    assert_int_equal(chunk_count(f), 3); /* keep's, and two the stream alternates between */
    f->df.pfnResourceCopy(f->hDevice, dst->h, keep->h);
    fake_flush(f);
    expect_bytes(f, dst, 0, sizeof init, 0x5c);

    /* Every chunk at the bound holds a kept buffer: the next one is made past it. */
    fake_res_destroy(f, dyn);
    struct fake_res *kept[UMD_RING_CHUNKS + 1];
    for (UINT i = 0; i <= UMD_RING_CHUNKS; i++) {
        kept[i] = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, bytes, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
        for (UINT j = 1; j < per_chunk; j++) /* fill the rest of its chunk with a throw-away */
            fake_res_destroy(f, fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, bytes, D3D10_DDI_CPU_ACCESS_WRITE, NULL));
    }
    assert_int_equal(f->n_errors, 0);
    assert_true(chunk_count(f) > (int)UMD_RING_CHUNKS);
    for (UINT i = 0; i <= UMD_RING_CHUNKS; i++)
        fake_res_destroy(f, kept[i]);
    fake_res_destroy(f, keep);
    fake_res_destroy(f, dst);
    fake_teardown(f);
}

/* DestroyDevice unlocks every chunk and frees it. */
/* rule: umd.buffer-never-discarded-keeps-bytes-chunk */
static void test_destroy_device_unlocks_and_frees_the_chunks(void **state)
{
    (void)state;
    struct fake *f = setup_ring();
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 64 * 1024, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    for (UINT i = 0; i < 40; i++)
        (void)upload(f, dyn, 64 * 1024, (BYTE)i, NULL, 0);
    assert_true(chunk_count(f) >= 2);
    fake_res_destroy(f, dyn);
    f->df.pfnDestroyDevice(f->hDevice);
    free(f->device_mem);
    f->device_mem = NULL;
    assert_int_equal(f->locked, 0);
    assert_int_equal(chunk_count(f), 0);
    fake_teardown(f);
}

/* WDDM_UMD_RING=0 (the other tests' setting): the DYNAMIC buffer has its own allocation and a
 * discard locks it with Discard, as before the ring. */
/* rule: umd.dynamic-buffer-most-64-kib-256 */
static void test_ring_off_gives_a_dynamic_buffer_its_own_allocation(void **state)
{
    (void)state;
    struct fake *f = fake_setup();
    struct fake_res *dyn = fake_buffer(f, D3D10_DDI_USAGE_DYNAMIC, 4096, D3D10_DDI_CPU_ACCESS_WRITE, NULL);
    assert_true(fake_has_own_allocation(f, dyn));
    int locks = f->lock_calls;
    assert_non_null(map(f, dyn, D3D10_DDI_MAP_WRITE_DISCARD, 0));
    assert_int_equal(f->lock_calls, locks + 1);
    assert_true(f->lock_log[locks].Discard);
    assert_int_equal(chunk_count(f), 0);
    fake_res_destroy(f, dyn);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_discard_takes_the_next_slice_without_a_kernel_call),
        cmocka_unit_test(test_a_full_chunk_submits_and_the_oldest_idle_chunk_is_reused),
        cmocka_unit_test(test_busy_chunks_grow_the_ring_to_its_bound_then_the_cpu_waits),
        cmocka_unit_test(test_a_buffer_never_discarded_keeps_its_chunk_and_bytes),
        cmocka_unit_test(test_destroy_device_unlocks_and_frees_the_chunks),
        cmocka_unit_test(test_ring_off_gives_a_dynamic_buffer_its_own_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
