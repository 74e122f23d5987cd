/* The timeline (issue 18, include/wddm/wddm.h, docs/timeline.md): a run through the whole stack,
 * written as trace-event JSON and read back with a JSON parser, shows the lanes GPUView shows —
 * every DMA buffer on its engine lane with its fence and context, the same packet on its context
 * queue's lane, the paging buffers, the CPU thread's Map and submission spans, VidMm's evictions
 * and page-ins and the segments' use as counters — and records nothing while it is off. Local
 * memory is 2 + 2 MiB (set before the adapter starts) so render targets are evicted. Both driver
 * models (scripts/test.sh). */
#include "e2e.h"

#include <json.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wddm/wddm.h>

enum { RT = 8, SIDE = 512 }; /* 8 render targets of 1 MiB */

struct trace {
    json_object *root;
    json_object *events; /* the traceEvents array */
};

static struct trace write_and_parse(void)
{
    char path[] = "/tmp/wddm_timeline_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(wddm_timeline_write(path), STATUS_SUCCESS);
    struct trace t = { .root = json_object_from_file(path) };
    unlink(path);
    if (!t.root)
        fail_msg("the timeline is not valid JSON: %s", json_util_get_last_err());
    assert_true(json_object_object_get_ex(t.root, "traceEvents", &t.events));
    assert_true(json_object_is_type(t.events, json_type_array));
    return t;
}

static const char *str(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static int64_t num(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

static double dbl(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : -1.0;
}

static json_object *args(json_object *o)
{
    json_object *v;
    return json_object_object_get_ex(o, "args", &v) ? v : NULL;
}

/* The name metadata gave lane (pid, tid), or NULL. */
static const char *lane_name(const struct trace *t, int64_t pid, int64_t tid)
{
    size_t n = json_object_array_length(t->events);
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(t->events, i);
        const char *ph = str(e, "ph"), *name = str(e, "name");
        if (ph && !strcmp(ph, "M") && name && !strcmp(name, "thread_name") && num(e, "pid") == pid &&
            num(e, "tid") == tid)
            return str(args(e), "name");
    }
    return NULL;
}

static size_t count_events(const struct trace *t, const char *ph)
{
    size_t n = json_object_array_length(t->events), c = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = str(json_object_array_get_idx(t->events, i), "ph");
        c += p && !strcmp(p, ph);
    }
    return c;
}

static void make_work(struct e2e *e, ID3D11Texture2D **rt, ID3D11RenderTargetView **rtv, ID3D11Texture2D *stg)
{
    static const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < RT; i++) {
            ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv[i], color);
            ID3D11DeviceContext_Flush(e->ctx);
        }
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)rt[0]);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_int_equal(((const uint8_t *)m.pData)[0], 64); /* 0.25 in UNORM8, as the GPU cleared it */
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
}

static void create_targets(struct e2e *e, ID3D11Texture2D **rt, ID3D11RenderTargetView **rtv, ID3D11Texture2D **stg)
{
    D3D11_TEXTURE2D_DESC d = { .Width = SIDE, .Height = SIDE, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_RENDER_TARGET };
    for (int i = 0; i < RT; i++) {
        assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &d, NULL, &rt[i]), S_OK);
        assert_int_equal(ID3D11Device_CreateRenderTargetView(e->dev, (ID3D11Resource *)rt[i], NULL, &rtv[i]), S_OK);
    }
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &d, NULL, stg), S_OK);
}

static void release_targets(ID3D11Texture2D **rt, ID3D11RenderTargetView **rtv, ID3D11Texture2D **stg)
{
    for (int i = 0; i < RT; i++) {
        SAFE_RELEASE(rtv[i]);
        SAFE_RELEASE(rt[i]);
    }
    SAFE_RELEASE(*stg);
}

