/*
 * dxgi_debug.c - the DXGI debug layer (issue 15): DXGIGetDebugInterface1, the process's
 * IDXGIInfoQueue, IDXGIDebug / IDXGIDebug1, and where the DXGI objects' refusals go.
 *
 * One queue for the process, as on Windows (DXGI's debug interfaces are process-wide: every
 * DXGIGetDebugInterface1 call answers the same object). It keeps one message store per
 * producer (msg_store.c, the same store a debug device's ID3D11InfoQueue uses): DXGI_DEBUG_DXGI,
 * DXGI_DEBUG_APP, DXGI_DEBUG_D3D10, DXGI_DEBUG_D3D11, DXGI_DEBUG_D3D12 and DXGI_DEBUG_DX, each
 * with its own filters, count limit, counters, break settings and mute. The GUIDs are the
 * "DXGI_DEBUG_ID" reference page's (DXGI_DEBUG_APP ends 0x87, 0x09, ... as there; Wine's and
 * mingw-w64's headers spell that byte 0x90).
 *
 * DXGI_DEBUG_ALL (model decisions, docs/api.md "The DXGI info queue"): reading through it
 * covers every producer (GetMessage(DXGI_DEBUG_ALL, i) is the i-th message of all producers in
 * arrival order, each passing its producer's retrieval filter; the counters add up); writing
 * through it (filters, limit, clear, breaks, mute) writes every producer's; reading a setting
 * through it answers the DXGI producer's, which ALL writes keep equal to the others'.
 * AddMessage needs one producer; another GUID than the seven is refused (E_INVALIDARG).
 *
 * When messages are recorded (model decision written down in docs/api.md): the DXGI debug
 * layer is off until the process asks for it, by DXGIGetDebugInterface1, CreateDXGIFactory2
 * with DXGI_CREATE_FACTORY_DEBUG or creating a D3D10/D3D11 debug device (on Windows, each loads
 * the SDK layers, which then stay for the process); from then on every refusal of a DXGI object
 * (RT_REFUSE_DXGI) is a message under DXGI_DEBUG_DXGI, severity ERROR, and every message of a
 * debug device's queue is copied under DXGI_DEBUG_D3D11 (DXGI_DEBUG_D3D10 for a D3D10 device),
 * as Windows shows the debug layer's messages in the DXGI info queue.
 *
 * IDXGIDebug::ReportLiveObjects reports each live debug device (with its objects by kind) as
 * ID3D11Debug::ReportLiveDeviceObjects does (debug_layer.c), and a summary under DXGI_DEBUG_DXGI.
 * Objects of devices created without the debug flag are not counted by the runtime, so they are
 * not reported. Leak tracking is per thread (IDXGIDebug1): a debug device created on a thread
 * that disabled it is left out of ReportLiveObjects; a thread tracks leaks until it disables it.
 * The break settings break as a debug device's do (msg_store.c: SIGTRAP under a debugger).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "runtime/msg_store.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

const GUID DXGI_DEBUG_ALL = { 0xe48ae283, 0xda80, 0x490b, { 0x87, 0xe6, 0x43, 0xe9, 0xa9, 0xcf, 0xda, 0x08 } };
const GUID DXGI_DEBUG_DX = { 0x35cdd7fc, 0x13b2, 0x421d, { 0xa5, 0xd7, 0x7e, 0x44, 0x51, 0x28, 0x7d, 0x64 } };
const GUID DXGI_DEBUG_DXGI = { 0x25cddaa4, 0xb1c6, 0x47e1, { 0xac, 0x3e, 0x98, 0x87, 0x5b, 0x5a, 0x2e, 0x2a } };
const GUID DXGI_DEBUG_APP = { 0x06cd6e01, 0x4219, 0x4ebd, { 0x87, 0x09, 0x27, 0xed, 0x23, 0x36, 0x0c, 0x62 } };
const GUID DXGI_DEBUG_D3D10 = { 0x243b4c52, 0x3606, 0x4d3a, { 0x99, 0xd7, 0xa7, 0xe7, 0xb3, 0x3e, 0xd7, 0x06 } };
const GUID DXGI_DEBUG_D3D11 = { 0x4b99317b, 0xac39, 0x4aa6, { 0xbb, 0x0b, 0xba, 0xa0, 0x47, 0x84, 0x79, 0x8f } };
const GUID DXGI_DEBUG_D3D12 = { 0xcf59a98c, 0xa950, 0x4326, { 0x91, 0xef, 0x9b, 0xba, 0xa1, 0x7b, 0xfd, 0x95 } };

#define IFACE "IDXGIInfoQueue"

enum { P_DXGI, P_APP, P_D3D10, P_D3D11, P_D3D12, P_DX, PRODUCERS, P_ALL = PRODUCERS, P_UNKNOWN = -1 };
static const GUID *const producer_ids[PRODUCERS] = {
    &DXGI_DEBUG_DXGI, &DXGI_DEBUG_APP, &DXGI_DEBUG_D3D10, &DXGI_DEBUG_D3D11, &DXGI_DEBUG_D3D12, &DXGI_DEBUG_DX,
};
static const char *const producer_names[PRODUCERS] = { "DXGI", "APP", "D3D10", "D3D11", "D3D12", "DX" };

/* The DXGI info queue's and IDXGIDebug1's layouts are the D3D11 queue's (msg_store.c takes
 * D3D11_INFO_QUEUE_FILTER). */
