/*
 * info_queue.c - ID3D11InfoQueue, the debug layer's message store (issue 15 §4).
 *
 * A device created with D3D11_CREATE_DEVICE_DEBUG has one (QueryInterface from the device;
 * without the flag the answer is E_NOINTERFACE, as on Windows). Every refusal the runtime makes
 * inside an API call of that device becomes a message here (debug_layer.c) with the call's
 * category and ID, severity ERROR. The queue follows the ID3D11InfoQueue reference:
 *
 * - a message passes the storage filter on top of the storage-filter stack or is counted as
 *   denied; stored messages beyond the count limit (default
 *   D3D11_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT, -1 = none) push the oldest out and are counted
 *   as discarded;
 * - GetMessage indexes the stored messages that pass the retrieval filter; with pMessage NULL it
 *   answers the byte length (a D3D11_MESSAGE followed by its NUL-terminated description);
 * - each filter stack starts with one empty filter, which Pop keeps; Get*Filter answers its
 *   length first, then the filter with its lists behind it.
 *
 * Filter semantics (model decision, written down in docs/api.md "The debug layer"): a message
 * passes a filter when, for each of category, severity and ID, the allow list is empty or
 * names it, and no deny list names it. A message that passes the storage filter is printed
 * (with WDDM_DEBUG, the output a debugger would show on Windows) unless SetMuteDebugOutput(TRUE).
 * The break settings are stored and read back; nothing stops the process (there is no debugger
 * to break into).
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
#include "common/alloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { CAT, SEV, ID, KINDS };

struct iq_list {
    UINT n;
    UINT *v;
};

struct iq_filter {
    struct iq_list allow[KINDS], deny[KINDS];
};

struct iq_stack {
    struct iq_filter *f;            /* f[n - 1] is the top; n >= 1 */
    UINT n;
};

struct iq_message {
    D3D11_MESSAGE_CATEGORY category;
    D3D11_MESSAGE_SEVERITY severity;
    D3D11_MESSAGE_ID id;
    char *text;
    SIZE_T size;                    /* strlen(text) + 1 */
};

struct iq_breaks {
    BOOL category[D3D11_MESSAGE_CATEGORY_SHADER + 1];
    BOOL severity[D3D11_MESSAGE_SEVERITY_MESSAGE + 1];
    struct iq_list ids;
};

struct rt_info_queue {
    ID3D11InfoQueue iface;          /* first */
    ID3D10InfoQueue iface10;        /* the same queue's D3D10 face */
    struct rt_device *device;       /* the queue's references are the device's */
    pthread_mutex_t lock;           /* guards everything below */
    struct iq_message *msgs;        /* oldest first */
    UINT64 count, cap, limit;
    UINT64 allowed, denied, discarded;
    struct iq_stack storage, retrieval;
    struct iq_breaks breaks;
    BOOL mute;
};

static struct rt_info_queue *iq_of(ID3D11InfoQueue *iface)
{
    return (struct rt_info_queue *)iface;
}

/* ---- filters ------------------------------------------------------------------------------------ */

static BOOL list_has(const struct iq_list *l, UINT v)
{
    for (UINT i = 0; i < l->n; i++)
        if (l->v[i] == v)
            return TRUE;
    return FALSE;
}

static BOOL filter_passes(const struct iq_filter *f, D3D11_MESSAGE_CATEGORY c, D3D11_MESSAGE_SEVERITY s,
                          D3D11_MESSAGE_ID id)
{
    const UINT v[KINDS] = { (UINT)c, (UINT)s, (UINT)id };
    for (int k = 0; k < KINDS; k++) {
        if (f->allow[k].n && !list_has(&f->allow[k], v[k]))
            return FALSE;
        if (list_has(&f->deny[k], v[k]))
            return FALSE;
    }
    return TRUE;
}

static void filter_clear(struct iq_filter *f)
{
    for (int k = 0; k < KINDS; k++) {
        free(f->allow[k].v);
        free(f->deny[k].v);
    }
    memset(f, 0, sizeof *f);
}

