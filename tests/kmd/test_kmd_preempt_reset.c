/* The reference KMD's preemption and recovery DDIs (issue 4; docs/semantics.md §6.2, §8.2
 * invariant 4, §8.3), driven through its DDI table against the fake kernel of kmd_test_util.h:
 * caps, DxgkDdiPreemptCommand answered by DXGK_INTERRUPT_DMA_PREEMPTED, mid-buffer preemption
 * through the context save area and resumption on resubmission, DxgkDdiResetEngine,
 * DxgkDdiQueryEngineStatus, DxgkDdiQueryDependentEngineGroup, DxgkDdiResetFromTimeout /
 * DxgkDdiRestartFromTimeout, and refusal of bad arguments. Assertions are on notifications,
 * fences and data, never on time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kmd/kmd_test_util.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <wddm/swgpu.h>

#define REG (64u * 1024u)
#define K 12u
#define SLOW_BW (4ull << 20) /* 64 KiB per command: ~16 ms a command */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static struct swgpu *gpu(void)
{
    return ((struct swkmd_adapter *)fk.adapter)->gpu;
}

/* ---- DMA buffers with segment addresses already in (as after DxgkDdiPatch) -------------- */
struct dma {
    BYTE *buf;
    UINT32 len;
};

static void dma_init(struct dma *d)
{
    d->buf = aligned_alloc(4096, 16384);
    memset(d->buf, 0, 16384);
    d->len = 0;
}

static void dma_copy(struct dma *d, UINT64 dst, UINT64 src, UINT32 n)
{
    struct swgpu_cmd_copy c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_COPY;
    c.hdr.size_bytes = sizeof c;
    c.dst.addr = dst;
    c.src.addr = src;
    c.row_bytes = n;
    c.rows = 1;
    c.slices = 1;
    memcpy(d->buf + d->len, &c, sizeof c);
    d->len += sizeof c;
}

static void dma_fill(struct dma *d, UINT64 dst, UINT32 n, BYTE v)
{
    struct swgpu_cmd_fill f = swgpu_cmd_fill_bytes(n, &v, 1);
    f.dst.addr = dst;
    memcpy(d->buf + d->len, &f, sizeof f);
    d->len += sizeof f;
}

static UINT64 vis(UINT64 off)
{
    return SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_VISIBLE) + off;
}

static const BYTE *vis_host(void)
{
    return swgpu_segment_host(gpu(), SWKMD_SEGMENT_VISIBLE);
}

static void submit(UINT32 node, HANDLE ctx, const struct dma *d, UINT32 fence, int paging, int resubmission)
{
    DXGKARG_SUBMITCOMMAND s;
    memset(&s, 0, sizeof s);
    s.hContext = ctx;
    s.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)(d ? d->buf : NULL);
    s.DmaBufferSize = d ? d->len : 0;
    s.DmaBufferSubmissionEndOffset = d ? d->len : 0;
    s.SubmissionFenceId = fence;
    s.NodeOrdinal = node;
    s.Flags.Paging = paging ? 1 : 0;
    s.Flags.Resubmission = resubmission ? 1 : 0;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommand(fk.adapter, &s), STATUS_SUCCESS);
}

static void wait_hung(UINT32 node)
{
    while (!swgpu_engine_hung(gpu(), node))
        sleep_ms(1);
}

static NTSTATUS preempt(UINT32 node, UINT32 engine, UINT32 fence, UINT32 flags)
{
    DXGKARG_PREEMPTCOMMAND p;
    memset(&p, 0, sizeof p);
    p.PreemptionFenceId = fence;
    p.NodeOrdinal = node;
    p.EngineOrdinal = engine;
    p.Flags.Value = flags;
    return fk.ddi.DxgkDdiPreemptCommand(fk.adapter, &p);
}

static UINT32 engine_status(UINT32 node)
{
    DXGKARG_QUERYENGINESTATUS q;
    memset(&q, 0, sizeof q);
    q.NodeOrdinal = node;
    assert_int_equal(fk.ddi.DxgkDdiQueryEngineStatus(fk.adapter, &q), STATUS_SUCCESS);
    return q.EngineStatus.Responsive;
}

static UINT32 current_fence(UINT32 node)
{
    DXGKARG_QUERYCURRENTFENCE q = {node, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiQueryCurrentFence(fk.adapter, &q), STATUS_SUCCESS);
    return q.CurrentFence;
}