/* rule: common.every-dma-paging-buffer-appears-engine (both models; mutation-checked: without the START event no DMA buffer is drawn) */
/* rule: vidmm.vidmm-evictions-page-ins-renames-device (8 MiB of render targets through 4 MiB: evictions, page-ins and paging buffers present) */
/* rule: runtime.cpu-threads-show-map-flush-copyresource */
static void the_timeline_shows_every_lane_of_a_run(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *rt[RT], *stg;
    ID3D11RenderTargetView *rtv[RT];
    create_targets(e, rt, rtv, &stg);
    wddm_timeline_clear();
    wddm_timeline_enable(1);
    make_work(e, rt, rtv, stg);
    wddm_timeline_enable(0);
    struct trace t = write_and_parse();
    int64_t me = (int64_t)syscall(SYS_gettid);

    size_t n = json_object_array_length(t.events);
    size_t dma = 0, paging = 0, packets_matched = 0, maps = 0, renders = 0, evictions = 0, page_ins = 0, counters = 0;
    size_t clears = 0, copies = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t.events, i);
        const char *ph = str(ev, "ph"), *name = str(ev, "name");
        if (!ph || !name)
            fail_msg("event %zu has no ph or name", i);
        if (!strcmp(ph, "X") && !strncmp(name, "DMA buffer ", 11)) {
            const char *lane = lane_name(&t, num(ev, "pid"), num(ev, "tid"));
            assert_non_null(lane);
            assert_non_null(strstr(lane, "(engine)"));
            assert_true(dbl(ev, "dur") >= 0.0);
            assert_string_equal(str(args(ev), "status"), "completed");
            int64_t fence = num(args(ev), "fence");
            assert_true(fence > 0);
            const char *ctx = str(args(ev), "context");
            assert_non_null(ctx);
            assert_string_not_equal(ctx, "0x00000000");
            dma++;
            /* The same packet on its context's queue lane: in the hardware queue from before it
             * ran until it completed. */
            for (size_t j = 0; j < n; j++) {
                json_object *q = json_object_array_get_idx(t.events, j);
                const char *qn = str(q, "name"), *qph = str(q, "ph");
                if (qph && !strcmp(qph, "X") && qn && !strncmp(qn, "packet ", 7) && num(args(q), "fence") == fence &&
                    !strcmp(str(args(q), "context"), ctx)) {
                    const char *ql = lane_name(&t, num(q, "pid"), num(q, "tid"));
                    assert_non_null(ql);
                    assert_non_null(strstr(ql, "queue"));
                    assert_true(dbl(q, "ts") <= dbl(ev, "ts") + 0.001);
                    assert_true(dbl(q, "ts") + dbl(q, "dur") + 0.001 >= dbl(ev, "ts") + dbl(ev, "dur"));
                    packets_matched++;
                    break;
                }
            }
        } else if (!strcmp(ph, "X") && !strncmp(name, "paging buffer ", 14)) {
            paging++;
        } else if (!strcmp(ph, "B") && num(ev, "tid") == me) {
            assert_string_equal(lane_name(&t, num(ev, "pid"), me) ? "named" : "unnamed", "named");
            maps += !strcmp(name, "Map");
            renders += !strcmp(name, "Render (submit)");
            clears += !strcmp(name, "ClearRenderTargetView");
            copies += !strcmp(name, "CopyResource");
        } else if (!strcmp(ph, "i")) {
            evictions += !strcmp(name, "evict");
            page_ins += !strcmp(name, "page in");
        } else if (!strcmp(ph, "C")) {
            assert_true(num(args(ev), "bytes") >= 0);
            counters++;
        }
    }
    /* 16 clears and a copy, each flushed on its own: one DMA buffer each at least. */
    if (dma < 2 * RT || packets_matched != dma || maps != 1 || renders < 2 * RT || counters == 0 ||
        clears != 2 * RT || copies != 1)
        fail_msg("DMA buffers %zu (matched on a queue lane %zu), Map spans %zu, submissions %zu, counters %zu, "
                 "clears %zu, copies %zu", dma, packets_matched, maps, renders, counters, clears, copies);
    /* 8 MiB of render targets through 4 MiB of video memory: VidMm evicted and paged back in
     * (paging buffers on the paging engine carried the copies). */
    if (!evictions || !page_ins || !paging)
        fail_msg("evictions %zu, page-ins %zu, paging buffers %zu", evictions, page_ins, paging);
    /* Every span the CPU began, it ended. */
    assert_int_equal(count_events(&t, "B"), count_events(&t, "E"));
    json_object_put(t.root);
    release_targets(rt, rtv, &stg);
}

/* rule: common.off-default-while-off-nothing-recorded */
static void nothing_is_recorded_while_the_timeline_is_off(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *rt[RT], *stg;
    ID3D11RenderTargetView *rtv[RT];
    create_targets(e, rt, rtv, &stg);
    wddm_timeline_enable(0);
    wddm_timeline_clear();
    make_work(e, rt, rtv, stg);
    struct trace t = write_and_parse();
    /* Only the names of the processes: no lane, no event. */
    size_t n = json_object_array_length(t.events);
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t.events, i);
        if (strcmp(str(ev, "ph"), "M") || strcmp(str(ev, "name"), "process_name"))
            fail_msg("event %zu (%s %s) recorded while the timeline was off", i, str(ev, "ph"), str(ev, "name"));
    }
    json_object_put(t.root);
    release_targets(rt, rtv, &stg);
}