static HRESULT list_append(struct iq_list *l, UINT n, const void *vals)
{
    if (!n)
        return S_OK;
    if (!vals) {
        RT_REFUSE("ID3D1xInfoQueue: a filter list of %u entries has a NULL array", n);
        return E_INVALIDARG;
    }
    UINT *v = realloc(l->v, ((size_t)l->n + n) * sizeof *v);
    if (!v)
        return E_OUTOFMEMORY;
    memcpy(v + l->n, vals, (size_t)n * sizeof *v); /* the three enums are 32-bit */
    l->v = v;
    l->n += n;
    return S_OK;
}

/* The lists of an application's D3D11_INFO_QUEUE_FILTER, appended to `f`. */
static HRESULT filter_add(struct iq_filter *f, const D3D11_INFO_QUEUE_FILTER *in)
{
    const D3D11_INFO_QUEUE_FILTER_DESC *d[2] = { &in->AllowList, &in->DenyList };
    struct iq_list *out[2] = { f->allow, f->deny };
    HRESULT hr = S_OK;
    for (int i = 0; i < 2 && SUCCEEDED(hr); i++) {
        hr = list_append(&out[i][CAT], d[i]->NumCategories, d[i]->pCategoryList);
        if (SUCCEEDED(hr))
            hr = list_append(&out[i][SEV], d[i]->NumSeverities, d[i]->pSeverityList);
        if (SUCCEEDED(hr))
            hr = list_append(&out[i][ID], d[i]->NumIDs, d[i]->pIDList);
    }
    return hr;
}

static SIZE_T filter_bytes(const struct iq_filter *f)
{
    SIZE_T n = 0;
    for (int k = 0; k < KINDS; k++)
        n += (SIZE_T)f->allow[k].n + f->deny[k].n;
    return sizeof(D3D11_INFO_QUEUE_FILTER) + n * sizeof(UINT);
}

/* One list copied to *p (advanced past it); NULL for an empty list. */
static UINT *list_out(UINT **p, const struct iq_list *l)
{
    if (!l->n)
        return NULL;
    UINT *at = *p;
    memcpy(at, l->v, l->n * sizeof *at);
    *p += l->n;
    return at;
}

/* Get*Filter: the length first (pFilter NULL), then the filter with its lists behind it. */
static HRESULT filter_get(const struct iq_filter *f, D3D11_INFO_QUEUE_FILTER *out, SIZE_T *len)
{
    if (!len) {
        RT_REFUSE("ID3D1xInfoQueue::Get*Filter: pFilterByteLength is NULL");
        return E_INVALIDARG;
    }
    SIZE_T need = filter_bytes(f);
    if (!out) {
        *len = need;
        return S_FALSE;
    }
    if (*len < need) {
        RT_REFUSE("ID3D1xInfoQueue::Get*Filter: %zu bytes given, %zu needed", (size_t)*len, (size_t)need);
        return E_INVALIDARG;
    }
    memset(out, 0, sizeof *out);
    UINT *p = (UINT *)(out + 1);
    D3D11_INFO_QUEUE_FILTER_DESC *d[2] = { &out->AllowList, &out->DenyList };
    const struct iq_list *in[2] = { f->allow, f->deny };
    for (int i = 0; i < 2; i++) {
        d[i]->NumCategories = in[i][CAT].n;
        d[i]->pCategoryList = (D3D11_MESSAGE_CATEGORY *)list_out(&p, &in[i][CAT]);
        d[i]->NumSeverities = in[i][SEV].n;
        d[i]->pSeverityList = (D3D11_MESSAGE_SEVERITY *)list_out(&p, &in[i][SEV]);
        d[i]->NumIDs = in[i][ID].n;
        d[i]->pIDList = (D3D11_MESSAGE_ID *)list_out(&p, &in[i][ID]);
    }
    *len = need;
    return S_OK;
}

