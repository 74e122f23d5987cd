/* A1: VidMm's segment range allocator (src/common/free_ranges.c) under churn, from 10^2 to 10^5 live blocks (issue 17 aim 7:
 * costs flat or logarithmic, no cliff as a segment fills with small allocations).
 *
 * A segment twice the size of what is live is filled with N blocks of 1 to 16 pages; then each
 * operation frees a random live block and places a new one of a random size (one in eight
 * aligned to 64 KiB, one in four placed from the top, as vidmm/placement.c asks for CPU-visible
 * and banked placements). Reported: ns per free + place, median of REPS repetitions after a
 * warm-up of N operations, against glibc's free + malloc of the same sizes over the same number
 * of live blocks in the same run (the limit: a general-purpose allocator that needs no
 * placement rules). The holes left at the end are printed: the allocator keeps the first-fit
 * offsets, so fragmentation is the same as before the tree. The allocator is a data structure of
 * the library's common code, measured alone (no segment, no lock), so the figure is the
 * allocator's, not the API's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_report.h"
#include "bench_segment.h"
#include "common/free_ranges.h"
#include "tool.h"

#define REPS 11
#define OPS 4000
#define A1_PAGE 4096u

struct a1_block {
    UINT64 offset, size;
    void *heap;
};

static uint32_t a1_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static UINT64 a1_size(uint64_t *s)
{
    return (UINT64)(1 + a1_rand(s) % 16) * A1_PAGE;
}

static bool a1_place(struct free_ranges *fr, UINT64 size, struct a1_block *b, uint64_t *s)
{
    uint32_t r = a1_rand(s);
    UINT64 align = r % 8 == 0 ? 65536 : A1_PAGE;
    b->size = a1_size(s);
    return free_ranges_take(fr, b->size, align, 0, size, r % 4 == 1, &b->offset);
}

/* Median ns per free + place over OPS operations; false when a placement found no hole. */
static bool a1_segment(unsigned n, double *median, double *min, double *max, UINT64 *holes, UINT64 *largest)
{
    UINT64 size = (UINT64)n * 2u * 16u * A1_PAGE;
    struct free_ranges fr;
    struct a1_block *b = calloc(n, sizeof *b);
    if (!b || !free_ranges_init(&fr, size)) {
        free(b);
        return false;
    }
    uint64_t s = 42;
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++)
        ok = a1_place(&fr, size, &b[i], &s);
    uint64_t t[REPS];
    for (int r = -1; r < REPS && ok; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (unsigned k = 0; k < (r < 0 ? n : OPS) && ok; k++) {
            struct a1_block *v = &b[a1_rand(&s) % n];
            free_ranges_give(&fr, v->offset, v->size);
            ok = a1_place(&fr, size, v, &s);
        }
        if (r >= 0)
            t[r] = wddm_tool_now_ns() - t0;
    }
    if (ok) {
        *median = (double)wddm_tool_median(t, REPS) / OPS;
        *min = (double)t[0] / OPS;
        *max = (double)t[REPS - 1] / OPS;
        *holes = fr.count;
        *largest = free_ranges_largest(&fr);
    }
    free_ranges_fini(&fr);
    free(b);
    return ok;
}

/* The limit: free + malloc of the same size sequence over n live heap blocks. */
static double a1_heap(unsigned n)
{
    struct a1_block *b = calloc(n, sizeof *b);
    uint64_t s = 42, t[REPS];
    for (unsigned i = 0; i < n; i++)
        b[i].heap = malloc(a1_size(&s));
    for (int r = -1; r < REPS; r++) {
        uint64_t t0 = wddm_tool_now_ns();
        for (unsigned k = 0; k < (r < 0 ? n : OPS); k++) {
            struct a1_block *v = &b[a1_rand(&s) % n];
            free(v->heap);
            a1_rand(&s); /* the segment's draw of alignment and direction */
            v->heap = malloc(a1_size(&s));
            *(volatile char *)v->heap = 1;
        }
        if (r >= 0)
            t[r] = wddm_tool_now_ns() - t0;
    }
    for (unsigned i = 0; i < n; i++)
        free(b[i].heap);
    free(b);
    return (double)wddm_tool_median(t, REPS) / OPS;
}

int wddm_bench_segment(int quick)
{
    for (unsigned n = 100; n <= (quick ? 10000u : 100000u); n *= 10) {
        double med, lo, hi;
        UINT64 holes = 0, largest = 0;
        if (!a1_segment(n, &med, &lo, &hi, &holes, &largest)) {
            fprintf(stderr, "wddm bench: A1 with %u live blocks found no hole in a segment twice their size\n", n);
            return 1;
        }
        double heap = a1_heap(n);
        wddm_bench_printf("A1 segment allocator, %6u live blocks: %7.0f ns per free+place (%.0f-%.0f)  %5.2fx glibc "
                          "free+malloc (%.0f ns); %llu holes, largest %llu KiB\n",
                          n, med, lo, hi, med / heap, heap, (unsigned long long)holes,
                          (unsigned long long)(largest / 1024));
        char name[40];
        snprintf(name, sizeof name, "A1 %u live blocks", n);
        wddm_bench_result(name, "ns/op", med, lo, hi, "malloc+free", heap);
    }
    return 0;
}