/* Index of the first event of `type` on `node` with `fence` (FK_MAX_EVENTS: none). */
static UINT32 find_event(DXGK_INTERRUPT_TYPE type, UINT32 node, UINT32 fence)
{
    pthread_mutex_lock(&fk.isr_lock);
    UINT32 i = 0;
    for (; i < fk.nevents; i++)
        if (fk.events[i].type == type && fk.events[i].node == node && fk.events[i].fence == fence)
            break;
    UINT32 r = i < fk.nevents ? i : FK_MAX_EVENTS;
    pthread_mutex_unlock(&fk.isr_lock);
    return r;
}

/* ---- device and context with a save area ---------------------------------------------------- */
static HANDLE g_dev, g_ctx;
static HANDLE g_csa;        /* the KMD's handle of the context's save area */
static BYTE *g_csa_page;    /* its system page, mapped at aperture page CSA_PAGE */
#define CSA_PAGE 5u

static void run_paging_op(DXGKARG_BUILDPAGINGBUFFER *op, UINT32 fence)
{
    struct dma d;
    dma_init(&d);
    op->pDmaBuffer = d.buf;
    op->DmaSize = 16384;
    op->MultipassOffset = 0;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, op), STATUS_SUCCESS);
    d.len = (UINT32)((BYTE *)op->pDmaBuffer - d.buf);
    submit(SWKMD_NODE_COPY, NULL, &d, fence, 1, 0);
    fk_wait_completed(SWKMD_NODE_COPY, fence);
    free(d.buf);
}

/* fk_start with context allocations, a device, a 3-D context whose save area is made resident
 * (MAP_APERTURE_SEGMENT) and initialised (INIT_CONTEXT_RESOURCE) as VidMm does (seed 000). */
static int setup(void **state)
{
    fk_context_allocations = 1;
    fk_last_context_allocation = NULL;
    assert_int_equal(fk_start(), STATUS_SUCCESS);
    DXGK_DEVICEINFO di;
    DXGKARG_CREATEDEVICE cd;
    memset(&cd, 0, sizeof cd);
    cd.pInfo = &di;
    static int kernel_device, kernel_context;
    cd.hDevice = &kernel_device;
    assert_int_equal(fk.ddi.DxgkDdiCreateDevice(fk.adapter, &cd), STATUS_SUCCESS);
    g_dev = cd.hDevice;
    DXGKARG_CREATECONTEXT cc;
    memset(&cc, 0, sizeof cc);
    cc.NodeOrdinal = SWKMD_NODE_3D;
    cc.hContext = &kernel_context;
    assert_int_equal(fk.ddi.DxgkDdiCreateContext(g_dev, &cc), STATUS_SUCCESS);
    g_ctx = cc.hContext;
    g_csa = fk_last_context_allocation;
    assert_non_null(g_csa);

    g_csa_page = aligned_alloc(4096, 4096);
    memset(g_csa_page, 0xEE, 4096); /* garbage: INIT must clear the record */
    PFN_NUMBER pfn = (uintptr_t)g_csa_page >> 12;
    static MDL mdl;
    mdl = (MDL){g_csa_page, 0, 4096, 1, NULL};
    mdl.PfnArray = &pfn;
    DXGKARG_BUILDPAGINGBUFFER op;
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    op.MapApertureSegment.hAllocation = g_csa;
    op.MapApertureSegment.SegmentId = SWKMD_SEGMENT_APERTURE;
    op.MapApertureSegment.OffsetInPages = CSA_PAGE;
    op.MapApertureSegment.NumberOfPages = 1;
    op.MapApertureSegment.pMdl = &mdl;
    run_paging_op(&op, 1);
    memset(&op, 0, sizeof op);
    op.Operation = DXGK_OPERATION_INIT_CONTEXT_RESOURCE;
    op.InitContextResource.hAllocation = g_csa;
    op.InitContextResource.Destination.SegmentId = SWKMD_SEGMENT_APERTURE;
    op.InitContextResource.Destination.SegmentAddress.QuadPart =
        (LONGLONG)(SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_APERTURE) + CSA_PAGE * 4096ull);
    op.InitContextResource.Destination.VirtualAddress = g_csa_page;
    struct dma d;
    dma_init(&d);
    op.pDmaBuffer = d.buf;
    op.DmaSize = 16384;
    assert_int_equal(fk.ddi.DxgkDdiBuildPagingBuffer(fk.adapter, &op), STATUS_SUCCESS);
    free(d.buf);
    return 0;
}