/* Pushes an empty filter, a copy of the top one (copy_top), or the application's `in`. */
static HRESULT stack_push(struct iq_stack *s, BOOL copy_top, const D3D11_INFO_QUEUE_FILTER *in)
{
    struct iq_filter *f = realloc(s->f, ((size_t)s->n + 1) * sizeof *f);
    if (!f)
        return E_OUTOFMEMORY;
    s->f = f; /* the old top moved with the array: taken from it only now */
    struct iq_filter *top = &f[s->n];
    const struct iq_filter *copy_of = copy_top && s->n ? &f[s->n - 1] : NULL;
    memset(top, 0, sizeof *top);
    HRESULT hr = S_OK;
    if (copy_of) {
        for (int k = 0; k < KINDS && SUCCEEDED(hr); k++) {
            hr = list_append(&top->allow[k], copy_of->allow[k].n, copy_of->allow[k].v);
            if (SUCCEEDED(hr))
                hr = list_append(&top->deny[k], copy_of->deny[k].n, copy_of->deny[k].v);
        }
    } else if (in) {
        hr = filter_add(top, in);
    }
    if (FAILED(hr)) {
        filter_clear(top);
        return hr;
    }
    s->n++;
    return S_OK;
}

static void stack_pop(struct iq_stack *s)
{
    if (s->n > 1) /* the bottom filter stays */
        filter_clear(&s->f[--s->n]);
}

/* ---- storage ------------------------------------------------------------------------------------ */

static const char *const category_names[] = {
    "APPLICATION_DEFINED", "MISCELLANEOUS", "INITIALIZATION", "CLEANUP", "COMPILATION", "STATE_CREATION",
    "STATE_SETTING", "STATE_GETTING", "RESOURCE_MANIPULATION", "EXECUTION", "SHADER",
};
static const char *const severity_names[] = { "CORRUPTION", "ERROR", "WARNING", "INFO", "MESSAGE" };

static BOOL category_valid(D3D11_MESSAGE_CATEGORY c)
{
    return (UINT)c <= (UINT)D3D11_MESSAGE_CATEGORY_SHADER;
}
static BOOL severity_valid(D3D11_MESSAGE_SEVERITY s)
{
    return (UINT)s <= (UINT)D3D11_MESSAGE_SEVERITY_MESSAGE;
}

/* Stores a message that passes the storage filter (dropping the oldest past the limit) and
 * prints it unless muted. Caller holds q->lock. */
static HRESULT store_locked(struct rt_info_queue *q, D3D11_MESSAGE_CATEGORY c, D3D11_MESSAGE_SEVERITY s,
                            D3D11_MESSAGE_ID id, const char *text)
{
    if (!filter_passes(&q->storage.f[q->storage.n - 1], c, s, id)) {
        q->denied++;
        return S_OK;
    }
    q->allowed++;
    if (!q->mute && wddm_debug_enabled())
        fprintf(stderr, "wddm: runtime: %s %s: %s [ %s %s #%u ]\n", rt_device_is_d3d10(q->device) ? "D3D10" : "D3D11",
                severity_names[s], text, category_names[c], severity_names[s], (UINT)id);
    if (q->limit == 0) {
        q->discarded++;
        return S_OK;
    }
    if (q->count >= q->limit) { /* the oldest gives way */
        free(q->msgs[0].text);
        memmove(q->msgs, q->msgs + 1, (size_t)(q->count - 1) * sizeof *q->msgs);
        q->count--;
        q->discarded++;
    }
    if (q->count == q->cap) {
        UINT64 cap = q->cap ? q->cap * 2 : 16;
        struct iq_message *m = realloc(q->msgs, (size_t)cap * sizeof *m);
        if (!m)
            return E_OUTOFMEMORY;
        q->msgs = m;
        q->cap = cap;
    }
    SIZE_T size = strlen(text) + 1;
    char *copy = malloc(size);
    if (!copy)
        return E_OUTOFMEMORY;
    memcpy(copy, text, size);
    q->msgs[q->count++] = (struct iq_message){ c, s, id, copy, size };
    return S_OK;
}

void rt_info_queue_add(struct rt_device *dev, D3D11_MESSAGE_CATEGORY c, D3D11_MESSAGE_SEVERITY s, D3D11_MESSAGE_ID id,
                       const char *text)
{
    struct rt_info_queue *q = dev->info_queue;
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    (void)store_locked(q, c, s, id, text);
    pthread_mutex_unlock(&q->lock);
}

