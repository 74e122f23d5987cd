/* Issue 6 and issue 3 (2.x residency), the GpuMmu model end to end on the reference KMD and the
 * software GPU: a command buffer the test writes in a mapped CPU-visible allocation is
 * submitted with D3DKMTSubmitCommand and copies through GPU virtual addresses; an eviction and
 * a restore move the allocation and the VA keeps working (VidMm rewrote the PTEs); an
 * allocation never made resident, or a write through a read-only mapping, page-faults and
 * loses only the submitting device (D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT, the fault via
 * D3DKMT_DEVICESTATE_PAGE_FAULT, later submissions STATUS_DEVICE_REMOVED) while another
 * device's VA work completes; D3DKMTEvict lets the allocation leave only after the work its
 * device submitted before retired. Order is proved by data and states, never by time. */
#include "real_env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "kernel_peek.h"

#define BYTES 8192u

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

/* Where the allocation's current instance lives: segment id << 56 | offset (0: nowhere). */
static UINT64 place_of(D3DKMT_HANDLE h)
{
    struct dxgk_allocation *al = (struct dxgk_allocation *)dxgk_handle_get(h, DXGK_TYPE_ALLOCATION);
    assert_non_null(al);
    struct dxgk_adapter *a = al->device->adapter;
    pthread_mutex_lock(&a->lock);
    UINT64 p = al->current->segment_id ? ((UINT64)al->current->segment_id << 56) | al->current->offset : 0;
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&al->obj);
    return p;
}

/* A device's mapped, resident allocations for VA copies: cmd (the command buffer), src
 * (UPLOAD, pattern(seed)), rb (READBACK). */
struct vdev {
    D3DKMT_HANDLE device, context;
    D3DKMT_HANDLE cmd, src, rb;
    D3DGPU_VIRTUAL_ADDRESS cmd_va, src_va, rb_va;
};

static void vdev_open(struct vdev *v, D3DKMT_HANDLE device, D3DKMT_HANDLE context, uint32_t seed)
{
    struct renv r = { .adapter = e.adapter, .device = device };
    v->device = device;
    v->context = context;
    v->cmd = renv_alloc(&r, SWGPU_ALLOC_UPLOAD, 4096);
    v->src = renv_alloc(&r, SWGPU_ALLOC_UPLOAD, BYTES);
    v->rb = renv_alloc(&r, SWGPU_ALLOC_READBACK, BYTES);
    D3DKMT_HANDLE list[3] = { v->cmd, v->src, v->rb };
    assert_true(NT_SUCCESS(renv_make_resident(device, list, 3)));
    v->cmd_va = renv_map(device, v->cmd, 1, false);
    v->src_va = renv_map(device, v->src, BYTES / 4096, false);
    v->rb_va = renv_map(device, v->rb, BYTES / 4096, true);
    void *p = renv_lock2(device, v->src);
    renv_pattern(p, BYTES, seed);
    renv_unlock2(device, v->src);
}

/* Writes `n` copies (dst[i] <- src[i]) into the command buffer and submits them. */
static NTSTATUS vdev_copies(struct vdev *v, const D3DGPU_VIRTUAL_ADDRESS *dst, const D3DGPU_VIRTUAL_ADDRESS *src,
                            UINT n)
{
    UINT8 *p = renv_lock2(v->device, v->cmd);
    UINT len = 0;
    for (UINT i = 0; i < n; i++)
        len += renv_va_copy_cmd(p + len, dst[i], src[i], BYTES);
    renv_unlock2(v->device, v->cmd);
    return renv_submit(v->context, v->cmd_va, len);
}

static void vdev_check(struct vdev *v, uint32_t seed)
{
    renv_check2(v->device, v->rb, BYTES, seed);
}

/* A GPU_ONLY allocation of BYTES on the test device, made resident and mapped writable at *va. */
static D3DKMT_HANDLE resident_mapped(D3DGPU_VIRTUAL_ADDRESS *va)
{
    D3DKMT_HANDLE h = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &h, 1)));
    *va = renv_map(e.device, h, BYTES / 4096, true);
    return h;
}

