/* Issue 6, the GPU virtual address space of the GpuMmu model (vidmm/vaspace.c):
 * D3DKMTReserveGpuVirtualAddress / D3DKMTMapGpuVirtualAddress / D3DKMTFreeGpuVirtualAddress
 * hand out page-aligned ranges of [64 KiB, 2^VirtualAddressBitCount) inside the bounds asked,
 * never overlapping; a fixed Map lies inside a reservation or in free space; the mapped pages
 * lie inside the allocation; bad input is an NTSTATUS and a refusal line; a Map through a
 * paging queue returns a value of its fence that the kernel reaches; destroying an allocation
 * unmaps it. Against the reference KMD started with the GpuMmu caps. */
#include "real_env.h"

#define MiB (1ull << 20)

static struct renv e;

static int setup(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    renv_open(&e);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    renv_close(&e);
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

static NTSTATUS reserve(UINT64 base, UINT64 min, UINT64 max, UINT64 size, D3DGPU_VIRTUAL_ADDRESS *va)
{
    D3DDDI_RESERVEGPUVIRTUALADDRESS r = { .hAdapter = e.adapter, .BaseAddress = base, .MinimumAddress = min,
                                          .MaximumAddress = max, .Size = size };
    NTSTATUS st = D3DKMTReserveGpuVirtualAddress(&r);
    *va = r.VirtualAddress;
    return st;
}

static NTSTATUS map_at(D3DKMT_HANDLE al, UINT64 base, UINT64 offset, UINT64 pages, UINT64 prot,
                       D3DGPU_VIRTUAL_ADDRESS *va)
{
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = e.device, .BaseAddress = base, .hAllocation = al,
                                      .OffsetInPages = offset, .SizeInPages = pages };
    m.Protection.Value = prot;
    NTSTATUS st = D3DKMTMapGpuVirtualAddress(&m);
    *va = m.VirtualAddress;
    return st;
}

static NTSTATUS va_free(UINT64 base, UINT64 size)
{
    D3DKMT_FREEGPUVIRTUALADDRESS f = { .hAdapter = e.adapter, .BaseAddress = base, .Size = size };
    return D3DKMTFreeGpuVirtualAddress(&f);
}

static bool ok(NTSTATUS st)
{
    return st == STATUS_SUCCESS || st == STATUS_PENDING;
}

/* rule: vidmm.reserve-hands-out-page-aligned-non */
/* rule: vidmm.free-takes-exactly-range-reserve-map */
static void reserve_hands_out_disjoint_page_aligned_ranges_inside_the_bounds(void **state)
{
    (void)state;
    D3DGPU_VIRTUAL_ADDRESS a, b, c;
    assert_int_equal(reserve(0, 0, 0, 2 * MiB, &a), STATUS_SUCCESS);
    assert_true(a >= 64 * 1024); /* the first 64 KiB are never handed out */
    assert_int_equal(a % 4096, 0);
    assert_int_equal(reserve(0, 0, 0, 2 * MiB, &b), STATUS_SUCCESS);
    assert_true(b + 2 * MiB <= a || a + 2 * MiB <= b);
    assert_int_equal(reserve(0, 1ull << 30, (1ull << 30) + 4 * MiB, 4 * MiB, &c), STATUS_SUCCESS);
    assert_int_equal(c, 1ull << 30);
    /* Full inside [Minimum, Maximum): no room, nothing reserved. */
    D3DGPU_VIRTUAL_ADDRESS d;
    assert_int_equal(reserve(0, 1ull << 30, (1ull << 30) + 4 * MiB, 4096, &d), STATUS_NO_MEMORY);
    /* A fixed base over a reservation is refused; in free space it is honoured. */
    assert_int_equal(reserve(c + 4096, 0, 0, 4096, &d), STATUS_INVALID_PARAMETER);
    D3DGPU_VIRTUAL_ADDRESS f;
    assert_int_equal(reserve(8ull << 30, 0, 0, 4096, &f), STATUS_SUCCESS);
    assert_int_equal(f, 8ull << 30);
    /* Bad input: a size that is 0 or not a page multiple, an unaligned base or bound, beyond
     * the 40-bit space. */
    wddm_clear_refusals();
    assert_int_equal(reserve(0, 0, 0, 0, &d), STATUS_INVALID_PARAMETER);
    assert_int_equal(reserve(0, 0, 0, 100, &d), STATUS_INVALID_PARAMETER);
    assert_int_equal(reserve(12345, 0, 0, 4096, &d), STATUS_INVALID_PARAMETER);
    assert_int_equal(reserve(0, 100, 0, 4096, &d), STATUS_INVALID_PARAMETER);
    assert_int_equal(reserve(1ull << 40, 0, 0, 4096, &d), STATUS_INVALID_PARAMETER);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "D3DKMTReserveGpuVirtualAddress"));
    /* Free takes exactly what was handed out. */
    assert_int_equal(va_free(a, 4096), STATUS_INVALID_PARAMETER);
    assert_int_equal(va_free(a, 2 * MiB), STATUS_SUCCESS);
    assert_int_equal(va_free(a, 2 * MiB), STATUS_INVALID_PARAMETER);
    assert_int_equal(va_free(b, 2 * MiB), STATUS_SUCCESS);
    assert_int_equal(va_free(c, 4 * MiB), STATUS_SUCCESS);
    assert_int_equal(va_free(f, 4096), STATUS_SUCCESS);
}

