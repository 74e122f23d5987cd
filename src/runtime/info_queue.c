/*
 * info_queue.c - ID3D11InfoQueue, the debug layer's message store (issue 15 §4).
 *
 * A device created with D3D11_CREATE_DEVICE_DEBUG has one (QueryInterface from the device;
 * without the flag the answer is E_NOINTERFACE, as on Windows). Every refusal the runtime makes
 * inside an API call of that device becomes a message here (debug_layer.c) with the call's
 * category and ID, severity ERROR. The store itself - the filter stacks, the count limit, the
 * counters, the break settings and mute, as the ID3D11InfoQueue reference describes them - is
 * msg_store.c's, the one every info queue of the runtime uses (the DXGI info queue keeps one per
 * producer, dxgi_debug.c); this file gives it its ID3D11InfoQueue and ID3D10InfoQueue faces and
 * copies each message to the DXGI info queue under DXGI_DEBUG_D3D11 / DXGI_DEBUG_D3D10.
 *
 * A D3D10 device created with D3D10_CREATE_DEVICE_DEBUG has the same queue with a second face,
 * ID3D10InfoQueue: one store, one set of filters and counters, read and written through either.
 * D3D10's message, filter and enum types are D3D11's in layout and values (the D3D10 names are
 * D3D11's namesakes; api.slots checks every value), so each D3D10 method is the D3D11 one on
 * the same queue. A message keeps the number it was stored with: a refusal in a D3D10 call
 * carries an ID D3D10 names (debug_layer.c), one in a D3D11 call its D3D11 ID. The queue's own
 * refusals name their method as ID3D1xInfoQueue::, whichever face was called.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "runtime/msg_store.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define IFACE "ID3D1xInfoQueue"

struct rt_info_queue {
    ID3D11InfoQueue iface;          /* first */
    ID3D10InfoQueue iface10;        /* the same queue's D3D10 face */
    struct rt_device *device;       /* the queue's references are the device's */
    pthread_mutex_t lock;           /* guards the store */
    struct rt_msg_store store;      /* msg_store.c: the messages, filters, counters, breaks, mute */
    UINT64 seq;
};

static struct rt_info_queue *iq_of(ID3D11InfoQueue *iface)
{
    return (struct rt_info_queue *)iface;
}

void rt_info_queue_add(struct rt_device *dev, D3D11_MESSAGE_CATEGORY c, D3D11_MESSAGE_SEVERITY s, D3D11_MESSAGE_ID id,
                       const char *text)
{
    struct rt_info_queue *q = dev->info_queue;
    if (!q)
        return;
    BOOL brk;
    pthread_mutex_lock(&q->lock);
    (void)rt_msg_store_add(&q->store, (UINT)c, (UINT)s, (UINT)id, text, q->seq++, FALSE, &brk);
    pthread_mutex_unlock(&q->lock);
    if (brk)
        wddm_debug_break();
    /* Windows shows the debug layer's messages in the DXGI info queue too, under the producer
     * DXGI_DEBUG_D3D11 (DXGI_DEBUG_D3D10 for a D3D10 device): dxgi_debug.c. */
    rt_dxgi_debug_forward(rt_device_is_d3d10(dev), (UINT)c, (UINT)s, (UINT)id, text);
}

