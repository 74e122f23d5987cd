/* Bounded submission (issue 14 §4; the depth and the waiting rule are our choice,
 * docs/rules/sched.md: a submission waits for the GPU when its context's DMA buffers are all in use). Through
 * the whole stack: an application that creates and releases resources with initial data in a
 * loop, or submits copies faster than a slowed GPU retires them, keeps the process's heap
 * bounded: the kernel's per-context packet pool stops at GSCHED_CONTEXT_QUEUE_DEPTH (sched/queue.c)
 * and the submitter waits instead; every byte still lands where the API said.
 *
 * Memory is read from the allocator that is in use (glibc's mallinfo2 in a plain build, the
 * sanitizer allocator's own count under ASan/TSan, where mallinfo2 says nothing) after a
 * warm-up; the bound is far below what one unbounded pool costs (before the bound, 20,000
 * textures grew the heap by ~2 GB, about 111 KB per iteration, the copy loop by one 64 KiB DMA
 * buffer per copy). No timing is asserted. */
/* rule: sched.gpummu-packets-carry-no-dma-buffer (GpuMmu model: growth < 28 MiB in every build) */
#include "e2e/e2e.h"

#include <malloc.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HEAP_FROM_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HEAP_FROM_SANITIZER 1
#endif
#endif
#ifdef HEAP_FROM_SANITIZER
/* The sanitizer runtime's own count of bytes allocated and not freed (its public interface,
 * sanitizer/allocator_interface.h, which not every toolchain installs). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* Heap growth allowed: one context queue of packets (GSCHED_CONTEXT_QUEUE_DEPTH of them), the
 * paging buffers (VIDMM_PAGING_QUEUE_DEPTH) and the UMD's and VidMm's pools, which fill while
 * the GPU lags (the copy loop's first COPY_WARMUP copies: the GPU slowed down so the queue
 * reaches its depth). Measured in the plain, ASan and TSan builds: the create loop grows by
 * 10-14 MiB (WDDM 1.x) and 10-16 MiB (GpuMmu); without the context bound by 1.6-1.9 GB in
 * WDDM 1.x and 27-29 MiB in GpuMmu (whose packets are small: dxgkrnl.test_submission_queues
 * proves that bound there exactly). The copy loop then grows by nothing but heap slack (without
 * the bound: one packet per copy in WDDM 1.x; in the GpuMmu model it does not grow even without
 * it: its UMD waits for its own ring of command-buffer slots). */
enum { ITERATIONS = 20000, WARMUP = 200, CREATE_GROWTH_BOUND = 28u << 20, GROWTH_BOUND = 8u << 20,
       COPY_BYTES = 64 * 1024, COPIES = 1500, COPY_WARMUP = 300 };
#define COPY_BANDWIDTH (256ull << 20)

static size_t heap_in_use(void)
{
#ifdef HEAP_FROM_SANITIZER
    return __sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#endif
}

/* Copies `res` (a DEFAULT resource of `bytes` bytes, one subresource) to a fresh staging twin
 * and compares it with `expect`. */
static void check_buffer(struct e2e *e, ID3D11Buffer *res, const void *expect, UINT bytes)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = bytes, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    ID3D11Buffer *stg = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)res);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, expect, bytes);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(stg);
}

static void check_texture(struct e2e *e, ID3D11Texture2D *tex, const uint8_t *expect, UINT w, UINT h)
{
    D3D11_TEXTURE2D_DESC td;
    ID3D11Texture2D_GetDesc(tex, &td);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Texture2D *stg = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &stg), S_OK);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)tex);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < h; y++)
        assert_memory_equal((const uint8_t *)m.pData + (size_t)y * m.RowPitch, expect + (size_t)y * w * 4, w * 4);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(stg);
}

/* 20,000 CreateTexture2D (and 1,250 CreateBuffer) with initial data, released at once: each upload is
 * a DMA buffer (and paging work) the GPU retires later; the heap stays within the bound after
 * the warm-up. Every 1000th pair is kept and checked at the end (a Map in the loop would drain
 * the queue and hide the growth): each holds its own initial data. */