_Static_assert(sizeof(DXGI_INFO_QUEUE_FILTER) == sizeof(D3D11_INFO_QUEUE_FILTER) &&
                   offsetof(DXGI_INFO_QUEUE_FILTER, DenyList) == offsetof(D3D11_INFO_QUEUE_FILTER, DenyList) &&
                   offsetof(DXGI_INFO_QUEUE_FILTER_DESC, pSeverityList) ==
                       offsetof(D3D11_INFO_QUEUE_FILTER_DESC, pSeverityList) &&
                   offsetof(DXGI_INFO_QUEUE_FILTER_DESC, pIDList) == offsetof(D3D11_INFO_QUEUE_FILTER_DESC, pIDList) &&
                   sizeof(DXGI_INFO_QUEUE_MESSAGE_ID) == sizeof(UINT) &&
                   sizeof(DXGI_INFO_QUEUE_MESSAGE_CATEGORY) == sizeof(UINT),
               "DXGI_INFO_QUEUE_FILTER is D3D11_INFO_QUEUE_FILTER's layout");
_Static_assert((UINT)DXGI_INFO_QUEUE_MESSAGE_CATEGORY_SHADER == RT_MSG_CATEGORY_MAX &&
                   (UINT)DXGI_INFO_QUEUE_MESSAGE_SEVERITY_MESSAGE == RT_MSG_SEVERITY_MAX,
               "DXGI's categories and severities are D3D11's values");
#define FILTER(f) ((D3D11_INFO_QUEUE_FILTER *)(f))

static const struct IDXGIInfoQueueVtbl info_queue_vtbl;
static const struct IDXGIDebug1Vtbl debug_vtbl;

/* The process's queue: one object with both faces, never freed (process-wide, as the SDK
 * layers stay loaded on Windows). */
static struct {
    IDXGIInfoQueue iface;
    IDXGIDebug1 debug;
    atomic_uint refs;               /* counted for the application; the object is static */
    pthread_mutex_t lock;           /* guards everything below */
    BOOL ready;
    struct rt_msg_store store[PRODUCERS];
    UINT64 seq;                     /* arrival order across the producers */
} dq = { .iface = { &info_queue_vtbl }, .debug = { &debug_vtbl }, .lock = PTHREAD_MUTEX_INITIALIZER };

static atomic_int debug_on;

/* The debug devices IDXGIDebug::ReportLiveObjects reports (created on a leak-tracking thread). */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_device **devices;
static size_t ndevices, devices_cap;

static _Thread_local BOOL leak_tracking_off; /* IDXGIDebug1: a thread tracks until it disables */

void rt_dxgi_debug_enable(void)
{
    atomic_store(&debug_on, 1);
}

/* The stores, made on first use. Caller holds dq.lock. */
static BOOL ready_locked(void)
{
    if (dq.ready)
        return TRUE;
    for (int p = 0; p < PRODUCERS; p++) {
        if (FAILED(rt_msg_store_init(&dq.store[p], producer_names[p]))) {
            while (p--)
                rt_msg_store_fini(&dq.store[p]);
            return FALSE;
        }
    }
    dq.ready = TRUE;
    return TRUE;
}

static void add(int p, UINT c, UINT s, UINT id, const char *text, BOOL quiet)
{
    BOOL brk = FALSE;
    pthread_mutex_lock(&dq.lock);
    if (ready_locked())
        (void)rt_msg_store_add(&dq.store[p], c, s, id, text, dq.seq++, quiet, &brk);
    pthread_mutex_unlock(&dq.lock);
    if (brk)
        wddm_debug_break();
}