/* Synchronization and budgets: a reservation change is a counter on the adapter; in the GpuMmu
 * model the UMD's monitored fence is signalled by the GPU after every submission, and each
 * signal is on the fences lane with its object and value. */
/* rule: sched.each-monitored-fence-value-gpu-writes (both models; the GpuMmu UMD's fence; mutation-checked) */
static void fence_signals_and_reservations_are_on_the_timeline(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *rt[RT], *stg;
    ID3D11RenderTargetView *rtv[RT];
    create_targets(e, rt, rtv, &stg);
    D3DKMT_ADAPTERINFO ai[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 1, .pAdapters = ai };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    wddm_timeline_clear();
    wddm_timeline_enable(1);
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION r = { .hAdapter = ai[0].hAdapter,
                                              .MemorySegmentGroup = D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL,
                                              .Reservation = 1u << 20 };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&r), STATUS_SUCCESS);
    make_work(e, rt, rtv, stg);
    r.Reservation = 0;
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&r), STATUS_SUCCESS);
    wddm_timeline_enable(0);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = ai[0].hAdapter };
    (void)D3DKMTCloseAdapter(&ca);
    struct trace t = write_and_parse();
    size_t n = json_object_array_length(t.events), reservations = 0, signals = 0;
    int64_t last_reserved = -1;
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t.events, i);
        const char *ph = str(ev, "ph"), *name = str(ev, "name");
        if (!strcmp(ph, "C") && !strcmp(name, "local reservation bytes")) {
            reservations++;
            last_reserved = num(args(ev), "bytes");
            if (reservations == 1)
                assert_int_equal(last_reserved, 1 << 20);
        } else if (!strcmp(ph, "i") && !strcmp(name, "GPU signal")) {
            const char *lane = lane_name(&t, num(ev, "pid"), num(ev, "tid"));
            assert_non_null(lane);
            assert_non_null(strstr(lane, "monitored fences"));
            assert_true(num(args(ev), "value") > 0);
            signals++;
        }
    }
    assert_int_equal(reservations, 2);
    assert_int_equal(last_reserved, 0);
    if (e2e_gpummu() == 1 && signals == 0)
        fail_msg("GpuMmu model: the UMD's monitored fence signals are not on the timeline");
    json_object_put(t.root);
    release_targets(rt, rtv, &stg);
}

/* rule: common.wddm-timeline-write-null-empty-path */
static void write_refuses_a_missing_path_or_an_unwritable_file(void **state)
{
    (void)state;
    assert_int_equal(wddm_timeline_write(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_timeline_write(""), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_timeline_write("/nonexistent-folder/t.json"), STATUS_ACCESS_DENIED);
}

/* Spans a thread's lane counts by name (B events on this thread). */
static size_t spans_named(const struct trace *t, const char *want)
{
    int64_t me = (int64_t)syscall(SYS_gettid);
    size_t n = json_object_array_length(t->events), c = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t->events, i);
        const char *ph = str(ev, "ph"), *name = str(ev, "name");
        c += ph && name && !strcmp(ph, "B") && num(ev, "tid") == me && !strcmp(name, want);
    }
    return c;
}

/* The rest of the API a program spends time in is on its thread's lane too: view creation, a
 * query's End and GetData polls, and a deferred context's recording (its copy, then
 * FinishCommandList) before the immediate context executes it (issue 18 §1). */