/* rule: vidmm.page-tables-root-sized */
/* rule: sched.d3dkmtsubmitcommand-queues-list-less */
static void va_copy_through_a_command_buffer_in_gpu_virtual_memory(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 11);
    /* Through a GPU_ONLY allocation: src -> mid -> rb, two commands of one buffer. */
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    (void)resident_mapped(&mid_va);
    D3DGPU_VIRTUAL_ADDRESS dst[2] = { mid_va, v.rb_va }, src[2] = { v.src_va, mid_va };
    assert_int_equal(vdev_copies(&v, dst, src, 2), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    vdev_check(&v, 11);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
}

/* The root page table starts small and grows (DxgkDdiGetRootPageTableSize) when a mapping lies
 * beyond it; the context gets the grown root before its next packet and the far VA works,
 * like the near ones mapped before. */
/* rule: vidmm.root-page-table-starts-one-page */
static void a_mapping_beyond_the_root_grows_it_and_every_va_keeps_working(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 88);
    D3DGPU_VIRTUAL_ADDRESS d1 = v.rb_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS); /* runs with the first root */
    renv_finish(e.device, e.context);
    D3DKMT_HANDLE far = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &far, 1)));
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = e.device, .hAllocation = far, .SizeInPages = BYTES / 4096,
                                      .MinimumAddress = 1ull << 39 }; /* the top half of the 40-bit space */
    m.Protection.Write = 1;
    assert_true(NT_SUCCESS(D3DKMTMapGpuVirtualAddress(&m)));
    assert_true(m.VirtualAddress >= 1ull << 39);
    /* src -> far -> rb: through the far VA and the near ones in one buffer. */
    void *p = renv_lock2(e.device, v.rb);
    memset(p, 0, BYTES);
    renv_unlock2(e.device, v.rb);
    D3DGPU_VIRTUAL_ADDRESS dst[2] = { m.VirtualAddress, v.rb_va }, src[2] = { v.src_va, m.VirtualAddress };
    assert_int_equal(vdev_copies(&v, dst, src, 2), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    vdev_check(&v, 88);
}

/* Which thread handed the last virtual packet to the KMD: the test's own (direct submission,
 * sched/queue.c) or the node worker. The spy wraps the adapter's DxgkDdiSubmitCommandVirtual,
 * swapped under the node's submit_lock, under which the kernel calls it. */
static PDXGKDDI_SUBMITCOMMANDVIRTUAL real_submit_virtual;
static _Atomic unsigned long submitter;

static NTSTATUS APIENTRY spy_submit_virtual(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDVIRTUAL *args)
{
    atomic_store(&submitter, (unsigned long)pthread_self());
    return real_submit_virtual(hAdapter, args);
}

static void spy_install(D3DKMT_HANDLE context, bool on)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(context, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    struct dxgk_adapter *a = c->device->adapter;
    struct gsched_node *n = &a->node[c->node];
    pthread_mutex_lock(&n->submit_lock);
    if (on) {
        real_submit_virtual = a->driver.ddi.DxgkDdiSubmitCommandVirtual;
        a->driver.ddi.DxgkDdiSubmitCommandVirtual = spy_submit_virtual;
    } else {
        a->driver.ddi.DxgkDdiSubmitCommandVirtual = real_submit_virtual;
    }
    pthread_mutex_unlock(&n->submit_lock);
    dxgk_object_put(&c->obj);
}

/* Direct submission in the GpuMmu model: with the node idle and every page-table write retired,
 * D3DKMTSubmitCommand hands the packet to DxgkDdiSubmitCommandVirtual on the caller's thread;
 * behind a page-table write the paging engine has not run (the GPU paused), the packet goes to
 * the node worker, which submits it only once that write retired - and the copy through the
 * newly mapped VA lands; after a mapping that grew the root page table, the worker too, which
 * gives the context the grown root before the packet (else the far VA would fault). */