void rt_refuse_dxgi(enum rt_dxgi_msg id, DXGI_INFO_QUEUE_MESSAGE_CATEGORY category, const char *fmt, ...)
{
    char text[224];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!atomic_load(&debug_on)) {
        rt_refuse(D3D11_MESSAGE_ID_UNKNOWN, "%s", text);
        return;
    }
    wddm_debug_note("runtime", text); /* the thread's last refusal; the queue prints it */
    add(P_DXGI, (UINT)category, (UINT)DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, (UINT)id, text, FALSE);
}

void rt_dxgi_debug_forward(BOOL d3d10, UINT category, UINT severity, UINT id, const char *text)
{
    if (atomic_load(&debug_on)) /* the device's queue printed it already */
        add(d3d10 ? P_D3D10 : P_D3D11, category, severity, id, text, TRUE);
}

void rt_dxgi_debug_track_device(struct rt_device *dev)
{
    if (leak_tracking_off)
        return;
    pthread_mutex_lock(&devices_lock);
    if (ndevices == devices_cap) {
        size_t cap = devices_cap ? devices_cap * 2 : 8;
        struct rt_device **d = realloc(devices, cap * sizeof *d);
        if (!d) { /* untracked: ReportLiveObjects will not name it */
            pthread_mutex_unlock(&devices_lock);
            return;
        }
        devices = d;
        devices_cap = cap;
    }
    devices[ndevices++] = dev;
    pthread_mutex_unlock(&devices_lock);
}

void rt_dxgi_debug_untrack_device(struct rt_device *dev)
{
    pthread_mutex_lock(&devices_lock);
    for (size_t i = 0; i < ndevices; i++)
        if (devices[i] == dev) {
            devices[i] = devices[--ndevices];
            break;
        }
    pthread_mutex_unlock(&devices_lock);
}

/* ---- producers ------------------------------------------------------------------------------------ */

static int producer_of(const GUID *g)
{
    if (rt_iid_equal(g, &DXGI_DEBUG_ALL))
        return P_ALL;
    for (int p = 0; p < PRODUCERS; p++)
        if (rt_iid_equal(g, producer_ids[p]))
            return p;
    return P_UNKNOWN;
}

/* The producers one DXGI_DEBUG_ID selects: [*first, *last), empty (and refused) for an
 * unknown GUID. */
static BOOL select_producers(const GUID *g, const char *method, int *first, int *last)
{
    int p = producer_of(g);
    if (p == P_UNKNOWN) {
        RT_REFUSE("IDXGIInfoQueue::%s: Producer is not a DXGI_DEBUG_ID (DXGI_DEBUG_ALL, DX, DXGI, APP, D3D10, D3D11 "
                  "or D3D12)",
                  method);
        *first = *last = 0;
        return FALSE;
    }
    *first = p == P_ALL ? 0 : p;
    *last = p == P_ALL ? PRODUCERS : p + 1;
    return TRUE;
}

/* A setting read through DXGI_DEBUG_ALL is the DXGI producer's (see the top of the file). */
static int setting_of(const GUID *g, const char *method)
{
    int p = producer_of(g);
    if (p == P_UNKNOWN)
        RT_REFUSE("IDXGIInfoQueue::%s: Producer is not a DXGI_DEBUG_ID", method);
    return p == P_ALL ? P_DXGI : p;
}

#define LOCKED(expr)                                                                                       \
    do {                                                                                                   \
        pthread_mutex_lock(&dq.lock);                                                                      \
        if (ready_locked()) {                                                                              \
            expr;                                                                                          \
        }                                                                                                  \
        pthread_mutex_unlock(&dq.lock);                                                                    \
    } while (0)

/* Runs `stmt` with `st` bound to each selected producer's store; `hr` collects the first failure. */
#define ON_EACH(producer, method, stmt)                                                                    \
    do {                                                                                                   \
        int first_, last_;                                                                                 \
        if (!select_producers(&(producer), method, &first_, &last_)) {                                     \
            hr = E_INVALIDARG;                                                                             \
            break;                                                                                         \
        }                                                                                                  \
        LOCKED(for (int p_ = first_; p_ < last_; p_++) {                                                   \
            struct rt_msg_store *st = &dq.store[p_];                                                       \
            HRESULT one_ = S_OK;                                                                           \
            stmt;                                                                                          \
            if (FAILED(one_) && SUCCEEDED(hr))                                                             \
                hr = one_;                                                                                 \
        });                                                                                                \
    } while (0)