static int teardown(void **state)
{
    wddm_swgpu_set_bandwidth(0);
    fk.ddi.DxgkDdiDestroyContext(g_ctx);
    fk.ddi.DxgkDdiDestroyDevice(g_dev);
    fk_stop();
    free(g_csa_page);
    fk_context_allocations = 0;
    return 0;
}

static struct swgpu_csa_record csa_record(void)
{
    struct swgpu_csa_record r;
    memcpy(&r, g_csa_page + SWKMD_CSA_RECORD_OFFSET, sizeof r);
    return r;
}

/* A = 1 at offset 0; for i < K: COPY A -> D_i, FILL A = i + 2 (D_i = i + 1 when run once). */
static void build_sequence(struct dma *d)
{
    dma_init(d);
    for (UINT32 i = 0; i < K; i++) {
        dma_copy(d, vis((UINT64)(i + 1) * REG), vis(0), REG);
        dma_fill(d, vis(0), REG, (BYTE)(i + 2));
    }
}

static void prepare_sequence_data(UINT32 fence)
{
    struct dma d;
    dma_init(&d);
    dma_fill(&d, vis(0), REG, 1);
    dma_fill(&d, vis(REG), REG * K, 0);
    submit(SWKMD_NODE_3D, g_ctx, &d, fence, 0, 0);
    fk_wait_completed(SWKMD_NODE_3D, fence);
    free(d.buf);
}

static int sequence_result_is_right(void)
{
    for (UINT32 i = 0; i < K; i++)
        for (UINT32 b = 0; b < REG; b += 509)
            if (vis_host()[(UINT64)(i + 1) * REG + b] != (BYTE)(i + 1))
                return 0;
    return 1;
}

/* ---- tests ---------------------------------------------------------------------------------- */
/* rule: kmd.caps-defaults-schedulingcaps */
static void caps_declare_primitive_preemption_and_per_engine_tdr(void **state)
{
    DXGK_DRIVERCAPS caps;
    DXGKARG_QUERYADAPTERINFO q = {DXGKQAITYPE_DRIVERCAPS, NULL, 0, &caps, sizeof caps, 0, NULL};
    assert_int_equal(fk.ddi.DxgkDdiQueryAdapterInfo(fk.adapter, &q), STATUS_SUCCESS);
    assert_int_equal(caps.SchedulingCaps.PreemptionAware, 1);
    assert_int_equal(caps.SchedulingCaps.MultiEngineAware, 1); /* PreemptionAware => MultiEngineAware */
    assert_int_equal(caps.SchedulingCaps.HwQueuePacketCap, 15);
    assert_int_equal(caps.PreemptionCaps.GraphicsPreemptionGranularity, D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY);
    assert_int_equal(caps.PreemptionCaps.ComputePreemptionGranularity, D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY);
    assert_int_equal(caps.SupportPerEngineTDR, TRUE);
    /* SupportPerEngineTDR makes these three mandatory (docs/semantics.md §6.3); PreemptionAware
     * PreemptCommand; recovery the adapter-reset pair. */
    assert_non_null(fk.ddi.DxgkDdiQueryDependentEngineGroup);
    assert_non_null(fk.ddi.DxgkDdiQueryEngineStatus);
    assert_non_null(fk.ddi.DxgkDdiResetEngine);
    assert_non_null(fk.ddi.DxgkDdiPreemptCommand);
    assert_non_null(fk.ddi.DxgkDdiResetFromTimeout);
    assert_non_null(fk.ddi.DxgkDdiRestartFromTimeout);
}