/* rule: kernel.direct-submission-single-resident-packet (GpuMmu: the thread that called DxgkDdiSubmitCommandVirtual) */
static void an_idle_node_takes_the_packet_from_the_caller_unless_a_page_table_write_is_pending(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 31);
    D3DGPU_VIRTUAL_ADDRESS d1 = v.rb_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    spy_install(e.context, true);
    unsigned long me = (unsigned long)pthread_self();
    /* Idle means the worker also let go of its last packet, a moment after the GPU may have
     * finished it: a few tries. Every one lands; one is submitted by this thread. */
    bool direct = false;
    for (int i = 0; i < 50 && !direct; i++) {
        atomic_store(&submitter, 0);
        assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
        direct = atomic_load(&submitter) == me; /* before D3DKMTSubmitCommand returned */
        renv_finish(e.device, e.context);
    }
    assert_true(direct);
    vdev_check(&v, 31);
    /* A second VA of the source, its page-table write held behind the paused GPU. */
    wddm_swgpu_set_paused(1);
    D3DGPU_VIRTUAL_ADDRESS s2 = renv_map(e.device, v.src, BYTES / 4096, false);
    void *p = renv_lock2(e.device, v.rb);
    memset(p, 0, BYTES);
    renv_unlock2(e.device, v.rb);
    atomic_store(&submitter, 0);
    assert_int_equal(vdev_copies(&v, &d1, &s2, 1), STATUS_SUCCESS);
    assert_true(atomic_load(&submitter) != me);
    wddm_swgpu_set_paused(0);
    renv_finish(e.device, e.context);
    assert_true(atomic_load(&submitter) != 0 && atomic_load(&submitter) != me); /* the worker's */
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    vdev_check(&v, 31);
    /* A mapping beyond the root grows it; its page-table writes retired, the context's next
     * packet still goes through the worker, which gives the context the grown root first. */
    D3DKMT_CREATEPAGINGQUEUE pq = { .hDevice = e.device };
    assert_int_equal(D3DKMTCreatePagingQueue(&pq), STATUS_SUCCESS);
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = pq.hPagingQueue, .hAllocation = v.src,
                                      .SizeInPages = BYTES / 4096, .MinimumAddress = 1ull << 39 };
    NTSTATUS st = D3DKMTMapGpuVirtualAddress(&m);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = e.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &pq.hSyncObject,
                                                     .FenceValueArray = &m.PagingFenceValue };
    assert_int_equal(wddm_wait_for_synchronization_object_from_cpu_timeout(&w, 20000), STATUS_SUCCESS);
    p = renv_lock2(e.device, v.rb);
    memset(p, 0, BYTES);
    renv_unlock2(e.device, v.rb);
    D3DGPU_VIRTUAL_ADDRESS far = m.VirtualAddress;
    atomic_store(&submitter, 0);
    assert_int_equal(vdev_copies(&v, &d1, &far, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    assert_true(atomic_load(&submitter) != 0 && atomic_load(&submitter) != me);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    vdev_check(&v, 31);
    D3DKMT_DESTROYPAGINGQUEUE dq = { .hPagingQueue = pq.hPagingQueue };
    assert_int_equal(D3DKMTDestroyPagingQueue(&dq), STATUS_SUCCESS);
    spy_install(e.context, false);
}

/* rule: vidmm.ptes-follow-every-move-mapped-allocation */
static void eviction_and_restore_move_the_allocation_and_the_va_keeps_working(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 22);
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    D3DKMT_HANDLE mid = resident_mapped(&mid_va);
    D3DGPU_VIRTUAL_ADDRESS d1 = mid_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    UINT64 before = place_of(mid);
    assert_int_not_equal(before, 0);
    /* Evict (its work retired: it leaves at once, content to its backing store), let another
     * allocation take its range, bring it back: somewhere else. */
    assert_int_equal(renv_evict(e.device, &mid, 1), STATUS_SUCCESS);
    assert_int_equal(place_of(mid), 0);
    D3DKMT_HANDLE filler = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &filler, 1)));
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &mid, 1)));
    UINT64 after = place_of(mid);
    assert_int_not_equal(after, 0);
    assert_int_not_equal(after, before);
    /* The same VA reads the restored content at its new place. */
    D3DGPU_VIRTUAL_ADDRESS d2 = v.rb_va, s2 = mid_va;
    assert_int_equal(vdev_copies(&v, &d2, &s2, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    vdev_check(&v, 22);
}

/* rule: sched.dma-page-faulted-puts-device-submitted */
/* rule: vidmm.2-x-residency-nothing-made-resident */
static void never_resident_access_faults_and_loses_only_that_device(void **state)
{
    (void)state;
    /* Device B: a second device of the same adapter, with its own context and allocations. */
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    struct vdev a, b;
    vdev_open(&a, e.device, e.context, 33);
    vdev_open(&b, cd.hDevice, cc.hContext, 44);
    /* A GPU_ONLY allocation mapped but never made resident: its PTEs are invalid. */
    D3DKMT_HANDLE ghost = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    D3DGPU_VIRTUAL_ADDRESS ghost_va = renv_map(e.device, ghost, BYTES / 4096, true);
    D3DGPU_VIRTUAL_ADDRESS d = a.rb_va, s = ghost_va;
    assert_int_equal(vdev_copies(&a, &d, &s, 1), STATUS_SUCCESS);
    assert_int_equal(renv_wait_lost(e.device), D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT);
    D3DKMT_GETDEVICESTATE gs = { .hDevice = e.device, .StateType = D3DKMT_DEVICESTATE_PAGE_FAULT };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    assert_true(gs.PageFaultState.FaultedVirtualAddress >= ghost_va &&
                gs.PageFaultState.FaultedVirtualAddress < ghost_va + BYTES);
    assert_int_equal(gs.PageFaultState.PageFaultFlags & DXGK_PAGE_FAULT_WRITE, 0); /* a read */
    assert_int_equal(gs.PageFaultState.FaultErrorCode.GeneralErrorCode, DXGK_GENERAL_ERROR_PAGE_FAULT);
    /* Its later submissions fail; the other device's VA work completes with its data. */
    assert_int_equal(renv_submit(e.context, a.cmd_va, 64), STATUS_DEVICE_REMOVED);
    D3DGPU_VIRTUAL_ADDRESS bd = b.rb_va, bs = b.src_va;
    assert_int_equal(vdev_copies(&b, &bd, &bs, 1), STATUS_SUCCESS);
    renv_finish(b.device, b.context);
    vdev_check(&b, 44);
    assert_int_equal(renv_exec_state(cd.hDevice), D3DKMT_DEVICEEXECUTION_ACTIVE);
    D3DKMT_GETDEVICESTATE gb = { .hDevice = cd.hDevice, .StateType = D3DKMT_DEVICESTATE_PAGE_FAULT };
    assert_int_equal(D3DKMTGetDeviceState(&gb), STATUS_NOT_FOUND);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
}

/* Issue 3: the MakeResident list is the only residency control. An allocation a Lock2 placed
 * (the CPU wrote it) but the device never made resident is still unreachable by the GPU. */
/* rule: vidmm.2-x-residency-nothing-made-resident */
static void placed_without_make_resident_still_faults(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 77);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, BYTES);
    D3DGPU_VIRTUAL_ADDRESS up_va = renv_map(e.device, up, BYTES / 4096, false);
    void *p = renv_lock2(e.device, up);
    memset(p, 0x77, BYTES);
    renv_unlock2(e.device, up);
    assert_int_not_equal(place_of(up), 0); /* placed by the lock */
    D3DGPU_VIRTUAL_ADDRESS d = v.rb_va, s = up_va;
    assert_int_equal(vdev_copies(&v, &d, &s, 1), STATUS_SUCCESS);
    assert_int_equal(renv_wait_lost(e.device), D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT);
}