/* The stored messages the retrieval filter lets through: their count, or the index-th. */
static const struct iq_message *retrieved_locked(struct rt_info_queue *q, UINT64 index, UINT64 *count)
{
    const struct iq_filter *f = &q->retrieval.f[q->retrieval.n - 1];
    UINT64 n = 0;
    for (UINT64 i = 0; i < q->count; i++) {
        const struct iq_message *m = &q->msgs[i];
        if (!filter_passes(f, m->category, m->severity, m->id))
            continue;
        if (!count && n == index)
            return m;
        n++;
    }
    if (count)
        *count = n;
    return NULL;
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
    pthread_mutex_lock(&q->lock);
    q->limit = limit;
    while (q->count > limit) { /* the oldest beyond the new limit go */
        free(q->msgs[0].text);
        memmove(q->msgs, q->msgs + 1, (size_t)(q->count - 1) * sizeof *q->msgs);
        q->count--;
        q->discarded++;
    }
    pthread_mutex_unlock(&q->lock);
    return S_OK;
}

static void STDMETHODCALLTYPE iq_ClearStoredMessages(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    pthread_mutex_lock(&q->lock);
    for (UINT64 i = 0; i < q->count; i++)
        free(q->msgs[i].text);
    q->count = 0;
    pthread_mutex_unlock(&q->lock);
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
    const struct iq_message *m = retrieved_locked(q, index, NULL);
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
            *out = (D3D11_MESSAGE){ m->category, m->severity, m->id, text, m->size };
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
COUNTER(GetNumMessagesAllowedByStorageFilter, q->allowed)
COUNTER(GetNumMessagesDeniedByStorageFilter, q->denied)
COUNTER(GetNumStoredMessages, q->count)
COUNTER(GetNumMessagesDiscardedByMessageCountLimit, q->discarded)
COUNTER(GetMessageCountLimit, q->limit)

static UINT64 STDMETHODCALLTYPE iq_GetNumStoredMessagesAllowedByRetrievalFilter(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    UINT64 n = 0;
    LOCKED(q, (void)retrieved_locked(q, 0, &n));
    return n;
}

/* The storage- and retrieval-filter methods are the same over two stacks. */
#define FILTER_METHODS(Kind, field)                                                                        \
    static HRESULT STDMETHODCALLTYPE iq_Add##Kind##FilterEntries(ID3D11InfoQueue *This,                    \
                                                                 D3D11_INFO_QUEUE_FILTER *filter)          \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        if (!filter) {                                                                                     \
            RT_REFUSE("ID3D1xInfoQueue::Add" #Kind "FilterEntries: pFilter is NULL");                       \
            return E_INVALIDARG;                                                                           \
        }                                                                                                  \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = filter_add(&q->field.f[q->field.n - 1], filter));                                   \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Get##Kind##Filter(ID3D11InfoQueue *This, D3D11_INFO_QUEUE_FILTER *f,  \
                                                          SIZE_T *len)                                      \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = filter_get(&q->field.f[q->field.n - 1], f, len));                                   \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Clear##Kind##Filter(ID3D11InfoQueue *This)                            \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        LOCKED(q, filter_clear(&q->field.f[q->field.n - 1]));                                              \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushEmpty##Kind##Filter(ID3D11InfoQueue *This)                     \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = stack_push(&q->field, FALSE, NULL));                                                \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_PushCopyOf##Kind##Filter(ID3D11InfoQueue *This)                    \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = stack_push(&q->field, TRUE, NULL));                                                 \
        return hr;                                                                                         \
    }                                                                                                      \
    static HRESULT STDMETHODCALLTYPE iq_Push##Kind##Filter(ID3D11InfoQueue *This, D3D11_INFO_QUEUE_FILTER *f) \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        if (!f) {                                                                                          \
            RT_REFUSE("ID3D1xInfoQueue::Push" #Kind "Filter: pFilter is NULL");                             \
            return E_INVALIDARG;                                                                           \
        }                                                                                                  \
        HRESULT hr;                                                                                        \
        LOCKED(q, hr = stack_push(&q->field, FALSE, f));                                                   \
        return hr;                                                                                         \
    }                                                                                                      \
    static void STDMETHODCALLTYPE iq_Pop##Kind##Filter(ID3D11InfoQueue *This)                              \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        LOCKED(q, stack_pop(&q->field));                                                                   \
    }                                                                                                      \
    static UINT STDMETHODCALLTYPE iq_Get##Kind##FilterStackSize(ID3D11InfoQueue *This)                     \
    {                                                                                                      \
        struct rt_info_queue *q = iq_of(This);                                                             \
        UINT n;                                                                                            \
        LOCKED(q, n = q->field.n);                                                                         \
        return n;                                                                                          \
    }