/* ---- ID3D11InfoQueue ---------------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE iq_QueryInterface(ID3D11InfoQueue *This, REFIID riid, void **ppv)
{
    return ID3D11Device_QueryInterface(&iq_of(This)->device->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE iq_AddRef(ID3D11InfoQueue *This)
{
    return ID3D11Device_AddRef(&iq_of(This)->device->iface);
}
static ULONG STDMETHODCALLTYPE iq_Release(ID3D11InfoQueue *This)
{
    return ID3D11Device_Release(&iq_of(This)->device->iface);
}

#define LOCKED(q, expr)                                                                                    \
    do {                                                                                                   \
        pthread_mutex_lock(&(q)->lock);                                                                    \
        expr;                                                                                              \
        pthread_mutex_unlock(&(q)->lock);                                                                  \
    } while (0)

static HRESULT STDMETHODCALLTYPE iq_SetMessageCountLimit(ID3D11InfoQueue *This, UINT64 limit)
{
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, rt_msg_store_set_limit(&q->store, limit));
    return S_OK;
}

static void STDMETHODCALLTYPE iq_ClearStoredMessages(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, rt_msg_store_clear(&q->store));
}

static HRESULT STDMETHODCALLTYPE iq_GetMessage(ID3D11InfoQueue *This, UINT64 index, D3D11_MESSAGE *out, SIZE_T *len)
{
    struct rt_info_queue *q = iq_of(This);
    if (!len) {
        RT_REFUSE("ID3D1xInfoQueue::GetMessage: pMessageByteLength is NULL");
        return E_INVALIDARG;
    }
    HRESULT hr = S_OK;
    pthread_mutex_lock(&q->lock);
    const struct rt_msg *m = rt_msg_store_retrieved(&q->store, index, NULL);
    if (!m) {
        hr = E_INVALIDARG;
    } else {
        SIZE_T need = sizeof(D3D11_MESSAGE) + m->size;
        if (!out) {
            *len = need;
            hr = S_FALSE;
        } else if (*len < need) {
            hr = E_INVALIDARG;
        } else {
            char *text = (char *)(out + 1);
            memcpy(text, m->text, m->size);
            *out = (D3D11_MESSAGE){ (D3D11_MESSAGE_CATEGORY)m->category, (D3D11_MESSAGE_SEVERITY)m->severity,
                                    (D3D11_MESSAGE_ID)m->id, text, m->size };
            *len = need;
        }
    }
    pthread_mutex_unlock(&q->lock);
    if (hr == E_INVALIDARG)
        RT_REFUSE("ID3D1xInfoQueue::GetMessage: no message %llu past the retrieval filter, or a buffer too small",
                  (unsigned long long)index);
    return hr;
}

#define COUNTER(Name, expr)                                                                                \
    static UINT64 STDMETHODCALLTYPE iq_##Name(ID3D11InfoQueue *This)                                       \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        UINT64 v;                                                                                          \
        LOCKED(q, v = (expr));                                                                             \
        return v;                                                                                          \
    }
COUNTER(GetNumMessagesAllowedByStorageFilter, q->store.allowed)
COUNTER(GetNumMessagesDeniedByStorageFilter, q->store.denied)
COUNTER(GetNumStoredMessages, q->store.count)
COUNTER(GetNumMessagesDiscardedByMessageCountLimit, q->store.discarded)
COUNTER(GetMessageCountLimit, q->store.limit)

static UINT64 STDMETHODCALLTYPE iq_GetNumStoredMessagesAllowedByRetrievalFilter(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    UINT64 n = 0;
    LOCKED(q, (void)rt_msg_store_retrieved(&q->store, 0, &n));
    return n;
}

/* The storage- and retrieval-filter methods are the same over two stacks (msg_store.c). */
#define FILTER_METHODS(Kind, field)                                                                        \
    static HRESULT STDMETHODCALLTYPE iq_Add##Kind##FilterEntries(ID3D11InfoQueue *This,                    \
                                                                 D3D11_INFO_QUEUE_FILTER *filter)          \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = rt_msg_filter_add(&q->store.field, filter, IFACE));                                 \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Get##Kind##Filter(ID3D11InfoQueue *This, D3D11_INFO_QUEUE_FILTER *f,  \
                                                          SIZE_T *len)                                      \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = rt_msg_filter_get(&q->store.field, f, len, IFACE));                                 \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Clear##Kind##Filter(ID3D11InfoQueue *This)                            \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        LOCKED(q, rt_msg_filter_clear_top(&q->store.field));                                               \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushEmpty##Kind##Filter(ID3D11InfoQueue *This)                     \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = rt_msg_stack_push_empty(&q->store.field));                                          \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushCopyOf##Kind##Filter(ID3D11InfoQueue *This)                    \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = rt_msg_stack_push_copy(&q->store.field));                                           \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Push##Kind##Filter(ID3D11InfoQueue *This, D3D11_INFO_QUEUE_FILTER *f) \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = rt_msg_stack_push(&q->store.field, f, IFACE));                                      \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Pop##Kind##Filter(ID3D11InfoQueue *This)                              \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        LOCKED(q, rt_msg_stack_pop(&q->store.field));                                                      \
    }                                                                                                      \
    static UINT STDMETHODCALLTYPE iq_Get##Kind##FilterStackSize(ID3D11InfoQueue *This)                     \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        UINT n;                                                                                            \
        LOCKED(q, n = q->store.field.n);                                                                   \
        return n;                                                                                          \
    }