/* rule: kmd.dxgkddipreemptcommand-answered-dxgk */
static void idle_node_answers_preempt_command_with_dma_preempted(void **state)
{
    submit(SWKMD_NODE_COPY, NULL, NULL, 2, 0, 0); /* an empty buffer: fence 2 completes */
    fk_wait_completed(SWKMD_NODE_COPY, 2);
    assert_int_equal(preempt(SWKMD_NODE_COPY, 0, 3, 0), STATUS_SUCCESS);
    fk_wait_preempted(SWKMD_NODE_COPY, 1);
    pthread_mutex_lock(&fk.isr_lock);
    assert_int_equal(fk.preempted_fence[SWKMD_NODE_COPY], 3);
    assert_int_equal(fk.preempted_last_completed[SWKMD_NODE_COPY], 2);
    assert_int_equal(fk.preempted_engine[SWKMD_NODE_COPY], 0);
    assert_int_equal(fk.preempted_count[SWKMD_NODE_3D], 0);
    pthread_mutex_unlock(&fk.isr_lock);
    /* DMA_COMPLETED of the last fence came before the DMA_PREEMPTED that names it. */
    assert_true(find_event(DXGK_INTERRUPT_DMA_COMPLETED, SWKMD_NODE_COPY, 2) <
                find_event(DXGK_INTERRUPT_DMA_PREEMPTED, SWKMD_NODE_COPY, 3));
}

/* rule: kmd.csa-holds-gpu-save-record-swkmd */
static void mid_buffer_preemption_saves_to_the_csa_and_resubmission_resumes(void **state)
{
    /* The record starts cleared by INIT_CONTEXT_RESOURCE (the page was garbage). */
    assert_int_equal(csa_record().magic, 0);
    struct dma d;
    build_sequence(&d);
    prepare_sequence_data(1);

    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu(), SWKMD_NODE_3D);
    submit(SWKMD_NODE_3D, g_ctx, &d, 2, 0, 0);
    while (swgpu_engine_progress(gpu(), SWKMD_NODE_3D) < p0 + 3)
        sleep_ms(1);
    assert_int_equal(preempt(SWKMD_NODE_3D, 0, 3, 0), STATUS_SUCCESS);
    fk_wait_preempted(SWKMD_NODE_3D, 1);
    wddm_swgpu_set_bandwidth(0);

    pthread_mutex_lock(&fk.isr_lock);
    assert_int_equal(fk.preempted_fence[SWKMD_NODE_3D], 3);
    assert_int_equal(fk.preempted_last_completed[SWKMD_NODE_3D], 1); /* fence 2 was preempted */
    pthread_mutex_unlock(&fk.isr_lock);
    assert_int_equal(fk_completed(SWKMD_NODE_3D), 1);
    struct swgpu_csa_record r = csa_record();
    assert_int_equal(r.magic, SWGPU_CSA_RECORD_MAGIC); /* at SWKMD_CSA_RECORD_OFFSET in the CSA */
    assert_true(r.resume_offset > 0 && r.resume_offset < d.len);

    /* The scheduler resubmits it with a new fence and Resubmission. */
    submit(SWKMD_NODE_3D, g_ctx, &d, 4, 0, 1);
    fk_wait_completed(SWKMD_NODE_3D, 4);
    assert_true(sequence_result_is_right());
    assert_int_equal(csa_record().magic, 0);
    assert_int_equal(find_event(DXGK_INTERRUPT_DMA_COMPLETED, SWKMD_NODE_3D, 2), FK_MAX_EVENTS);
    free(d.buf);
}

/* rule: kmd.granularity-dma-buffer-boundary-makes */
static void dma_buffer_boundary_granularity_finishes_the_buffer(void **state)
{
    /* A user's WDDM_KMD_CAPS may declare DMA_BUFFER_BOUNDARY: PreemptCommand then lets the
     * running buffer finish. Restart the adapter with that file. */
    teardown(state);
    char path[] = "/tmp/kmd_preempt_capsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "DXGK_DRIVERCAPS.PreemptionCaps.GraphicsPreemptionGranularity = 100\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    setenv("WDDM_KMD_CAPS", path, 1);
    setup(state);
    unsetenv("WDDM_KMD_CAPS");
    unlink(path);

    struct dma d;
    build_sequence(&d);
    prepare_sequence_data(1);
    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu(), SWKMD_NODE_3D);
    submit(SWKMD_NODE_3D, g_ctx, &d, 2, 0, 0);
    while (swgpu_engine_progress(gpu(), SWKMD_NODE_3D) < p0 + 2)
        sleep_ms(1);
    assert_int_equal(preempt(SWKMD_NODE_3D, 0, 3, 0), STATUS_SUCCESS);
    fk_wait_preempted(SWKMD_NODE_3D, 1);
    wddm_swgpu_set_bandwidth(0);
    pthread_mutex_lock(&fk.isr_lock);
    assert_int_equal(fk.preempted_last_completed[SWKMD_NODE_3D], 2); /* finished */
    pthread_mutex_unlock(&fk.isr_lock);
    assert_int_equal(fk_completed(SWKMD_NODE_3D), 2);
    assert_true(sequence_result_is_right());
    assert_int_equal(csa_record().magic, 0);
    free(d.buf);
}

