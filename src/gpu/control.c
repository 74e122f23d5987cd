/* Process-wide test control of every software GPU (include/wddm/swgpu.h): pause, bandwidth,
 * injected hangs and counters. Thread-safe: atomics, plus one lock for the instance list that pause uses to
 * wake engines. */
#include "gpu/gpu_internal.h"

#include <errno.h>
#include <wddm/swgpu.h>

static atomic_int g_paused;
static atomic_uint g_hangs; /* armed by wddm_swgpu_inject_hang, taken by swgpu_submit2 */
static _Atomic(unsigned long long) g_bandwidth;
static atomic_int g_copy_unit_mode; /* enum wddm_swgpu_copy_unit_mode */
static _Atomic(unsigned long long) g_stats[SWGPU_STAT_COUNT];

/* A bandwidth-limited command sleeps in slices of at most this long, looking for a reset
 * between them. */
#define SWGPU_THROTTLE_SLICE_NS 5000000u

static pthread_mutex_t g_list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct swgpu *g_list; /* Protected by g_list_lock. */

int swgpu_control_paused(void)
{
    return atomic_load_explicit(&g_paused, memory_order_acquire);
}

void swgpu_control_register(struct swgpu *gpu)
{
    pthread_mutex_lock(&g_list_lock);
    gpu->next = g_list;
    g_list = gpu;
    pthread_mutex_unlock(&g_list_lock);
}

void swgpu_control_unregister(struct swgpu *gpu)
{
    pthread_mutex_lock(&g_list_lock);
    for (struct swgpu **p = &g_list; *p; p = &(*p)->next) {
        if (*p == gpu) {
            *p = gpu->next;
            break;
        }
    }
    pthread_mutex_unlock(&g_list_lock);
}

void wddm_swgpu_set_paused(int paused)
{
    atomic_store_explicit(&g_paused, paused ? 1 : 0, memory_order_release);
    if (paused)
        return; /* engines check the flag before taking and before completing work */
    /* Lock order: list lock, then each engine's lock (engine threads never take the list
     * lock). Kicking under the engine lock cannot lose the wake-up. */
    pthread_mutex_lock(&g_list_lock);
    for (struct swgpu *gpu = g_list; gpu; gpu = gpu->next)
        for (UINT32 i = 0; i < gpu->engine_count; i++)
            swgpu_engine_kick(&gpu->engines[i]);
    pthread_mutex_unlock(&g_list_lock);
}

void wddm_swgpu_inject_hang(void)
{
    atomic_fetch_add_explicit(&g_hangs, 1, memory_order_relaxed);
}

int swgpu_control_take_hang(void)
{
    /* One call arms one hang: the first submission to see it armed takes it. */
    unsigned n = atomic_load_explicit(&g_hangs, memory_order_relaxed);
    while (n && !atomic_compare_exchange_weak_explicit(&g_hangs, &n, n - 1, memory_order_relaxed,
                                                       memory_order_relaxed))
        ;
    return n != 0;
}

void wddm_swgpu_set_copy_unit(enum wddm_swgpu_copy_unit_mode mode)
{
    atomic_store_explicit(&g_copy_unit_mode, (int)mode, memory_order_relaxed);
}

int swgpu_control_copy_unit_mode(void)
{
    return atomic_load_explicit(&g_copy_unit_mode, memory_order_relaxed);
}

void wddm_swgpu_set_bandwidth(unsigned long long bytes_per_second)
{
    atomic_store_explicit(&g_bandwidth, bytes_per_second, memory_order_relaxed);
}

void wddm_swgpu_get_stats(struct wddm_swgpu_stats *out)
{
    if (!out)
        return;
    out->dma_buffers_executed = atomic_load(&g_stats[SWGPU_STAT_DMA_BUFFERS]);
    out->commands_executed = atomic_load(&g_stats[SWGPU_STAT_COMMANDS]);
    out->bytes_copied = atomic_load(&g_stats[SWGPU_STAT_BYTES_COPIED]);
    out->bytes_filled = atomic_load(&g_stats[SWGPU_STAT_BYTES_FILLED]);
    out->bytes_written = atomic_load(&g_stats[SWGPU_STAT_BYTES_WRITTEN]);
    out->pages_mapped = atomic_load(&g_stats[SWGPU_STAT_PAGES_MAPPED]);
    out->interrupts = atomic_load(&g_stats[SWGPU_STAT_INTERRUPTS]);
    out->bytes_copied_by_second_unit = atomic_load(&g_stats[SWGPU_STAT_BYTES_SECOND_UNIT]);
}

void swgpu_stat_add(enum swgpu_stat stat, UINT64 n)
{
    atomic_fetch_add_explicit(&g_stats[stat], n, memory_order_relaxed);
}

int swgpu_control_throttling(void)
{
    return atomic_load_explicit(&g_bandwidth, memory_order_relaxed) != 0;
}

int swgpu_control_throttle(UINT64 bytes, const struct timespec *start, _Atomic(unsigned) *stop_request)
{
    unsigned long long rate = atomic_load_explicit(&g_bandwidth, memory_order_relaxed);
    if (rate == 0 || bytes == 0)
        return 0;
    /* Target duration bytes / rate, in nanoseconds (128-bit: no overflow for any size). */
    unsigned __int128 need = (unsigned __int128)bytes * 1000000000u / rate;
    for (;;) {
        /* A reset ends the wait (issue 14 §4): at 1 byte per second one MiB would take days. */
        if (atomic_load_explicit(stop_request, memory_order_relaxed) & SWGPU_STOP_RESET)
            return 1;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        __int128 elapsed = (__int128)(now.tv_sec - start->tv_sec) * 1000000000 + (now.tv_nsec - start->tv_nsec);
        if ((__int128)need <= elapsed)
            return 0;
        unsigned __int128 left = need - (unsigned __int128)elapsed;
        if (left > SWGPU_THROTTLE_SLICE_NS)
            left = SWGPU_THROTTLE_SLICE_NS;
        struct timespec ts = {0, (long)left};
        nanosleep(&ts, NULL);
    }
}