/* rule: vidmm.write-through-mapping-without-protection */
static void write_through_a_read_only_mapping_faults_as_a_write(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 55);
    /* src_va is mapped without Protection.Write: copying into it faults. */
    D3DGPU_VIRTUAL_ADDRESS d = v.src_va, s = v.rb_va;
    assert_int_equal(vdev_copies(&v, &d, &s, 1), STATUS_SUCCESS);
    assert_int_equal(renv_wait_lost(e.device), D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT);
    D3DKMT_GETDEVICESTATE gs = { .hDevice = e.device, .StateType = D3DKMT_DEVICESTATE_PAGE_FAULT };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    assert_int_equal(gs.PageFaultState.PageFaultFlags & DXGK_PAGE_FAULT_WRITE, DXGK_PAGE_FAULT_WRITE);
    assert_true(gs.PageFaultState.FaultedVirtualAddress >= v.src_va &&
                gs.PageFaultState.FaultedVirtualAddress < v.src_va + BYTES);
}

/* rule: vidmm.2-x-evict-allocation-may-leave */
static void evict_lets_the_allocation_leave_only_after_the_work_submitted_before(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 66);
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    D3DKMT_HANDLE mid = resident_mapped(&mid_va);
    D3DGPU_VIRTUAL_ADDRESS d1 = mid_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context); /* mid holds pattern(66) */
    wddm_swgpu_set_paused(1);
    D3DGPU_VIRTUAL_ADDRESS d2 = v.rb_va, s2 = mid_va;
    assert_int_equal(vdev_copies(&v, &d2, &s2, 1), STATUS_SUCCESS); /* reads mid, not run yet */
    assert_int_equal(renv_evict(e.device, &mid, 1), STATUS_SUCCESS);
    /* The copy submitted before the Evict has not retired: mid stays where it is. */
    assert_int_not_equal(place_of(mid), 0);
    wddm_swgpu_set_paused(0);
    renv_finish(e.device, e.context);
    vdev_check(&v, 66);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
}