/* rule: sched.context-most-64-dma-buffers-queued (20,000 textures + 1,250 buffers with initial data, released at once; heap growth < 28 MiB, every 1000th resource checked) */
static void create_release_with_initial_data_keeps_the_heap_bounded(void **state)
{
    struct e2e *e = *state;
    enum { W = 32, H = 16, BUF = 8192, BIG = 128 * 1024, KEEP_EVERY = 1000, KEPT = ITERATIONS / KEEP_EVERY };
    static uint8_t texels[KEPT][W * H * 4], bytes[KEPT][BIG];
    ID3D11Texture2D *kept_tex[KEPT] = { NULL };
    ID3D11Buffer *kept_buf[KEPT] = { NULL };
    UINT kept_bw[KEPT] = { 0 };
    size_t base = heap_in_use(), at_warmup = 0, peak = base;
    for (int i = 0; i < ITERATIONS; i++) {
        int k = i / KEEP_EVERY, keep = i % KEEP_EVERY == KEEP_EVERY - 1;
        /* Fresh data for the kept ones only: filling 128 KiB each time would slow this loop
         * down to the GPU's pace and hide what the test is about. */
        if (keep)
            e2e_fill(texels[k], sizeof texels[k], (uint32_t)i);
        /* Every 16th iteration a buffer too, larger than the UMD's pooled buffers (64 KiB) every
         * other time: its own allocation, like a texture; a pooled one otherwise. */
        UINT bw = (i / 16 % 2) ? BIG : BUF;
        if (keep)
            e2e_fill(bytes[k], bw, (uint32_t)i + 7u);
        D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                    .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                    .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
        D3D11_SUBRESOURCE_DATA tsd = { texels[k], W * 4, 0 };
        ID3D11Texture2D *tex = NULL;
        assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, &tsd, &tex), S_OK);
        ID3D11Buffer *buf = NULL;
        if (keep || i % 16 == 0) {
            D3D11_BUFFER_DESC bd = { .ByteWidth = bw, .Usage = D3D11_USAGE_DEFAULT,
                                     .BindFlags = D3D11_BIND_SHADER_RESOURCE };
            D3D11_SUBRESOURCE_DATA bsd = { bytes[k], 0, 0 };
            assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &bsd, &buf), S_OK);
        }
        if (keep) {
            kept_tex[k] = tex;
            kept_buf[k] = buf;
            kept_bw[k] = bw;
        } else {
            SAFE_RELEASE(tex);
            SAFE_RELEASE(buf);
        }
        size_t now = heap_in_use();
        if (i == WARMUP)
            at_warmup = now;
        if (now > peak)
            peak = now;
    }
    size_t end = heap_in_use();
    print_message("heap: %zu bytes before, %zu after %d iterations, %zu at the peak (%.1f bytes per iteration after "
                  "the first %d)\n",
                  base, end, ITERATIONS, peak,
                  end > at_warmup ? (double)(end - at_warmup) / (ITERATIONS - WARMUP) : 0.0, WARMUP);
    for (int k = 0; k < KEPT; k++) {
        check_texture(e, kept_tex[k], texels[k], W, H);
        check_buffer(e, kept_buf[k], bytes[k], kept_bw[k]);
        SAFE_RELEASE(kept_tex[k]);
        SAFE_RELEASE(kept_buf[k]);
    }
    assert_true(peak < base + CREATE_GROWTH_BOUND);
}

/* Copies submitted much faster than a slowed GPU retires them (wddm_swgpu_set_bandwidth), each
 * flushed as its own DMA buffer: the submitter waits for the GPU once its context's queue is
 * full, the heap stays within the bound, and the last copy's bytes are in the destination. */
/* rule: sched.context-most-64-dma-buffers-queued (1,500 flushed 64 KiB copies at 256 MiB/s; growth after the warm-up < 8 MiB; last bytes checked) */
static void copies_faster_than_a_slowed_gpu_keep_the_heap_bounded(void **state)
{
    struct e2e *e = *state;
    static uint8_t src_data[2][COPY_BYTES];
    e2e_fill(src_data[0], COPY_BYTES, 21);
    e2e_fill(src_data[1], COPY_BYTES, 22);
    D3D11_BUFFER_DESC bd = { .ByteWidth = COPY_BYTES, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *src[2] = { NULL, NULL }, *dst = NULL;
    for (int k = 0; k < 2; k++) {
        D3D11_SUBRESOURCE_DATA sd = { src_data[k], 0, 0 };
        assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &sd, &src[k]), S_OK);
    }
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &dst), S_OK);
    check_buffer(e, src[1], src_data[1], COPY_BYTES); /* everything resident and idle */

    /* 256 MiB/s: a 64 KiB copy takes ~250 µs on the GPU, far longer than its submission. */
    wddm_swgpu_set_bandwidth(COPY_BANDWIDTH);
    size_t base = 0, peak = 0;
    for (int i = 0; i < COPY_WARMUP + COPIES; i++) {
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)dst, (ID3D11Resource *)src[i & 1]);
        ID3D11DeviceContext_Flush(e->ctx);
        size_t now = heap_in_use();
        if (i == COPY_WARMUP)
            base = peak = now;
        if (now > peak)
            peak = now;
    }
    wddm_swgpu_set_bandwidth(0);
    print_message("copy loop: peak heap growth %zu bytes over %d flushed copies\n", peak - base, COPIES);
    check_buffer(e, dst, src_data[(COPY_WARMUP + COPIES - 1) & 1], COPY_BYTES);
    assert_true(peak < base + GROWTH_BOUND);
    SAFE_RELEASE(src[0]);
    SAFE_RELEASE(src[1]);
    SAFE_RELEASE(dst);
}

static int teardown_bandwidth(void **state)
{
    wddm_swgpu_set_bandwidth(0);
    return e2e_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(create_release_with_initial_data_keeps_the_heap_bounded, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(copies_faster_than_a_slowed_gpu_keep_the_heap_bounded, e2e_setup,
                                        teardown_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