/* rule: kmd.dxgkddiresetengine-lastabortedfenceid */
/* rule: kmd.dxgkddiqueryenginestatus-responsive-0 */
static void reset_engine_returns_the_aborted_fence_and_never_completes_it(void **state)
{
    struct dma mark;
    dma_init(&mark);
    dma_fill(&mark, vis(0x100000), 4096, 0x5A);
    submit(SWKMD_NODE_3D, g_ctx, &mark, 1, 0, 0);
    fk_wait_completed(SWKMD_NODE_3D, 1);

    wddm_swgpu_inject_hang();
    submit(SWKMD_NODE_3D, g_ctx, &mark, 2, 0, 0); /* hangs */
    submit(SWKMD_NODE_3D, g_ctx, &mark, 3, 0, 0); /* queued behind */
    wait_hung(SWKMD_NODE_3D);
    assert_int_equal(engine_status(SWKMD_NODE_3D), 0); /* hung: unresponsive */
    assert_int_equal(engine_status(SWKMD_NODE_COPY), 1);

    DXGKARG_RESETENGINE r;
    memset(&r, 0, sizeof r);
    r.NodeOrdinal = SWKMD_NODE_3D;
    assert_int_equal(fk.ddi.DxgkDdiResetEngine(fk.adapter, &r), STATUS_SUCCESS);
    assert_int_equal(r.LastAbortedFenceId, 2); /* within [last completed, last submitted] */
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1);
    /* QueryCurrentFence reports under interrupt sync: the KMD already counts 2 as reported. */
    assert_int_equal(current_fence(SWKMD_NODE_3D), 2);

    /* The node takes new work; neither 2 nor 3 is ever reported completed. */
    submit(SWKMD_NODE_3D, g_ctx, &mark, 4, 0, 0);
    fk_wait_completed(SWKMD_NODE_3D, 4);
    assert_int_equal(find_event(DXGK_INTERRUPT_DMA_COMPLETED, SWKMD_NODE_3D, 2), FK_MAX_EVENTS);
    assert_int_equal(find_event(DXGK_INTERRUPT_DMA_COMPLETED, SWKMD_NODE_3D, 3), FK_MAX_EVENTS);
    free(mark.buf);
}

/* rule: kmd.dxgkddiqueryenginestatus-responsive-0 */
static void engine_status_is_responsive_when_idle_paused_or_progressing(void **state)
{
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1); /* idle */
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1);

    /* Paused with work queued: waiting, not hung, however often it is asked. */
    struct dma mark;
    dma_init(&mark);
    dma_fill(&mark, vis(0x100000), 4096, 0x5A);
    wddm_swgpu_set_paused(1);
    submit(SWKMD_NODE_3D, g_ctx, &mark, 1, 0, 0);
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1);
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1);
    wddm_swgpu_set_paused(0);
    fk_wait_completed(SWKMD_NODE_3D, 1);

    /* A slow buffer that finishes commands between two queries. */
    struct dma d;
    build_sequence(&d);
    wddm_swgpu_set_bandwidth(SLOW_BW);
    UINT64 p0 = swgpu_engine_progress(gpu(), SWKMD_NODE_3D);
    submit(SWKMD_NODE_3D, g_ctx, &d, 2, 0, 0);
    while (swgpu_engine_progress(gpu(), SWKMD_NODE_3D) < p0 + 1)
        sleep_ms(1);
    engine_status(SWKMD_NODE_3D);
    UINT64 p1 = swgpu_engine_progress(gpu(), SWKMD_NODE_3D);
    while (swgpu_engine_progress(gpu(), SWKMD_NODE_3D) == p1)
        sleep_ms(1);
    assert_int_equal(engine_status(SWKMD_NODE_3D), 1);
    wddm_swgpu_set_bandwidth(0);
    fk_wait_completed(SWKMD_NODE_3D, 2);
    free(d.buf);
    free(mark.buf);
}