/* Destroying a mapped allocation while work its device submitted may still read it: its VA
 * range and memory stay until that work retired (the copy reads the right bytes), then the VA
 * is free again. */
/* rule: kernel.destroying-mapped-allocation-frees-only */
static void destruction_waits_for_the_work_submitted_before(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 99);
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    D3DKMT_HANDLE mid = resident_mapped(&mid_va);
    D3DGPU_VIRTUAL_ADDRESS d1 = mid_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    wddm_swgpu_set_paused(1);
    D3DGPU_VIRTUAL_ADDRESS d2 = v.rb_va, s2 = mid_va;
    assert_int_equal(vdev_copies(&v, &d2, &s2, 1), STATUS_SUCCESS); /* reads mid, not run yet */
    struct renv r = { .adapter = e.adapter, .device = e.device };
    renv_free(&r, mid);
    /* Still mapped: another allocation cannot take the range yet. */
    D3DKMT_HANDLE other = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = e.device, .BaseAddress = mid_va, .hAllocation = other,
                                      .SizeInPages = BYTES / 4096 };
    assert_int_equal(D3DKMTMapGpuVirtualAddress(&m), STATUS_INVALID_PARAMETER);
    wddm_swgpu_set_paused(0);
    renv_finish(e.device, e.context);
    vdev_check(&v, 99);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* Freed once the work retired (the node worker frees it: bounded wait, no time asserted). */
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    for (int i = 0; i < 20000 && st == STATUS_INVALID_PARAMETER; i++) {
        st = D3DKMTMapGpuVirtualAddress(&m);
        if (st == STATUS_INVALID_PARAMETER)
            usleep(1000);
    }
    assert_true(NT_SUCCESS(st));
    assert_int_equal(m.VirtualAddress, mid_va);
}

/* A packet held behind a GPU wait has no ticket yet: destroying an allocation it reads must
 * still wait for it (the allocation is parked on the context until the packet is queued, then
 * stamped with its ticket: vidmm_va_device_use_locked / vidmm_va_held_done_locked). Without
 * that the range would be unmapped first and the copy would page-fault. */