/* rule: runtime.cpu-threads-show-map-flush-copyresource (mutation-checked: a deferred context's untraced copy fails it) */
static void views_queries_and_deferred_recording_are_spans(void **state)
{
    struct e2e *e = *state;
    D3D11_TEXTURE2D_DESC d = { .Width = 64, .Height = 64, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                               .Usage = D3D11_USAGE_DEFAULT,
                               .BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture2D *a = NULL, *b = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &d, NULL, &a), S_OK);
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &d, NULL, &b), S_OK);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), S_OK);
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);

    wddm_timeline_clear();
    wddm_timeline_enable(1);
    ID3D11RenderTargetView *rtv = NULL;
    ID3D11ShaderResourceView *srv = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(e->dev, (ID3D11Resource *)a, NULL, &rtv), S_OK);
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)a, NULL, &srv), S_OK);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)b, (ID3D11Resource *)a);
    ID3D11CommandList *list = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &list), S_OK);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, list, FALSE);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    /* Wait unrecorded, then record the poll that answers: one GetData span (runs of polls are
     * repeated_polls_of_one_query_are_one_span's). */
    wddm_timeline_enable(0);
    while (ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0) == S_FALSE)
        ;
    wddm_timeline_enable(1);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0), S_OK);
    wddm_timeline_enable(0);
    struct trace t = write_and_parse();

    if (spans_named(&t, "Create view") != 2 || spans_named(&t, "CopyResource") != 1 ||
        spans_named(&t, "FinishCommandList") != 1 || spans_named(&t, "ExecuteCommandList") != 1 ||
        spans_named(&t, "End (query)") != 1 || spans_named(&t, "GetData") != 1)
        fail_msg("Create view %zu, CopyResource (deferred) %zu, FinishCommandList %zu, ExecuteCommandList %zu, "
                 "End %zu, GetData %zu", spans_named(&t, "Create view"), spans_named(&t, "CopyResource"),
                 spans_named(&t, "FinishCommandList"), spans_named(&t, "ExecuteCommandList"),
                 spans_named(&t, "End (query)"), spans_named(&t, "GetData"));
    assert_int_equal(count_events(&t, "B"), count_events(&t, "E"));
    json_object_put(t.root);

    SAFE_RELEASE(list);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(q);
    SAFE_RELEASE(srv);
    SAFE_RELEASE(rtv);
    SAFE_RELEASE(b);
    SAFE_RELEASE(a);
}

/* A packet that waits in its context's software queue before the hardware queue takes it shows
 * that wait on its context's lane ("queued N"), ending where its hardware-queue span ("packet N")
 * begins (issue 18 §1: GPUView's software and hardware queues). The GPU is paused while 24
 * packets are submitted: the hardware queue holds at most 15, the rest wait. */
/* rule: common.every-dma-paging-buffer-appears-engine (24 packets with the GPU paused; mutation-checked: without WDDM_TL_QUEUED none is drawn) */
static void packets_waiting_in_the_software_queue_are_spans(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *rt[RT], *stg;
    ID3D11RenderTargetView *rtv[RT];
    create_targets(e, rt, rtv, &stg);
    static const float color[4] = { 0.5f, 0.5f, 0.5f, 1.0f };
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), S_OK);
    ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv[0], color); /* resident before the pause */
    ID3D11DeviceContext_Flush(e->ctx);

    wddm_timeline_clear();
    wddm_timeline_enable(1);
    wddm_swgpu_set_paused(1);
    for (int i = 0; i < 24; i++) {
        ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv[0], color);
        ID3D11DeviceContext_Flush(e->ctx);
    }
    wddm_swgpu_set_paused(0);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    /* The polls fill this thread's ring only; the queue spans come from the kernel's threads. */
    while (ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0) != S_OK)
        ;
    wddm_timeline_enable(0);
    struct trace t = write_and_parse();

    size_t n = json_object_array_length(t.events), queued = 0, matched = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t.events, i);
        const char *ph = str(ev, "ph"), *name = str(ev, "name");
        if (!ph || strcmp(ph, "X") || !name || strncmp(name, "queued ", 7))
            continue;
        queued++;
        const char *lane = lane_name(&t, num(ev, "pid"), num(ev, "tid"));
        assert_non_null(lane);
        assert_non_null(strstr(lane, "queue"));
        assert_string_equal(str(args(ev), "status"), "software queue");
        int64_t fence = num(args(ev), "fence");
        for (size_t j = 0; j < n; j++) {
            json_object *p = json_object_array_get_idx(t.events, j);
            const char *pn = str(p, "name"), *pph = str(p, "ph");
            if (pph && !strcmp(pph, "X") && pn && !strncmp(pn, "packet ", 7) && num(args(p), "fence") == fence &&
                num(p, "tid") == num(ev, "tid")) {
                assert_true(dbl(ev, "ts") + dbl(ev, "dur") <= dbl(p, "ts") + 0.001);
                matched++;
                break;
            }
        }
    }
    if (queued < 24 - 15 || matched != queued)
        fail_msg("software-queue spans %zu (matched to their hardware-queue span %zu)", queued, matched);
    json_object_put(t.root);
    SAFE_RELEASE(q);
    release_targets(rt, rtv, &stg);
}