FILTER_METHODS(Storage, storage)
FILTER_METHODS(Retrieval, retrieval)

static HRESULT STDMETHODCALLTYPE iq_AddMessage(ID3D11InfoQueue *This, D3D11_MESSAGE_CATEGORY c,
                                               D3D11_MESSAGE_SEVERITY s, D3D11_MESSAGE_ID id, LPCSTR text)
{
    if (!rt_msg_category_valid((UINT)c) || !rt_msg_severity_valid((UINT)s) || !text) {
        RT_REFUSE("ID3D1xInfoQueue::AddMessage: category %u / severity %u out of range, or no description", (UINT)c,
                  (UINT)s);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    HRESULT hr;
    BOOL brk;
    LOCKED(q, hr = rt_msg_store_add(&q->store, (UINT)c, (UINT)s, (UINT)id, text, q->seq++, FALSE, &brk));
    if (brk)
        wddm_debug_break();
    return hr;
}

static HRESULT STDMETHODCALLTYPE iq_AddApplicationMessage(ID3D11InfoQueue *This, D3D11_MESSAGE_SEVERITY s,
                                                          LPCSTR text)
{
    return iq_AddMessage(This, D3D11_MESSAGE_CATEGORY_APPLICATION_DEFINED, s, D3D11_MESSAGE_ID_STRING_FROM_APPLICATION,
                         text);
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnCategory(ID3D11InfoQueue *This, D3D11_MESSAGE_CATEGORY c, BOOL on)
{
    if (!rt_msg_category_valid((UINT)c)) {
        RT_REFUSE("ID3D1xInfoQueue::SetBreakOnCategory: category %u out of range", (UINT)c);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->store.break_category[c] = on ? TRUE : FALSE);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnSeverity(ID3D11InfoQueue *This, D3D11_MESSAGE_SEVERITY s, BOOL on)
{
    if (!rt_msg_severity_valid((UINT)s)) {
        RT_REFUSE("ID3D1xInfoQueue::SetBreakOnSeverity: severity %u out of range", (UINT)s);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->store.break_severity[s] = on ? TRUE : FALSE);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnID(ID3D11InfoQueue *This, D3D11_MESSAGE_ID id, BOOL on)
{
    struct rt_info_queue *q = iq_of(This);
    HRESULT hr;
    LOCKED(q, hr = rt_msg_break_id(&q->store, (UINT)id, on));
    return hr;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnCategory(ID3D11InfoQueue *This, D3D11_MESSAGE_CATEGORY c)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on = FALSE;
    if (rt_msg_category_valid((UINT)c))
        LOCKED(q, on = q->store.break_category[c]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnSeverity(ID3D11InfoQueue *This, D3D11_MESSAGE_SEVERITY s)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on = FALSE;
    if (rt_msg_severity_valid((UINT)s))
        LOCKED(q, on = q->store.break_severity[s]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnID(ID3D11InfoQueue *This, D3D11_MESSAGE_ID id)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on;
    LOCKED(q, on = rt_msg_break_id_get(&q->store, (UINT)id));
    return on;
}

static void STDMETHODCALLTYPE iq_SetMuteDebugOutput(ID3D11InfoQueue *This, BOOL mute)
{
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->store.mute = mute ? TRUE : FALSE);
}

static BOOL STDMETHODCALLTYPE iq_GetMuteDebugOutput(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL mute;
    LOCKED(q, mute = q->store.mute);
    return mute;
}

static const struct ID3D11InfoQueueVtbl info_queue_vtbl = {
    RT_API_STUBS_ID3D11InfoQueue,
    .QueryInterface = iq_QueryInterface,
    .AddRef = iq_AddRef,
    .Release = iq_Release,
    .SetMessageCountLimit = iq_SetMessageCountLimit,
    .ClearStoredMessages = iq_ClearStoredMessages,
    .GetMessage = iq_GetMessage,
    .GetNumMessagesAllowedByStorageFilter = iq_GetNumMessagesAllowedByStorageFilter,
    .GetNumMessagesDeniedByStorageFilter = iq_GetNumMessagesDeniedByStorageFilter,
    .GetNumStoredMessages = iq_GetNumStoredMessages,
    .GetNumStoredMessagesAllowedByRetrievalFilter = iq_GetNumStoredMessagesAllowedByRetrievalFilter,
    .GetNumMessagesDiscardedByMessageCountLimit = iq_GetNumMessagesDiscardedByMessageCountLimit,
    .GetMessageCountLimit = iq_GetMessageCountLimit,
    .AddStorageFilterEntries = iq_AddStorageFilterEntries,
    .GetStorageFilter = iq_GetStorageFilter,
    .ClearStorageFilter = iq_ClearStorageFilter,
    .PushEmptyStorageFilter = iq_PushEmptyStorageFilter,
    .PushCopyOfStorageFilter = iq_PushCopyOfStorageFilter,
    .PushStorageFilter = iq_PushStorageFilter,
    .PopStorageFilter = iq_PopStorageFilter,
    .GetStorageFilterStackSize = iq_GetStorageFilterStackSize,
    .AddRetrievalFilterEntries = iq_AddRetrievalFilterEntries,
    .GetRetrievalFilter = iq_GetRetrievalFilter,
    .ClearRetrievalFilter = iq_ClearRetrievalFilter,
    .PushEmptyRetrievalFilter = iq_PushEmptyRetrievalFilter,
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

/* ---- ID3D10InfoQueue: the same queue, D3D10's types ------------------------------------------- */

_Static_assert(sizeof(D3D10_MESSAGE) == sizeof(D3D11_MESSAGE) &&
                   offsetof(D3D10_MESSAGE, ID) == offsetof(D3D11_MESSAGE, ID) &&
                   offsetof(D3D10_MESSAGE, pDescription) == offsetof(D3D11_MESSAGE, pDescription) &&
                   offsetof(D3D10_MESSAGE, DescriptionByteLength) == offsetof(D3D11_MESSAGE, DescriptionByteLength),
               "D3D10_MESSAGE is D3D11_MESSAGE's layout");
_Static_assert(sizeof(D3D10_INFO_QUEUE_FILTER) == sizeof(D3D11_INFO_QUEUE_FILTER) &&
                   offsetof(D3D10_INFO_QUEUE_FILTER, DenyList) == offsetof(D3D11_INFO_QUEUE_FILTER, DenyList) &&
                   offsetof(D3D10_INFO_QUEUE_FILTER_DESC, pIDList) == offsetof(D3D11_INFO_QUEUE_FILTER_DESC, pIDList) &&
                   sizeof(D3D10_MESSAGE_ID) == sizeof(UINT) && sizeof(D3D10_MESSAGE_CATEGORY) == sizeof(UINT) &&
                   sizeof(D3D10_MESSAGE_SEVERITY) == sizeof(UINT),
               "D3D10_INFO_QUEUE_FILTER is D3D11_INFO_QUEUE_FILTER's layout");

static ID3D11InfoQueue *iq11(ID3D10InfoQueue *This)
{
    return &((struct rt_info_queue *)((char *)This - offsetof(struct rt_info_queue, iface10)))->iface;
}

/* Each D3D10 method: the D3D11 one with the same arguments, D3D10's types restated. */
#define IQ10(ret, Name, params, args)                                                                     \
    static ret STDMETHODCALLTYPE iq10_##Name params { return iq_##Name args; }
#define IQ10_VOID(Name, params, args)                                                                     \
    static void STDMETHODCALLTYPE iq10_##Name params { iq_##Name args; }
#define CAT(c) ((D3D11_MESSAGE_CATEGORY)(c))
#define SEV(s) ((D3D11_MESSAGE_SEVERITY)(s))
#define MID(id) ((D3D11_MESSAGE_ID)(id))
#define FILTER(f) ((D3D11_INFO_QUEUE_FILTER *)(f))
IQ10(HRESULT, QueryInterface, (ID3D10InfoQueue *This, REFIID riid, void **ppv), (iq11(This), riid, ppv))
IQ10(ULONG, AddRef, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(ULONG, Release, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(HRESULT, SetMessageCountLimit, (ID3D10InfoQueue *This, UINT64 limit), (iq11(This), limit))
IQ10_VOID(ClearStoredMessages, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(HRESULT, GetMessage, (ID3D10InfoQueue *This, UINT64 index, D3D10_MESSAGE *out, SIZE_T *len),
     (iq11(This), index, (D3D11_MESSAGE *)out, len))
IQ10(UINT64, GetNumMessagesAllowedByStorageFilter, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(UINT64, GetNumMessagesDeniedByStorageFilter, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(UINT64, GetNumStoredMessages, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(UINT64, GetNumStoredMessagesAllowedByRetrievalFilter, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(UINT64, GetNumMessagesDiscardedByMessageCountLimit, (ID3D10InfoQueue *This), (iq11(This)))
IQ10(UINT64, GetMessageCountLimit, (ID3D10InfoQueue *This), (iq11(This)))
/* The storage- and retrieval-filter methods, as for the D3D11 face. */
#define FILTER_METHODS10(Kind)                                                                            \
    IQ10(HRESULT, Add##Kind##FilterEntries, (ID3D10InfoQueue *This, D3D10_INFO_QUEUE_FILTER *f),           \
         (iq11(This), FILTER(f)))                                                                         \
    IQ10(HRESULT, Get##Kind##Filter, (ID3D10InfoQueue *This, D3D10_INFO_QUEUE_FILTER *f, SIZE_T *len),     \
         (iq11(This), FILTER(f), len))                                                                    \
    IQ10_VOID(Clear##Kind##Filter, (ID3D10InfoQueue *This), (iq11(This)))                                 \
    IQ10(HRESULT, PushEmpty##Kind##Filter, (ID3D10InfoQueue *This), (iq11(This)))                         \
    IQ10(HRESULT, PushCopyOf##Kind##Filter, (ID3D10InfoQueue *This), (iq11(This)))                        \
    IQ10(HRESULT, Push##Kind##Filter, (ID3D10InfoQueue *This, D3D10_INFO_QUEUE_FILTER *f),                 \
         (iq11(This), FILTER(f)))                                                                         \
    IQ10_VOID(Pop##Kind##Filter, (ID3D10InfoQueue *This), (iq11(This)))                                   \
    IQ10(UINT, Get##Kind##FilterStackSize, (ID3D10InfoQueue *This), (iq11(This)))
FILTER_METHODS10(Storage)
FILTER_METHODS10(Retrieval)
IQ10(HRESULT, AddMessage,
     (ID3D10InfoQueue *This, D3D10_MESSAGE_CATEGORY c, D3D10_MESSAGE_SEVERITY s, D3D10_MESSAGE_ID id, const char *text),
     (iq11(This), CAT(c), SEV(s), MID(id), text))
IQ10(HRESULT, AddApplicationMessage, (ID3D10InfoQueue *This, D3D10_MESSAGE_SEVERITY s, const char *text),
     (iq11(This), SEV(s), text))
IQ10(HRESULT, SetBreakOnCategory, (ID3D10InfoQueue *This, D3D10_MESSAGE_CATEGORY c, BOOL on), (iq11(This), CAT(c), on))
IQ10(HRESULT, SetBreakOnSeverity, (ID3D10InfoQueue *This, D3D10_MESSAGE_SEVERITY s, BOOL on), (iq11(This), SEV(s), on))
IQ10(HRESULT, SetBreakOnID, (ID3D10InfoQueue *This, D3D10_MESSAGE_ID id, BOOL on), (iq11(This), MID(id), on))
IQ10(BOOL, GetBreakOnCategory, (ID3D10InfoQueue *This, D3D10_MESSAGE_CATEGORY c), (iq11(This), CAT(c)))
IQ10(BOOL, GetBreakOnSeverity, (ID3D10InfoQueue *This, D3D10_MESSAGE_SEVERITY s), (iq11(This), SEV(s)))
IQ10(BOOL, GetBreakOnID, (ID3D10InfoQueue *This, D3D10_MESSAGE_ID id), (iq11(This), MID(id)))
IQ10_VOID(SetMuteDebugOutput, (ID3D10InfoQueue *This, BOOL mute), (iq11(This), mute))
IQ10(BOOL, GetMuteDebugOutput, (ID3D10InfoQueue *This), (iq11(This)))

static const struct ID3D10InfoQueueVtbl info_queue10_vtbl = {
    RT_API_STUBS_ID3D10InfoQueue,
    .QueryInterface = iq10_QueryInterface,
    .AddRef = iq10_AddRef,
    .Release = iq10_Release,
    .SetMessageCountLimit = iq10_SetMessageCountLimit,
    .ClearStoredMessages = iq10_ClearStoredMessages,
    .GetMessage = iq10_GetMessage,
    .GetNumMessagesAllowedByStorageFilter = iq10_GetNumMessagesAllowedByStorageFilter,
    .GetNumMessagesDeniedByStorageFilter = iq10_GetNumMessagesDeniedByStorageFilter,
    .GetNumStoredMessages = iq10_GetNumStoredMessages,
    .GetNumStoredMessagesAllowedByRetrievalFilter = iq10_GetNumStoredMessagesAllowedByRetrievalFilter,
    .GetNumMessagesDiscardedByMessageCountLimit = iq10_GetNumMessagesDiscardedByMessageCountLimit,
    .GetMessageCountLimit = iq10_GetMessageCountLimit,
    .AddStorageFilterEntries = iq10_AddStorageFilterEntries,
    .GetStorageFilter = iq10_GetStorageFilter,
    .ClearStorageFilter = iq10_ClearStorageFilter,
    .PushEmptyStorageFilter = iq10_PushEmptyStorageFilter,
    .PushCopyOfStorageFilter = iq10_PushCopyOfStorageFilter,
    .PushStorageFilter = iq10_PushStorageFilter,
    .PopStorageFilter = iq10_PopStorageFilter,
    .GetStorageFilterStackSize = iq10_GetStorageFilterStackSize,
    .AddRetrievalFilterEntries = iq10_AddRetrievalFilterEntries,
    .GetRetrievalFilter = iq10_GetRetrievalFilter,
    .ClearRetrievalFilter = iq10_ClearRetrievalFilter,
    .PushEmptyRetrievalFilter = iq10_PushEmptyRetrievalFilter,
    .PushCopyOfRetrievalFilter = iq10_PushCopyOfRetrievalFilter,
    .PushRetrievalFilter = iq10_PushRetrievalFilter,
    .PopRetrievalFilter = iq10_PopRetrievalFilter,
    .GetRetrievalFilterStackSize = iq10_GetRetrievalFilterStackSize,
    .AddMessage = iq10_AddMessage,
    .AddApplicationMessage = iq10_AddApplicationMessage,
    .SetBreakOnCategory = iq10_SetBreakOnCategory,
    .SetBreakOnSeverity = iq10_SetBreakOnSeverity,
    .SetBreakOnID = iq10_SetBreakOnID,
    .GetBreakOnCategory = iq10_GetBreakOnCategory,
    .GetBreakOnSeverity = iq10_GetBreakOnSeverity,
    .GetBreakOnID = iq10_GetBreakOnID,
    .SetMuteDebugOutput = iq10_SetMuteDebugOutput,
    .GetMuteDebugOutput = iq10_GetMuteDebugOutput,
};

HRESULT rt_info_queue_create(struct rt_device *dev)
{
    struct rt_info_queue *q = wddm_calloc(1, sizeof *q);
    if (!q)
        return E_OUTOFMEMORY;
    q->iface.lpVtbl = &info_queue_vtbl;
    q->iface10.lpVtbl = &info_queue10_vtbl;
    q->device = dev;
    pthread_mutex_init(&q->lock, NULL);
    if (FAILED(rt_msg_store_init(&q->store, rt_device_is_d3d10(dev) ? "D3D10" : "D3D11"))) {
        pthread_mutex_destroy(&q->lock);
        free(q);
        return E_OUTOFMEMORY;
    }
    dev->info_queue = q;
    /* A debug device turns the DXGI debug layer on for the process, as loading the SDK layers
     * does on Windows (dxgi_debug.c, docs/api.md "The DXGI info queue"). */
    rt_dxgi_debug_enable();
    rt_dxgi_debug_track_device(dev); /* IDXGIDebug::ReportLiveObjects reports it (if this thread tracks leaks) */
    return S_OK;
}

void rt_info_queue_destroy(struct rt_info_queue *q)
{
    if (!q)
        return;
    rt_dxgi_debug_untrack_device(q->device);
    rt_msg_store_fini(&q->store);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

ID3D11InfoQueue *rt_info_queue_iface(struct rt_info_queue *q)
{
    return &q->iface;
}

ID3D10InfoQueue *rt_info_queue_iface10(struct rt_info_queue *q)
{
    return &q->iface10;
}