/* rule: vidmm.packet-held-behind-gpu-wait-no (mutation-checked) */
static void destruction_waits_for_packets_held_behind_a_gpu_wait(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 77);
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    D3DKMT_HANDLE mid = resident_mapped(&mid_va);
    D3DGPU_VIRTUAL_ADDRESS d1 = mid_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    /* The context waits for a fence nobody signalled yet: the copy reading mid is held. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    UINT64 one = 1;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = e.context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject,
                                                     .MonitoredFenceValueArray = &one };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(&w), STATUS_SUCCESS);
    D3DGPU_VIRTUAL_ADDRESS d2 = v.rb_va, s2 = mid_va;
    assert_int_equal(vdev_copies(&v, &d2, &s2, 1), STATUS_SUCCESS);
    struct renv r = { .adapter = e.adapter, .device = e.device };
    renv_free(&r, mid);
    /* Still mapped while the packet is held: the range cannot be taken. */
    D3DKMT_HANDLE other = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES);
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = e.device, .BaseAddress = mid_va, .hAllocation = other,
                                      .SizeInPages = BYTES / 4096 };
    assert_int_equal(D3DKMTMapGpuVirtualAddress(&m), STATUS_INVALID_PARAMETER);
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU sc = { .hDevice = e.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject, .FenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&sc), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    vdev_check(&v, 77); /* the held copy read mid's bytes, no fault */
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = cs.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
}

/* Issue 3 on a GpuMmu adapter: under pressure MakeResident fails atomically (nothing counted,
 * NumAllocations 0, the bytes over in NumBytesToTrim); after the app trims it succeeds. Local
 * memory of 1 + 1 MiB (set before the adapter starts: small_setup). */
static int small_setup(void **state)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    return setup(state);
}

static int small_teardown(void **state)
{
    unsetenv("WDDM_SEGMENT_LOCAL_MB");
    unsetenv("WDDM_SEGMENT_VISIBLE_MB");
    return teardown(state);
}

/* rule: vidmm.gpummu-adapter-makeresident-under */
static void make_resident_under_pressure_fails_atomically(void **state)
{
    (void)state;
    const UINT32 sz = 256u << 10;
    D3DKMT_HANDLE a[7], b[2];
    for (int i = 0; i < 7; i++)
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    assert_true(NT_SUCCESS(renv_make_resident(e.device, a, 7))); /* 1.75 of 2 MiB */
    for (int i = 0; i < 2; i++)
        b[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 2, .AllocationList = b };
    assert_int_equal(D3DKMTMakeResident(&mr), STATUS_NO_MEMORY);
    assert_int_equal(mr.NumAllocations, 0);
    assert_true(mr.NumBytesToTrim >= sz && mr.NumBytesToTrim <= 2 * sz);
    assert_int_equal(renv_evict(e.device, &b[0], 1), STATUS_INVALID_PARAMETER); /* nothing counted */
    assert_int_equal(renv_evict(e.device, &b[1], 1), STATUS_INVALID_PARAMETER);
    assert_int_equal(renv_evict(e.device, a, 3), STATUS_SUCCESS); /* the app trims */
    assert_true(NT_SUCCESS(renv_make_resident(e.device, b, 2)));
}

static void *unpause_later(void *arg)
{
    (void)arg;
    usleep(20000);
    wddm_swgpu_set_paused(0);
    return NULL;
}

/* Under pressure a GpuMmu VidMm never evicts an allocation that a packet queued before its
 * Evict reads through its VA: no prepare step would bring it back before the packet runs (no
 * allocation list), so the packet would fault. MakeResident waits for that work instead, then
 * places (vidmm/evict.c evictable_tier_locked, vidmm/makeresident.c). Whichever the order of
 * the unpausing thread and the call, the copy reads the right bytes and the device stays
 * active; the old behaviour lost it to a page fault. */