/* ---- IDXGIInfoQueue ------------------------------------------------------------------------------- */

static HRESULT query_interface(REFIID riid, void **ppv);

static HRESULT STDMETHODCALLTYPE iq_QueryInterface(IDXGIInfoQueue *This, REFIID riid, void **ppv)
{
    (void)This;
    return query_interface(riid, ppv);
}
static ULONG STDMETHODCALLTYPE iq_AddRef(IDXGIInfoQueue *This)
{
    (void)This;
    return atomic_fetch_add(&dq.refs, 1) + 1;
}
static ULONG STDMETHODCALLTYPE iq_Release(IDXGIInfoQueue *This)
{
    (void)This;
    unsigned n = atomic_load(&dq.refs);
    while (n && !atomic_compare_exchange_weak(&dq.refs, &n, n - 1))
        ;
    return n ? n - 1 : 0; /* the object itself stays: it is the process's */
}

static HRESULT STDMETHODCALLTYPE iq_SetMessageCountLimit(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer, UINT64 limit)
{
    (void)This;
    HRESULT hr = S_OK;
    ON_EACH(producer, "SetMessageCountLimit", rt_msg_store_set_limit(st, limit));
    return hr;
}

static void STDMETHODCALLTYPE iq_ClearStoredMessages(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)
{
    (void)This;
    HRESULT hr = S_OK;
    ON_EACH(producer, "ClearStoredMessages", rt_msg_store_clear(st));
    (void)hr;
}

/* The index-th message past the retrieval filters of producers [first, last), in arrival
 * order, and its producer. Caller holds dq.lock. */
static const struct rt_msg *retrieved_locked(int first, int last, UINT64 index, int *producer)
{
    UINT64 next[PRODUCERS] = { 0 }; /* each producer's next retrieval index */
    for (UINT64 k = 0;; k++) {
        const struct rt_msg *best = NULL;
        int from = -1;
        for (int p = first; p < last; p++) {
            const struct rt_msg *m = rt_msg_store_retrieved(&dq.store[p], next[p], NULL);
            if (m && (!best || m->seq < best->seq)) {
                best = m;
                from = p;
            }
        }
        if (!best)
            return NULL;
        if (k == index) {
            *producer = from;
            return best;
        }
        next[from]++;
    }
}

static HRESULT STDMETHODCALLTYPE iq_GetMessage(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer, UINT64 index,
                                               DXGI_INFO_QUEUE_MESSAGE *out, SIZE_T *len)
{
    (void)This;
    int first, last;
    if (!select_producers(&producer, "GetMessage", &first, &last))
        return E_INVALIDARG;
    if (!len) {
        RT_REFUSE("IDXGIInfoQueue::GetMessage: pMessageByteLength is NULL");
        return E_INVALIDARG;
    }
    HRESULT hr = E_INVALIDARG;
    pthread_mutex_lock(&dq.lock);
    int from = 0;
    const struct rt_msg *m = ready_locked() ? retrieved_locked(first, last, index, &from) : NULL;
    if (m) {
        SIZE_T need = sizeof(DXGI_INFO_QUEUE_MESSAGE) + m->size;
        if (!out) {
            *len = need;
            hr = S_FALSE;
        } else if (*len >= need) {
            char *text = (char *)(out + 1);
            memcpy(text, m->text, m->size);
            *out = (DXGI_INFO_QUEUE_MESSAGE){ *producer_ids[from], (DXGI_INFO_QUEUE_MESSAGE_CATEGORY)m->category,
                                              (DXGI_INFO_QUEUE_MESSAGE_SEVERITY)m->severity,
                                              (DXGI_INFO_QUEUE_MESSAGE_ID)m->id, text, m->size };
            *len = need;
            hr = S_OK;
        }
    }
    pthread_mutex_unlock(&dq.lock);
    if (hr == E_INVALIDARG)
        RT_REFUSE("IDXGIInfoQueue::GetMessage: no message %llu past the retrieval filters, or a buffer too small",
                  (unsigned long long)index);
    return hr;
}

/* The counters, added up over the producers selected. */
#define COUNTER(Name, expr)                                                                                \
    static UINT64 STDMETHODCALLTYPE iq_##Name(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)                \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        UINT64 n = 0;                                                                                      \
        ON_EACH(producer, #Name, n += (expr));                                                             \
        (void)hr;                                                                                          \
        return n;                                                                                          \
    }