/* rule: kmd.dxgkddiquerydependentenginegroup-each */
static void dependent_engine_group_is_the_node_alone(void **state)
{
    for (UINT32 n = 0; n < SWKMD_NODE_COUNT; n++) {
        DXGKARG_QUERYDEPENDENTENGINEGROUP q;
        memset(&q, 0, sizeof q);
        q.NodeOrdinal = n;
        q.DependentNodeOrdinalMask = ~0ull;
        assert_int_equal(fk.ddi.DxgkDdiQueryDependentEngineGroup(fk.adapter, &q), STATUS_SUCCESS);
        assert_true(q.DependentNodeOrdinalMask == (1ull << n));
    }
}

/* rule: kmd.dxgkddiresetfromtimeout-resets-every */
static void reset_from_timeout_completes_every_submitted_fence(void **state)
{
    struct dma mark;
    dma_init(&mark);
    dma_fill(&mark, vis(0x100000), 4096, 0x5A);
    wddm_swgpu_inject_hang();
    submit(SWKMD_NODE_3D, g_ctx, &mark, 1, 0, 0);
    submit(SWKMD_NODE_3D, g_ctx, &mark, 2, 0, 0);
    submit(SWKMD_NODE_3D, g_ctx, &mark, 3, 0, 0);
    wait_hung(SWKMD_NODE_3D);
    /* The paging node went up to fence 1 in setup; one more. */
    submit(SWKMD_NODE_COPY, NULL, NULL, 2, 1, 0);
    fk_wait_completed(SWKMD_NODE_COPY, 2);

    assert_int_equal(fk.ddi.DxgkDdiResetFromTimeout(fk.adapter), STATUS_SUCCESS);
    assert_int_equal(swgpu_last_completed_fence(gpu(), SWKMD_NODE_3D), 3);
    assert_int_equal(swgpu_last_completed_fence(gpu(), SWKMD_NODE_COPY), 2);
    assert_false(swgpu_engine_hung(gpu(), SWKMD_NODE_3D));
    assert_int_equal(current_fence(SWKMD_NODE_3D), 3);
    assert_int_equal(current_fence(SWKMD_NODE_COPY), 2);
    assert_int_equal(fk.ddi.DxgkDdiRestartFromTimeout(fk.adapter), STATUS_SUCCESS);

    /* Ready for new work at once. */
    submit(SWKMD_NODE_3D, g_ctx, &mark, 4, 0, 0);
    fk_wait_completed(SWKMD_NODE_3D, 4);
    assert_int_equal(vis_host()[0x100000], 0x5A);
    free(mark.buf);
}