/* rule: vidmm.free-takes-exactly-range-reserve-map */
/* rule: vidmm.map-fixed-base-lies-wholly-inside */
static void map_lies_in_a_reservation_or_free_space_and_inside_the_allocation(void **state)
{
    (void)state;
    D3DKMT_HANDLE al = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4 * 4096);
    D3DGPU_VIRTUAL_ADDRESS r, v, w, x;
    assert_int_equal(reserve(0, 0, 0, 1 * MiB, &r), STATUS_SUCCESS);
    /* Inside the reservation at a fixed base. */
    assert_true(ok(map_at(al, r + 4096, 0, 4, 1, &v)));
    assert_int_equal(v, r + 4096);
    /* Over a live mapping, or straddling the reservation's end: refused. */
    assert_int_equal(map_at(al, r + 8192, 0, 1, 1, &w), STATUS_INVALID_PARAMETER);
    assert_int_equal(map_at(al, r + MiB - 4096, 0, 2, 1, &w), STATUS_INVALID_PARAMETER);
    /* BaseAddress 0: VidMm picks a range no reservation or mapping covers. */
    assert_true(ok(map_at(al, 0, 1, 2, 0, &w)));
    assert_true(w + 2 * 4096 <= r || r + MiB <= w);
    /* The pages must lie inside the allocation; SizeInPages 0 is nothing to map. */
    wddm_clear_refusals();
    assert_int_equal(map_at(al, 0, 3, 2, 1, &x), STATUS_INVALID_PARAMETER);
    assert_int_equal(map_at(al, 0, 4, 1, 1, &x), STATUS_INVALID_PARAMETER);
    assert_int_equal(map_at(al, 0, 0, 0, 1, &x), STATUS_INVALID_PARAMETER);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "OffsetInPages"));
    /* Protection: NoAccess with Write is contradictory; Zero needs ZeroInPteSupported. */
    assert_int_equal(map_at(al, 0, 0, 1, 0x1 | 0x8, &x), STATUS_INVALID_PARAMETER);
    assert_int_equal(map_at(al, 0, 0, 1, 0x4, &x), STATUS_NOT_SUPPORTED);
    assert_int_equal(map_at(al, 0, 0, 1, 1ull << 20, &x), STATUS_INVALID_PARAMETER); /* reserved bit */
    /* Not an allocation of this device / a forged handle. */
    assert_int_equal(map_at(0x1234567, 0, 0, 1, 1, &x), STATUS_INVALID_PARAMETER);
    /* A mapping inside a reservation is freed alone; freeing the reservation takes the rest. */
    assert_int_equal(va_free(v, 4 * 4096), STATUS_SUCCESS);
    assert_true(ok(map_at(al, r, 0, 1, 1, &v)));
    assert_int_equal(va_free(r, MiB), STATUS_SUCCESS);
    assert_int_equal(va_free(v, 4096), STATUS_INVALID_PARAMETER); /* went with its reservation */
    assert_int_equal(va_free(w, 2 * 4096), STATUS_SUCCESS);
    renv_free(&e, al);
}

/* VidMm picks the lowest free range, also in a hole between reservations and mappings (one
 * merged walk over both address-sorted lists, vidmm/vaspace.c find_free), and skips a hole too
 * small. */