static UINT64 retrieved_count(const struct rt_msg_store *st)
{
    UINT64 n = 0;
    (void)rt_msg_store_retrieved(st, 0, &n);
    return n;
}
COUNTER(GetNumStoredMessagesAllowedByRetrievalFilters, retrieved_count(st))
COUNTER(GetNumStoredMessages, st->count)
COUNTER(GetNumMessagesDiscardedByMessageCountLimit, st->discarded)
COUNTER(GetNumMessagesAllowedByStorageFilter, st->allowed)
COUNTER(GetNumMessagesDeniedByStorageFilter, st->denied)

static UINT64 STDMETHODCALLTYPE iq_GetMessageCountLimit(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)
{
    (void)This;
    int p = setting_of(&producer, "GetMessageCountLimit");
    UINT64 limit = 0;
    if (p != P_UNKNOWN)
        LOCKED(limit = dq.store[p].limit);
    return limit;
}

/* The storage- and retrieval-filter methods are the same over two stacks (msg_store.c). */
#define FILTER_METHODS(Kind, field)                                                                        \
    static HRESULT STDMETHODCALLTYPE iq_Add##Kind##FilterEntries(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer, \
                                                                 DXGI_INFO_QUEUE_FILTER *f)                \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        if (!f) {                                                                                          \
            RT_REFUSE("IDXGIInfoQueue::Add" #Kind "FilterEntries: pFilter is NULL");                        \
            return E_INVALIDARG;                                                                           \
        }                                                                                                  \
        ON_EACH(producer, "Add" #Kind "FilterEntries", one_ = rt_msg_filter_add(&st->field, FILTER(f), IFACE)); \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Get##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,    \
                                                          DXGI_INFO_QUEUE_FILTER *f, SIZE_T *len)          \
    {                                                                                                      \
        (void)This;                                                                                        \
        int p = setting_of(&producer, "Get" #Kind "Filter");                                               \
        HRESULT hr = E_INVALIDARG;                                                                         \
        if (p != P_UNKNOWN)                                                                                \
            LOCKED(hr = rt_msg_filter_get(&dq.store[p].field, FILTER(f), len, IFACE));                     \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Clear##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)     \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        ON_EACH(producer, "Clear" #Kind "Filter", rt_msg_filter_clear_top(&st->field));                    \
        (void)hr;                                                                                          \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushEmpty##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer) \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        ON_EACH(producer, "PushEmpty" #Kind "Filter", one_ = rt_msg_stack_push_empty(&st->field));         \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushDenyAll##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer) \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        ON_EACH(producer, "PushDenyAll" #Kind "Filter", one_ = rt_msg_stack_push_deny_all(&st->field));    \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushCopyOf##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer) \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        ON_EACH(producer, "PushCopyOf" #Kind "Filter", one_ = rt_msg_stack_push_copy(&st->field));         \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Push##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,   \
                                                           DXGI_INFO_QUEUE_FILTER *f)                      \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        if (!f) {                                                                                          \
            RT_REFUSE("IDXGIInfoQueue::Push" #Kind "Filter: pFilter is NULL");                              \
            return E_INVALIDARG;                                                                           \
        }                                                                                                  \
        ON_EACH(producer, "Push" #Kind "Filter", one_ = rt_msg_stack_push(&st->field, FILTER(f), IFACE));  \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Pop##Kind##Filter(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)       \
    {                                                                                                      \
        (void)This;                                                                                        \
        HRESULT hr = S_OK;                                                                                 \
        ON_EACH(producer, "Pop" #Kind "Filter", rt_msg_stack_pop(&st->field));                             \
        (void)hr;                                                                                          \
    }                                                                                                      \
    static UINT STDMETHODCALLTYPE iq_Get##Kind##FilterStackSize(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer) \
    {                                                                                                      \
        (void)This;                                                                                        \
        int p = setting_of(&producer, "Get" #Kind "FilterStackSize");                                      \
        UINT n = 0;                                                                                        \
        if (p != P_UNKNOWN)                                                                                \
            LOCKED(n = dq.store[p].field.n);                                                               \
        return n;                                                                                          \
    }
FILTER_METHODS(Storage, storage)
FILTER_METHODS(Retrieval, retrieval)

static HRESULT STDMETHODCALLTYPE iq_AddMessage(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                               DXGI_INFO_QUEUE_MESSAGE_CATEGORY c, DXGI_INFO_QUEUE_MESSAGE_SEVERITY s,
                                               DXGI_INFO_QUEUE_MESSAGE_ID id, LPCSTR text)
{
    (void)This;
    int p = producer_of(&producer);
    if (p == P_UNKNOWN || p == P_ALL || !rt_msg_category_valid((UINT)c) || !rt_msg_severity_valid((UINT)s) ||
        !text) {
        RT_REFUSE("IDXGIInfoQueue::AddMessage: Producer must be one producer (not DXGI_DEBUG_ALL), category %u and "
                  "severity %u in range, pDescription not NULL",
                  (UINT)c, (UINT)s);
        return E_INVALIDARG;
    }
    HRESULT hr = E_OUTOFMEMORY;
    BOOL brk = FALSE;
    LOCKED(hr = rt_msg_store_add(&dq.store[p], (UINT)c, (UINT)s, (UINT)id, text, dq.seq++, FALSE, &brk));
    if (brk)
        wddm_debug_break();
    return hr;
}

/* An application's message: producer DXGI_DEBUG_APP, ID STRING_FROM_APPLICATION (the
 * "DXGI_DEBUG_ID" page: "Any messages that you add with AddApplicationMessage"). */
static HRESULT STDMETHODCALLTYPE iq_AddApplicationMessage(IDXGIInfoQueue *This, DXGI_INFO_QUEUE_MESSAGE_SEVERITY s,
                                                          LPCSTR text)
{
    return iq_AddMessage(This, DXGI_DEBUG_APP, DXGI_INFO_QUEUE_MESSAGE_CATEGORY_UNKNOWN, s,
                         DXGI_INFO_QUEUE_MESSAGE_ID_STRING_FROM_APPLICATION, text);
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnCategory(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                                       DXGI_INFO_QUEUE_MESSAGE_CATEGORY c, BOOL on)
{
    (void)This;
    if (!rt_msg_category_valid((UINT)c)) {
        RT_REFUSE("IDXGIInfoQueue::SetBreakOnCategory: category %u out of range", (UINT)c);
        return E_INVALIDARG;
    }
    HRESULT hr = S_OK;
    ON_EACH(producer, "SetBreakOnCategory", st->break_category[c] = on ? TRUE : FALSE);
    return hr;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnSeverity(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                                       DXGI_INFO_QUEUE_MESSAGE_SEVERITY s, BOOL on)
{
    (void)This;
    if (!rt_msg_severity_valid((UINT)s)) {
        RT_REFUSE("IDXGIInfoQueue::SetBreakOnSeverity: severity %u out of range", (UINT)s);
        return E_INVALIDARG;
    }
    HRESULT hr = S_OK;
    ON_EACH(producer, "SetBreakOnSeverity", st->break_severity[s] = on ? TRUE : FALSE);
    return hr;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnID(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                                 DXGI_INFO_QUEUE_MESSAGE_ID id, BOOL on)
{
    (void)This;
    HRESULT hr = S_OK;
    ON_EACH(producer, "SetBreakOnID", one_ = rt_msg_break_id(st, (UINT)id, on));
    return hr;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnCategory(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                                    DXGI_INFO_QUEUE_MESSAGE_CATEGORY c)
{
    (void)This;
    int p = setting_of(&producer, "GetBreakOnCategory");
    BOOL on = FALSE;
    if (p != P_UNKNOWN && rt_msg_category_valid((UINT)c))
        LOCKED(on = dq.store[p].break_category[c]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnSeverity(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                                    DXGI_INFO_QUEUE_MESSAGE_SEVERITY s)
{
    (void)This;
    int p = setting_of(&producer, "GetBreakOnSeverity");
    BOOL on = FALSE;
    if (p != P_UNKNOWN && rt_msg_severity_valid((UINT)s))
        LOCKED(on = dq.store[p].break_severity[s]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnID(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer,
                                              DXGI_INFO_QUEUE_MESSAGE_ID id)
{
    (void)This;
    int p = setting_of(&producer, "GetBreakOnID");
    BOOL on = FALSE;
    if (p != P_UNKNOWN)
        LOCKED(on = rt_msg_break_id_get(&dq.store[p], (UINT)id));
    return on;
}

static void STDMETHODCALLTYPE iq_SetMuteDebugOutput(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer, BOOL mute)
{
    (void)This;
    HRESULT hr = S_OK;
    ON_EACH(producer, "SetMuteDebugOutput", st->mute = mute ? TRUE : FALSE);
    (void)hr;
}

static BOOL STDMETHODCALLTYPE iq_GetMuteDebugOutput(IDXGIInfoQueue *This, DXGI_DEBUG_ID producer)
{
    (void)This;
    int p = setting_of(&producer, "GetMuteDebugOutput");
    BOOL mute = FALSE;
    if (p != P_UNKNOWN)
        LOCKED(mute = dq.store[p].mute);
    return mute;
}

static const struct IDXGIInfoQueueVtbl info_queue_vtbl = {
    RT_API_STUBS_IDXGIInfoQueue, /* every slot is named below; the stubs keep docs/api_surface.md's count */
    .QueryInterface = iq_QueryInterface,
    .AddRef = iq_AddRef,
    .Release = iq_Release,
    .SetMessageCountLimit = iq_SetMessageCountLimit,
    .ClearStoredMessages = iq_ClearStoredMessages,
    .GetMessage = iq_GetMessage,
    .GetNumStoredMessagesAllowedByRetrievalFilters = iq_GetNumStoredMessagesAllowedByRetrievalFilters,
    .GetNumStoredMessages = iq_GetNumStoredMessages,
    .GetNumMessagesDiscardedByMessageCountLimit = iq_GetNumMessagesDiscardedByMessageCountLimit,
    .GetMessageCountLimit = iq_GetMessageCountLimit,
    .GetNumMessagesAllowedByStorageFilter = iq_GetNumMessagesAllowedByStorageFilter,
    .GetNumMessagesDeniedByStorageFilter = iq_GetNumMessagesDeniedByStorageFilter,
    .AddStorageFilterEntries = iq_AddStorageFilterEntries,
    .GetStorageFilter = iq_GetStorageFilter,
    .ClearStorageFilter = iq_ClearStorageFilter,
    .PushEmptyStorageFilter = iq_PushEmptyStorageFilter,
    .PushDenyAllStorageFilter = iq_PushDenyAllStorageFilter,
    .PushCopyOfStorageFilter = iq_PushCopyOfStorageFilter,
    .PushStorageFilter = iq_PushStorageFilter,
    .PopStorageFilter = iq_PopStorageFilter,
    .GetStorageFilterStackSize = iq_GetStorageFilterStackSize,
    .AddRetrievalFilterEntries = iq_AddRetrievalFilterEntries,
    .GetRetrievalFilter = iq_GetRetrievalFilter,
    .ClearRetrievalFilter = iq_ClearRetrievalFilter,
    .PushEmptyRetrievalFilter = iq_PushEmptyRetrievalFilter,
    .PushDenyAllRetrievalFilter = iq_PushDenyAllRetrievalFilter,
    .PushCopyOfRetrievalFilter = iq_PushCopyOfRetrievalFilter,
    .PushRetrievalFilter = iq_PushRetrievalFilter,
    .PopRetrievalFilter = iq_PopRetrievalFilter,
    .GetRetrievalFilterStackSize = iq_GetRetrievalFilterStackSize,
    .AddMessage = iq_AddMessage,
    .AddApplicationMessage = iq_AddApplicationMessage,
    .SetBreakOnCategory = iq_SetBreakOnCategory,
    .SetBreakOnSeverity = iq_SetBreakOnSeverity,
    .SetBreakOnID = iq_SetBreakOnID,
    .GetBreakOnCategory = iq_GetBreakOnCategory,
    .GetBreakOnSeverity = iq_GetBreakOnSeverity,
    .GetBreakOnID = iq_GetBreakOnID,
    .SetMuteDebugOutput = iq_SetMuteDebugOutput,
    .GetMuteDebugOutput = iq_GetMuteDebugOutput,
};

/* ---- IDXGIDebug1 ---------------------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE dbg_QueryInterface(IDXGIDebug1 *This, REFIID riid, void **ppv)
{
    (void)This;
    return query_interface(riid, ppv);
}
static ULONG STDMETHODCALLTYPE dbg_AddRef(IDXGIDebug1 *This)
{
    (void)This;
    return iq_AddRef(&dq.iface);
}
static ULONG STDMETHODCALLTYPE dbg_Release(IDXGIDebug1 *This)
{
    (void)This;
    return iq_Release(&dq.iface);
}

/* Every tracked debug device of the producers `apiid` selects (DXGI_DEBUG_ALL and DXGI_DEBUG_DX:
 * all; DXGI_DEBUG_D3D11 / D3D10: the devices of that API), reported as
 * ID3D11Debug::ReportLiveDeviceObjects reports one, then a summary under DXGI_DEBUG_DXGI. */
static HRESULT STDMETHODCALLTYPE dbg_ReportLiveObjects(IDXGIDebug1 *This, GUID apiid, DXGI_DEBUG_RLO_FLAGS flags)
{
    (void)This;
    int p = producer_of(&apiid);
    if (p == P_UNKNOWN || (flags & ~(UINT)DXGI_DEBUG_RLO_ALL)) {
        RT_REFUSE_DXGI(DEBUG, "IDXGIDebug::ReportLiveObjects: apiid must be a DXGI_DEBUG_ID and flags DXGI_DEBUG_RLO_* (0x%x)",
                       (UINT)flags);
        return E_INVALIDARG;
    }
    UINT reported = 0;
    pthread_mutex_lock(&devices_lock); /* a device being destroyed waits to untrack until this is done */
    for (size_t i = 0; i < ndevices; i++) {
        BOOL d3d10 = rt_device_is_d3d10(devices[i]);
        if (p == P_ALL || p == P_DX || (p == P_D3D10 && d3d10) || (p == P_D3D11 && !d3d10)) {
            rt_debug_report_live(devices[i], (flags & DXGI_DEBUG_RLO_DETAIL) ? TRUE : FALSE);
            reported++;
        }
    }
    pthread_mutex_unlock(&devices_lock);
    char line[160];
    snprintf(line, sizeof line, "Live debug devices reported: %u (devices created without the debug flag are not "
             "tracked)", reported);
    add(P_DXGI, (UINT)DXGI_INFO_QUEUE_MESSAGE_CATEGORY_CLEANUP, (UINT)DXGI_INFO_QUEUE_MESSAGE_SEVERITY_INFO, 0, line,
        FALSE);
    return S_OK;
}

static void STDMETHODCALLTYPE dbg_EnableLeakTrackingForThread(IDXGIDebug1 *This)
{
    (void)This;
    leak_tracking_off = FALSE;
}

static void STDMETHODCALLTYPE dbg_DisableLeakTrackingForThread(IDXGIDebug1 *This)
{
    (void)This;
    leak_tracking_off = TRUE;
}

static BOOL STDMETHODCALLTYPE dbg_IsLeakTrackingEnabledForThread(IDXGIDebug1 *This)
{
    (void)This;
    return leak_tracking_off ? FALSE : TRUE;
}

static const struct IDXGIDebug1Vtbl debug_vtbl = {
    RT_API_STUBS_IDXGIDebug1,
    .QueryInterface = dbg_QueryInterface,
    .AddRef = dbg_AddRef,
    .Release = dbg_Release,
    .ReportLiveObjects = dbg_ReportLiveObjects,
    .EnableLeakTrackingForThread = dbg_EnableLeakTrackingForThread,
    .DisableLeakTrackingForThread = dbg_DisableLeakTrackingForThread,
    .IsLeakTrackingEnabledForThread = dbg_IsLeakTrackingEnabledForThread,
};

/* One object answers all three debug interfaces (and IUnknown, as its IDXGIInfoQueue face). */
static HRESULT query_interface(REFIID riid, void **ppv)
{
    if (!ppv) {
        RT_REFUSE("DXGI debug interface QueryInterface: ppvObject is NULL");
        return E_POINTER;
    }
    *ppv = NULL;
    if (!riid)
        return E_NOINTERFACE;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_IDXGIInfoQueue))
        *ppv = &dq.iface;
    else if (rt_iid_equal(riid, &IID_IDXGIDebug) || rt_iid_equal(riid, &IID_IDXGIDebug1))
        *ppv = &dq.debug;
    else
        return E_NOINTERFACE;
    atomic_fetch_add(&dq.refs, 1);
    return S_OK;
}

HRESULT WINAPI DXGIGetDebugInterface1(UINT Flags, REFIID riid, void **pDebug)
{
    if (pDebug)
        *pDebug = NULL;
    if (Flags || !riid || !pDebug) {
        /* The reference page: Flags "Not used" (0 here, as reserved parameters are). */
        RT_REFUSE("DXGIGetDebugInterface1: %s", Flags ? "Flags must be 0" : !riid ? "riid is NULL" : "pDebug is NULL");
        return E_INVALIDARG;
    }
    HRESULT hr = query_interface(riid, pDebug);
    if (FAILED(hr)) {
        RT_REFUSE("DXGIGetDebugInterface1: riid is not IDXGIInfoQueue, IDXGIDebug or IDXGIDebug1");
        return hr;
    }
    rt_dxgi_debug_enable();
    return S_OK;
}