/* rule: kmd.bad-node-engine-flags-null-wrong */
static void bad_arguments_are_refused(void **state)
{
    assert_int_equal(preempt(SWKMD_NODE_COUNT, 0, 9, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(preempt(0, 1, 9, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(preempt(0, 0, 9, 1), STATUS_INVALID_PARAMETER);
    assert_int_equal(fk.ddi.DxgkDdiPreemptCommand(fk.adapter, NULL), STATUS_INVALID_PARAMETER);
    DXGKARG_PREEMPTCOMMAND p;
    memset(&p, 0, sizeof p);
    assert_int_equal(fk.ddi.DxgkDdiPreemptCommand(g_dev, &p), STATUS_INVALID_PARAMETER); /* not an adapter */

    DXGKARG_RESETENGINE r = {SWKMD_NODE_COUNT, 0, 0};
    assert_int_equal(fk.ddi.DxgkDdiResetEngine(fk.adapter, &r), STATUS_INVALID_PARAMETER);
    r = (DXGKARG_RESETENGINE){0, 1, 0};
    assert_int_equal(fk.ddi.DxgkDdiResetEngine(fk.adapter, &r), STATUS_INVALID_PARAMETER);
    assert_int_equal(fk.ddi.DxgkDdiResetEngine(fk.adapter, NULL), STATUS_INVALID_PARAMETER);

    DXGKARG_QUERYENGINESTATUS s;
    memset(&s, 0, sizeof s);
    s.NodeOrdinal = SWKMD_NODE_COUNT;
    assert_int_equal(fk.ddi.DxgkDdiQueryEngineStatus(fk.adapter, &s), STATUS_INVALID_PARAMETER);
    s.NodeOrdinal = 0;
    s.EngineOrdinal = 2;
    assert_int_equal(fk.ddi.DxgkDdiQueryEngineStatus(fk.adapter, &s), STATUS_INVALID_PARAMETER);
    assert_int_equal(fk.ddi.DxgkDdiQueryEngineStatus(fk.adapter, NULL), STATUS_INVALID_PARAMETER);

    DXGKARG_QUERYDEPENDENTENGINEGROUP g;
    memset(&g, 0, sizeof g);
    g.NodeOrdinal = 7;
    assert_int_equal(fk.ddi.DxgkDdiQueryDependentEngineGroup(fk.adapter, &g), STATUS_INVALID_PARAMETER);
    assert_int_equal(fk.ddi.DxgkDdiQueryDependentEngineGroup(fk.adapter, NULL), STATUS_INVALID_PARAMETER);

    assert_int_equal(fk.ddi.DxgkDdiResetFromTimeout(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(fk.ddi.DxgkDdiRestartFromTimeout(g_dev), STATUS_INVALID_PARAMETER);

    /* Nothing was preempted or reset by the refused calls. */
    pthread_mutex_lock(&fk.isr_lock);
    assert_int_equal(fk.preempted_count[0] + fk.preempted_count[1], 0);
    pthread_mutex_unlock(&fk.isr_lock);
}

/* Inside DxgkDdiBeginExclusiveAccess ... EndExclusiveAccess the kernel calls no other DDI: the
 * reference KMD refuses a submission or a preemption there (nothing reaches the GPU), a second
 * begin, and an end without a begin; after the end it takes work again. */
/* rule: kmd.exclusive-access-window-silent */
static void nothing_runs_inside_an_exclusive_access(void **state)
{
    (void)state;
    DXGKARG_BEGINEXCLUSIVEACCESS b = { 0 };
    DXGKARG_ENDEXCLUSIVEACCESS e = { 0 };
    UINT32 done = fk_completed(SWKMD_NODE_COPY);
    assert_int_equal(fk.ddi.DxgkDdiEndExclusiveAccess(fk.adapter, &e), STATUS_INVALID_DEVICE_STATE);
    assert_int_equal(fk.ddi.DxgkDdiBeginExclusiveAccess(fk.adapter, &b), STATUS_SUCCESS);
    assert_int_equal(fk.ddi.DxgkDdiBeginExclusiveAccess(fk.adapter, &b), STATUS_INVALID_DEVICE_STATE);
    DXGKARG_SUBMITCOMMAND s;
    memset(&s, 0, sizeof s);
    s.SubmissionFenceId = done + 1;
    s.NodeOrdinal = SWKMD_NODE_COPY;
    assert_int_equal(fk.ddi.DxgkDdiSubmitCommand(fk.adapter, &s), STATUS_INVALID_DEVICE_STATE);
    DXGKARG_PREEMPTCOMMAND pc = { .PreemptionFenceId = 3, .NodeOrdinal = SWKMD_NODE_COPY };
    assert_int_equal(fk.ddi.DxgkDdiPreemptCommand(fk.adapter, &pc), STATUS_INVALID_DEVICE_STATE);
    assert_int_equal(fk_completed(SWKMD_NODE_COPY), done); /* nothing reached the GPU */
    assert_int_equal(fk.ddi.DxgkDdiEndExclusiveAccess(fk.adapter, &e), STATUS_SUCCESS);
    submit(SWKMD_NODE_COPY, NULL, NULL, done + 1, 0, 0);
    fk_wait_completed(SWKMD_NODE_COPY, done + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(caps_declare_primitive_preemption_and_per_engine_tdr, setup, teardown),
        cmocka_unit_test_setup_teardown(idle_node_answers_preempt_command_with_dma_preempted, setup, teardown),
        cmocka_unit_test_setup_teardown(mid_buffer_preemption_saves_to_the_csa_and_resubmission_resumes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(dma_buffer_boundary_granularity_finishes_the_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(reset_engine_returns_the_aborted_fence_and_never_completes_it, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(engine_status_is_responsive_when_idle_paused_or_progressing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(dependent_engine_group_is_the_node_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(reset_from_timeout_completes_every_submitted_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_arguments_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(nothing_runs_inside_an_exclusive_access, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