/* rule: vidmm.gpummu-adapter-no-eviction-takes (the old code page-faulted the copy) */
static void pressure_never_evicts_what_queued_work_reads_make_resident_waits_for_it(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 44);
    const UINT32 sz = 256u << 10;
    D3DKMT_HANDLE a[16], b = 0;
    UINT n = 0;
    while (n < 16) { /* fill local and visible memory: the first that does not fit is b */
        D3DKMT_HANDLE h = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        if (renv_make_resident(e.device, &h, 1) == STATUS_NO_MEMORY) {
            b = h;
            break;
        }
        a[n++] = h;
    }
    assert_true(b != 0 && n >= 2);
    D3DGPU_VIRTUAL_ADDRESS mid_va = renv_map(e.device, a[0], BYTES / 4096, true);
    D3DGPU_VIRTUAL_ADDRESS d1 = mid_va, s1 = v.src_va;
    assert_int_equal(vdev_copies(&v, &d1, &s1, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context); /* a[0] holds pattern(44) */
    wddm_swgpu_set_paused(1);
    D3DGPU_VIRTUAL_ADDRESS d2 = v.rb_va, s2 = mid_va;
    assert_int_equal(vdev_copies(&v, &d2, &s2, 1), STATUS_SUCCESS); /* reads a[0], not run yet */
    assert_int_equal(renv_evict(e.device, &a[0], 1), STATUS_SUCCESS); /* its only victim: a[0] */
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, unpause_later, NULL), 0);
    NTSTATUS st = renv_make_resident(e.device, &b, 1);
    pthread_join(t, NULL);
    assert_true(NT_SUCCESS(st));
    renv_finish(e.device, e.context);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    vdev_check(&v, 44);
}

/* MakeResident's PagingFenceValue covers every paging operation the call queued, also the page
 * table update that makes the PTEs of an allocation placed before (by a Lock2) Valid: until it
 * passed, the VA still faults. With the paging engine paused the call is pending on a fence
 * not reached yet; once it passed, a copy through the VA works. */
/* rule: vidmm.makeresident-pagingfencevalue-covers */
static void make_resident_of_a_placed_allocation_waits_for_its_page_table_update(void **state)
{
    (void)state;
    struct vdev v;
    vdev_open(&v, e.device, e.context, 33);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, BYTES);
    D3DGPU_VIRTUAL_ADDRESS up_va = renv_map(e.device, up, BYTES / 4096, false);
    void *p = renv_lock2(e.device, up);
    renv_pattern(p, BYTES, 33);
    renv_unlock2(e.device, up);
    assert_int_not_equal(place_of(up), 0); /* placed by the lock, PTEs not Valid */
    renv_finish(e.device, e.context);
    wddm_swgpu_set_paused(1);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &up };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    wddm_swgpu_set_paused(0);
    assert_int_equal(st, STATUS_PENDING);
    assert_true(mr.PagingFenceValue != 0);
    D3DGPU_VIRTUAL_ADDRESS d = v.rb_va, s = up_va;
    renv_finish(e.device, e.context); /* the paging node ran the update meanwhile */
    assert_int_equal(vdev_copies(&v, &d, &s, 1), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    vdev_check(&v, 33);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(va_copy_through_a_command_buffer_in_gpu_virtual_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(a_mapping_beyond_the_root_grows_it_and_every_va_keeps_working, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(an_idle_node_takes_the_packet_from_the_caller_unless_a_page_table_write_is_pending,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(eviction_and_restore_move_the_allocation_and_the_va_keeps_working, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(never_resident_access_faults_and_loses_only_that_device, setup, teardown),
        cmocka_unit_test_setup_teardown(placed_without_make_resident_still_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(write_through_a_read_only_mapping_faults_as_a_write, setup, teardown),
        cmocka_unit_test_setup_teardown(evict_lets_the_allocation_leave_only_after_the_work_submitted_before, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(destruction_waits_for_the_work_submitted_before, setup, teardown),
        cmocka_unit_test_setup_teardown(destruction_waits_for_packets_held_behind_a_gpu_wait, setup, teardown),
        cmocka_unit_test_setup_teardown(make_resident_under_pressure_fails_atomically, small_setup, small_teardown),
        cmocka_unit_test_setup_teardown(pressure_never_evicts_what_queued_work_reads_make_resident_waits_for_it,
                                        small_setup, small_teardown),
        cmocka_unit_test_setup_teardown(make_resident_of_a_placed_allocation_waits_for_its_page_table_update, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