/* rule: vidmm.without-baseaddress-reserve-map-take */
static void the_lowest_free_range_is_found_between_reservations_and_mappings(void **state)
{
    (void)state;
    D3DKMT_HANDLE al = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 2 * 4096);
    const UINT64 base = 2ull << 30;
    D3DGPU_VIRTUAL_ADDRESS r1, r2, r3, m1, h, big;
    assert_int_equal(reserve(0, base, 0, MiB, &r1), STATUS_SUCCESS);
    assert_int_equal(reserve(0, base, 0, MiB, &r2), STATUS_SUCCESS);
    assert_int_equal(reserve(0, base, 0, MiB, &r3), STATUS_SUCCESS);
    assert_int_equal(r1, base);
    assert_int_equal(r2, base + MiB);
    assert_int_equal(r3, base + 2 * MiB);
    D3DDDI_MAPGPUVIRTUALADDRESS mp = { .hPagingQueue = e.device, .hAllocation = al, .SizeInPages = 2,
                                       .MinimumAddress = base };
    mp.Protection.Value = 1;
    assert_true(ok(D3DKMTMapGpuVirtualAddress(&mp))); /* after the three reservations */
    m1 = mp.VirtualAddress;
    assert_int_equal(m1, base + 3 * MiB);
    assert_int_equal(va_free(r2, MiB), STATUS_SUCCESS);
    /* The hole r2 left is the lowest free range for 1 MiB, not room for 2 MiB. */
    assert_int_equal(reserve(0, base, 0, MiB / 2, &h), STATUS_SUCCESS);
    assert_int_equal(h, base + MiB);
    assert_int_equal(reserve(0, base, 0, 2 * MiB, &big), STATUS_SUCCESS);
    assert_int_equal(big, m1 + 2 * 4096);
    /* A mapping lands in what is left of the hole, after the half reservation; the next one
     * after that mapping, though a reservation follows it in address order. */
    assert_true(ok(D3DKMTMapGpuVirtualAddress(&mp)));
    assert_int_equal(mp.VirtualAddress, base + MiB + MiB / 2);
    assert_true(ok(D3DKMTMapGpuVirtualAddress(&mp)));
    assert_int_equal(mp.VirtualAddress, base + MiB + MiB / 2 + 2 * 4096);
    renv_free(&e, al);
    for (UINT64 v = r1; v <= r3; v += MiB)
        (void)va_free(v, MiB);
    assert_int_equal(va_free(h, MiB / 2), STATUS_SUCCESS);
    assert_int_equal(va_free(big, 2 * MiB), STATUS_SUCCESS);
}

/* rule: vidmm.destroying-allocation-unmaps-every */
static void destroying_an_allocation_unmaps_it(void **state)
{
    (void)state;
    D3DKMT_HANDLE al = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DGPU_VIRTUAL_ADDRESS v, w;
    assert_true(ok(map_at(al, 0, 0, 1, 1, &v)));
    renv_free(&e, al);
    /* Destruction is deferred until the GPU is done with it: a new allocation at the same
     * fixed VA succeeds once that happened (the device's work is all retired here). */
    D3DKMT_HANDLE al2 = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    assert_true(ok(map_at(al2, v, 0, 1, 1, &w)));
    assert_int_equal(w, v);
    assert_int_equal(va_free(v, 4096), STATUS_SUCCESS);
    assert_int_equal(va_free(v, 4096), STATUS_INVALID_PARAMETER);
    renv_free(&e, al2);
}

/* rule: vidmm.map-through-paging-queue-returns */
static void map_through_a_paging_queue_returns_a_fence_value_it_reaches(void **state)
{
    (void)state;
    D3DKMT_CREATEPAGINGQUEUE pq = { .hDevice = e.device };
    assert_int_equal(D3DKMTCreatePagingQueue(&pq), STATUS_SUCCESS);
    D3DKMT_HANDLE al = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 3 * MiB); /* two leaf tables' worth */
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = pq.hPagingQueue, .hAllocation = al, .SizeInPages = 768,
                                      .MinimumAddress = 4 * MiB - 4096 };
    m.Protection.Write = 1;
    wddm_swgpu_set_paused(1); /* the page-table writes cannot have run yet */
    assert_int_equal(D3DKMTMapGpuVirtualAddress(&m), STATUS_PENDING);
    assert_true(m.PagingFenceValue > 0);
    assert_true(*(volatile UINT64 *)pq.FenceValueCPUVirtualAddress < m.PagingFenceValue);
    wddm_swgpu_set_paused(0);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = e.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &pq.hSyncObject,
                                                     .FenceValueArray = &m.PagingFenceValue };
    assert_int_equal(wddm_wait_for_synchronization_object_from_cpu_timeout(&w, 20000), STATUS_SUCCESS);
    assert_int_equal(va_free(m.VirtualAddress, 768 * 4096), STATUS_SUCCESS);
    D3DKMT_DESTROYPAGINGQUEUE dq = { .hPagingQueue = pq.hPagingQueue };
    assert_int_equal(D3DKMTDestroyPagingQueue(&dq), STATUS_SUCCESS);
    renv_free(&e, al);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reserve_hands_out_disjoint_page_aligned_ranges_inside_the_bounds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(map_lies_in_a_reservation_or_free_space_and_inside_the_allocation, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_lowest_free_range_is_found_between_reservations_and_mappings, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(destroying_an_allocation_unmaps_it, setup, teardown),
        cmocka_unit_test_setup_teardown(map_through_a_paging_queue_returns_a_fence_value_it_reaches, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