FILTER_METHODS(Storage, storage)
FILTER_METHODS(Retrieval, retrieval)

static HRESULT STDMETHODCALLTYPE iq_AddMessage(ID3D11InfoQueue *This, D3D11_MESSAGE_CATEGORY c,
                                               D3D11_MESSAGE_SEVERITY s, D3D11_MESSAGE_ID id, LPCSTR text)
{
    if (!category_valid(c) || !severity_valid(s) || !text) {
        RT_REFUSE("ID3D1xInfoQueue::AddMessage: category %u / severity %u out of range, or no description", (UINT)c,
                  (UINT)s);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    HRESULT hr;
    LOCKED(q, hr = store_locked(q, c, s, id, text));
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
    if (!category_valid(c)) {
        RT_REFUSE("ID3D1xInfoQueue::SetBreakOnCategory: category %u out of range", (UINT)c);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->breaks.category[c] = on ? TRUE : FALSE);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnSeverity(ID3D11InfoQueue *This, D3D11_MESSAGE_SEVERITY s, BOOL on)
{
    if (!severity_valid(s)) {
        RT_REFUSE("ID3D1xInfoQueue::SetBreakOnSeverity: severity %u out of range", (UINT)s);
        return E_INVALIDARG;
    }
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->breaks.severity[s] = on ? TRUE : FALSE);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnID(ID3D11InfoQueue *This, D3D11_MESSAGE_ID id, BOOL on)
{
    struct rt_info_queue *q = iq_of(This);
    HRESULT hr = S_OK;
    pthread_mutex_lock(&q->lock);
    struct iq_list *l = &q->breaks.ids;
    BOOL has = list_has(l, (UINT)id);
    if (on && !has) {
        UINT v = (UINT)id;
        hr = list_append(l, 1, &v);
    } else if (!on && has) {
        for (UINT i = 0; i < l->n; i++)
            if (l->v[i] == (UINT)id)
                l->v[i] = l->v[--l->n];
    }
    pthread_mutex_unlock(&q->lock);
    return hr;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnCategory(ID3D11InfoQueue *This, D3D11_MESSAGE_CATEGORY c)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on = FALSE;
    if (category_valid(c))
        LOCKED(q, on = q->breaks.category[c]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnSeverity(ID3D11InfoQueue *This, D3D11_MESSAGE_SEVERITY s)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on = FALSE;
    if (severity_valid(s))
        LOCKED(q, on = q->breaks.severity[s]);
    return on;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnID(ID3D11InfoQueue *This, D3D11_MESSAGE_ID id)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL on;
    LOCKED(q, on = list_has(&q->breaks.ids, (UINT)id));
    return on;
}

static void STDMETHODCALLTYPE iq_SetMuteDebugOutput(ID3D11InfoQueue *This, BOOL mute)
{
    struct rt_info_queue *q = iq_of(This);
    LOCKED(q, q->mute = mute ? TRUE : FALSE);
}

static BOOL STDMETHODCALLTYPE iq_GetMuteDebugOutput(ID3D11InfoQueue *This)
{
    struct rt_info_queue *q = iq_of(This);
    BOOL mute;
    LOCKED(q, mute = q->mute);
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
    q->limit = D3D11_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT;
    pthread_mutex_init(&q->lock, NULL);
    if (FAILED(stack_push(&q->storage, FALSE, NULL)) || FAILED(stack_push(&q->retrieval, FALSE, NULL))) {
        rt_info_queue_destroy(q);
        return E_OUTOFMEMORY;
    }
    dev->info_queue = q;
    return S_OK;
}

void rt_info_queue_destroy(struct rt_info_queue *q)
{
    if (!q)
        return;
    for (UINT64 i = 0; i < q->count; i++)
        free(q->msgs[i].text);
    free(q->msgs);
    struct iq_stack *stacks[2] = { &q->storage, &q->retrieval };
    for (int s = 0; s < 2; s++) {
        for (UINT i = 0; i < stacks[s]->n; i++)
            filter_clear(&stacks[s]->f[i]);
        free(stacks[s]->f);
    }
    free(q->breaks.ids.v);
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