/* This thread's GetData spans, in order: each end event's polls and result (at most `max`). */
static size_t get_data_spans(const struct trace *t, int64_t *polls, const char **result, size_t max)
{
    int64_t me = (int64_t)syscall(SYS_gettid);
    size_t n = json_object_array_length(t->events), c = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *ev = json_object_array_get_idx(t->events, i);
        const char *ph = str(ev, "ph"), *name = str(ev, "name");
        if (!ph || strcmp(ph, "E") || !name || strcmp(name, "GetData") || num(ev, "tid") != me)
            continue;
        if (c < max) {
            polls[c] = num(args(ev), "polls");
            result[c] = str(args(ev), "result");
        }
        c++;
    }
    return c;
}

/* A program polling GetData thousands of times keeps one span per run of "not yet" answers of
 * one query, with the number of polls (issue 18 §1): 40 000 polls of a query behind a paused GPU
 * are 80 000 records uncoalesced, more than a thread's ring holds (32 768), which would lose the
 * spans before them (the query's End). A poll of another query, or an answer, starts a new span. */
/* rule: common.run-getdata-polls-one-query-answered (40 000 polls behind a paused GPU: one span of 40 000, then 3 of another query, then the rest; mutation-checked: without coalescing the ring keeps 16 384 one-poll spans and the End spans are lost; ignoring the query merges the runs) */
static void repeated_polls_of_one_query_are_one_span(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *rt[RT], *stg;
    ID3D11RenderTargetView *rtv[RT];
    create_targets(e, rt, rtv, &stg);
    static const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL, *q2 = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), S_OK);
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q2), S_OK);
    ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv[0], color); /* resident before the pause */
    ID3D11DeviceContext_Flush(e->ctx);

    wddm_timeline_clear();
    wddm_timeline_enable(1);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv[0], color);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q2);
    ID3D11DeviceContext_Flush(e->ctx);
    BOOL done = FALSE;
    enum { POLLS = 40000 };
    for (int i = 0; i < POLLS; i++)
        assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0), S_FALSE);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q2, &done, sizeof done, 0), S_FALSE);
    for (int i = 0; i < 5; i++)
        assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0), S_FALSE);
    wddm_swgpu_set_paused(0);
    HRESULT hr;
    while ((hr = ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0)) == S_FALSE)
        ;
    assert_int_equal(hr, S_OK);
    wddm_timeline_enable(0);
    struct trace t = write_and_parse();

    enum { MAX_SPANS = 4096 };
    static int64_t polls[MAX_SPANS];
    static const char *result[MAX_SPANS];
    size_t spans = get_data_spans(&t, polls, result, MAX_SPANS);
    /* 40 000 of q, 3 of q2, then 5 of q and those of the wait after the unpause while nothing
     * else is recorded in between (one run), then the answer. Once the GPU runs again a poll
     * may do more (the GpuMmu UMD's poll can wait on its fence, a span of its own inside the
     * poll): such a poll is a span of its own, so only the runs behind the paused GPU have
     * exact counts. */
    if (spans < 4 || spans > MAX_SPANS || polls[0] != POLLS || polls[1] != 3 || polls[2] < 5 ||
        polls[spans - 1] != 1)
        fail_msg("GetData spans %zu, polls %lld %lld %lld ... %lld", spans, (long long)polls[0],
                 (long long)(spans > 1 ? polls[1] : -1), (long long)(spans > 2 ? polls[2] : -1),
                 (long long)(spans ? polls[spans < MAX_SPANS ? spans - 1 : MAX_SPANS - 1] : -1));
    for (size_t i = 0; i + 1 < spans; i++) {
        assert_string_equal(result[i], "0x00000001"); /* S_FALSE */
        assert_true(polls[i] >= 1);
    }
    assert_string_equal(result[spans - 1], "0x00000000");
    /* What came before the polls is still there, and every span is closed. */
    assert_int_equal(spans_named(&t, "End (query)"), 2);
    assert_int_equal(spans_named(&t, "ClearRenderTargetView"), 1);
    assert_int_equal(count_events(&t, "B"), count_events(&t, "E"));
    json_object_put(t.root);
    SAFE_RELEASE(q2);
    SAFE_RELEASE(q);
    release_targets(rt, rtv, &stg);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "2", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_timeline_shows_every_lane_of_a_run, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(nothing_is_recorded_while_the_timeline_is_off, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(fence_signals_and_reservations_are_on_the_timeline, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(views_queries_and_deferred_recording_are_spans, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(packets_waiting_in_the_software_queue_are_spans, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(repeated_polls_of_one_query_are_one_span, e2e_setup, e2e_teardown),
        cmocka_unit_test(write_refuses_a_missing_path_or_an_unwritable_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
