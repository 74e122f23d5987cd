/*
 * msg_store.c - one debug message store (msg_store.h), shared by every info queue face: the
 * ID3D11InfoQueue / ID3D10InfoQueue of a debug device (info_queue.c) and each producer of the
 * process's IDXGIInfoQueue (dxgi_debug.c). The rules are the info-queue references' (the
 * ID3D11InfoQueue and IDXGIInfoQueue interface pages):
 *
 * - a message passes the storage filter on top of the storage-filter stack or is counted as
 *   denied; stored messages beyond the count limit (default 1024, the SDKs'
 *   *_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT; -1 = none) push the oldest out and are counted as
 *   discarded;
 * - GetMessage indexes the stored messages that pass the retrieval filter;
 * - each filter stack starts with one empty filter, which Pop keeps; Get*Filter answers its
 *   length first, then the filter with its lists behind it.
 *
 * Filter semantics (model decision, docs/api.md "The debug layer"): a message passes a filter
 * when, for each of category, severity and ID, the allow list is empty or names it, and no deny
 * list names it. A message that passes the storage filter is printed (with WDDM_DEBUG, the
 * output a debugger would show on Windows) unless muted.
 */
#include "runtime/runtime.h"
#include "runtime/msg_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(D3D11_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT == 1024, "the SDKs' default message count limit");

/* ---- filters ------------------------------------------------------------------------------------ */

static BOOL list_has(const struct rt_msg_list *l, UINT v)
{
    for (UINT i = 0; i < l->n; i++)
        if (l->v[i] == v)
            return TRUE;
    return FALSE;
}

BOOL rt_msg_passes(const struct rt_msg_filter *f, UINT c, UINT s, UINT id)
{
    const UINT v[RT_MSG_KINDS] = { c, s, id };
    for (int k = 0; k < RT_MSG_KINDS; k++) {
        if (f->allow[k].n && !list_has(&f->allow[k], v[k]))
            return FALSE;
        if (list_has(&f->deny[k], v[k]))
            return FALSE;
    }
    return TRUE;
}

static void filter_clear(struct rt_msg_filter *f)
{
    for (int k = 0; k < RT_MSG_KINDS; k++) {
        free(f->allow[k].v);
        free(f->deny[k].v);
    }
    memset(f, 0, sizeof *f);
}

static HRESULT list_append(struct rt_msg_list *l, UINT n, const void *vals, const char *iface)
{
    if (!n)
        return S_OK;
    if (!vals) {
        RT_REFUSE("%s: a filter list of %u entries has a NULL array", iface, n);
        return E_INVALIDARG;
    }
    UINT *v = realloc(l->v, ((size_t)l->n + n) * sizeof *v);
    if (!v)
        return E_OUTOFMEMORY;
    memcpy(v + l->n, vals, (size_t)n * sizeof *v); /* categories, severities and IDs are 32-bit */
    l->v = v;
    l->n += n;
    return S_OK;
}

/* The lists of an application's filter, appended to `f`. */
static HRESULT filter_add(struct rt_msg_filter *f, const D3D11_INFO_QUEUE_FILTER *in, const char *iface)
{
    const D3D11_INFO_QUEUE_FILTER_DESC *d[2] = { &in->AllowList, &in->DenyList };
    struct rt_msg_list *out[2] = { f->allow, f->deny };
    HRESULT hr = S_OK;
    for (int i = 0; i < 2 && SUCCEEDED(hr); i++) {
        hr = list_append(&out[i][RT_MSG_CAT], d[i]->NumCategories, d[i]->pCategoryList, iface);
        if (SUCCEEDED(hr))
            hr = list_append(&out[i][RT_MSG_SEV], d[i]->NumSeverities, d[i]->pSeverityList, iface);
        if (SUCCEEDED(hr))
            hr = list_append(&out[i][RT_MSG_ID], d[i]->NumIDs, d[i]->pIDList, iface);
    }
    return hr;
}

HRESULT rt_msg_filter_add(struct rt_msg_stack *st, const D3D11_INFO_QUEUE_FILTER *in, const char *iface)
{
    if (!in) {
        RT_REFUSE("%s::Add*FilterEntries: pFilter is NULL", iface);
        return E_INVALIDARG;
    }
    return filter_add(&st->f[st->n - 1], in, iface);
}

static SIZE_T filter_bytes(const struct rt_msg_filter *f)
{
    SIZE_T n = 0;
    for (int k = 0; k < RT_MSG_KINDS; k++)
        n += (SIZE_T)f->allow[k].n + f->deny[k].n;
    return sizeof(D3D11_INFO_QUEUE_FILTER) + n * sizeof(UINT);
}

/* One list copied to *p (advanced past it); NULL for an empty list. */
static UINT *list_out(UINT **p, const struct rt_msg_list *l)
{
    if (!l->n)
        return NULL;
    UINT *at = *p;
    memcpy(at, l->v, l->n * sizeof *at);
    *p += l->n;
    return at;
}

/* Get*Filter: the length first (pFilter NULL), then the filter with its lists behind it. */
HRESULT rt_msg_filter_get(const struct rt_msg_stack *st, D3D11_INFO_QUEUE_FILTER *out, SIZE_T *len, const char *iface)
{
    const struct rt_msg_filter *f = &st->f[st->n - 1];
    if (!len) {
        RT_REFUSE("%s::Get*Filter: pFilterByteLength is NULL", iface);
        return E_INVALIDARG;
    }
    SIZE_T need = filter_bytes(f);
    if (!out) {
        *len = need;
        return S_FALSE;
    }
    if (*len < need) {
        RT_REFUSE("%s::Get*Filter: %zu bytes given, %zu needed", iface, (size_t)*len, (size_t)need);
        return E_INVALIDARG;
    }
    memset(out, 0, sizeof *out);
    UINT *p = (UINT *)(out + 1);
    D3D11_INFO_QUEUE_FILTER_DESC *d[2] = { &out->AllowList, &out->DenyList };
    const struct rt_msg_list *in[2] = { f->allow, f->deny };
    for (int i = 0; i < 2; i++) {
        d[i]->NumCategories = in[i][RT_MSG_CAT].n;
        d[i]->pCategoryList = (D3D11_MESSAGE_CATEGORY *)list_out(&p, &in[i][RT_MSG_CAT]);
        d[i]->NumSeverities = in[i][RT_MSG_SEV].n;
        d[i]->pSeverityList = (D3D11_MESSAGE_SEVERITY *)list_out(&p, &in[i][RT_MSG_SEV]);
        d[i]->NumIDs = in[i][RT_MSG_ID].n;
        d[i]->pIDList = (D3D11_MESSAGE_ID *)list_out(&p, &in[i][RT_MSG_ID]);
    }
    *len = need;
    return S_OK;
}

void rt_msg_filter_clear_top(struct rt_msg_stack *st)
{
    filter_clear(&st->f[st->n - 1]);
}

/* Pushes an empty filter, a copy of the top one (copy_top), the application's `in`, or one
 * that denies every severity (deny_all: nothing passes it). */
static HRESULT stack_push(struct rt_msg_stack *s, BOOL copy_top, const D3D11_INFO_QUEUE_FILTER *in, BOOL deny_all,
                          const char *iface)
{
    struct rt_msg_filter *f = realloc(s->f, ((size_t)s->n + 1) * sizeof *f);
    if (!f)
        return E_OUTOFMEMORY;
    s->f = f; /* the old top moved with the array: taken from it only now */
    struct rt_msg_filter *top = &f[s->n];
    const struct rt_msg_filter *copy_of = copy_top && s->n ? &f[s->n - 1] : NULL;
    memset(top, 0, sizeof *top);
    HRESULT hr = S_OK;
    if (copy_of) {
        for (int k = 0; k < RT_MSG_KINDS && SUCCEEDED(hr); k++) {
            hr = list_append(&top->allow[k], copy_of->allow[k].n, copy_of->allow[k].v, iface);
            if (SUCCEEDED(hr))
                hr = list_append(&top->deny[k], copy_of->deny[k].n, copy_of->deny[k].v, iface);
        }
    } else if (in) {
        hr = filter_add(top, in, iface);
    } else if (deny_all) {
        static const UINT every[] = { 0, 1, 2, 3, 4 };
        _Static_assert(sizeof every / sizeof every[0] == RT_MSG_SEVERITY_MAX + 1, "every severity");
        hr = list_append(&top->deny[RT_MSG_SEV], RT_MSG_SEVERITY_MAX + 1, every, iface);
    }
    if (FAILED(hr)) {
        filter_clear(top);
        return hr;
    }
    s->n++;
    return S_OK;
}

HRESULT rt_msg_stack_push_empty(struct rt_msg_stack *st)
{
    return stack_push(st, FALSE, NULL, FALSE, "info queue");
}

HRESULT rt_msg_stack_push_copy(struct rt_msg_stack *st)
{
    return stack_push(st, TRUE, NULL, FALSE, "info queue");
}

HRESULT rt_msg_stack_push(struct rt_msg_stack *st, const D3D11_INFO_QUEUE_FILTER *in, const char *iface)
{
    if (!in) {
        RT_REFUSE("%s::Push*Filter: pFilter is NULL", iface);
        return E_INVALIDARG;
    }
    return stack_push(st, FALSE, in, FALSE, iface);
}

HRESULT rt_msg_stack_push_deny_all(struct rt_msg_stack *st)
{
    return stack_push(st, FALSE, NULL, TRUE, "info queue");
}

void rt_msg_stack_pop(struct rt_msg_stack *st)
{
    if (st->n > 1) /* the bottom filter stays */
        filter_clear(&st->f[--st->n]);
}

static void stack_free(struct rt_msg_stack *st)
{
    for (UINT i = 0; i < st->n; i++)
        filter_clear(&st->f[i]);
    free(st->f);
    st->f = NULL;
    st->n = 0;
}

/* ---- storage ------------------------------------------------------------------------------------ */

static const char *const category_names[] = {
    "APPLICATION_DEFINED", "MISCELLANEOUS", "INITIALIZATION", "CLEANUP", "COMPILATION", "STATE_CREATION",
    "STATE_SETTING", "STATE_GETTING", "RESOURCE_MANIPULATION", "EXECUTION", "SHADER",
};
static const char *const severity_names[] = { "CORRUPTION", "ERROR", "WARNING", "INFO", "MESSAGE" };

BOOL rt_msg_category_valid(UINT c)
{
    return c <= RT_MSG_CATEGORY_MAX;
}

BOOL rt_msg_severity_valid(UINT s)
{
    return s <= RT_MSG_SEVERITY_MAX;
}

HRESULT rt_msg_store_init(struct rt_msg_store *s, const char *label)
{
    memset(s, 0, sizeof *s);
    s->label = label;
    s->limit = D3D11_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT;
    if (FAILED(rt_msg_stack_push_empty(&s->storage)) || FAILED(rt_msg_stack_push_empty(&s->retrieval))) {
        rt_msg_store_fini(s);
        return E_OUTOFMEMORY;
    }
    return S_OK;
}

void rt_msg_store_fini(struct rt_msg_store *s)
{
    rt_msg_store_clear(s);
    free(s->msgs);
    s->msgs = NULL;
    stack_free(&s->storage);
    stack_free(&s->retrieval);
    free(s->break_ids.v);
    s->break_ids.v = NULL;
    s->break_ids.n = 0;
}

static void drop_oldest(struct rt_msg_store *s)
{
    free(s->msgs[0].text);
    memmove(s->msgs, s->msgs + 1, (size_t)(s->count - 1) * sizeof *s->msgs);
    s->count--;
    s->discarded++;
}

/* Whether a message is one the break settings name (category, severity or ID). */
static BOOL breaks_on(const struct rt_msg_store *s, UINT c, UINT sev, UINT id)
{
    return (rt_msg_category_valid(c) && s->break_category[c]) ||
           (rt_msg_severity_valid(sev) && s->break_severity[sev]) || list_has(&s->break_ids, id);
}

static HRESULT store_message(struct rt_msg_store *s, UINT c, UINT sev, UINT id, const char *text, UINT64 seq,
                             BOOL quiet);

/* A message the break settings name sets *brk once it passed the storage filter (ID3D11InfoQueue::
 * SetBreakOnSeverity: "when a message with that severity level passes through the storage
 * filter"); the owner breaks (wddm_debug_break) after releasing its lock, so that whatever
 * runs at the break - a debugger's command, a SIGTRAP handler - may use the queue. */
HRESULT rt_msg_store_add(struct rt_msg_store *s, UINT c, UINT sev, UINT id, const char *text, UINT64 seq, BOOL quiet,
                         BOOL *brk)
{
    *brk = FALSE;
    if (!rt_msg_passes(&s->storage.f[s->storage.n - 1], c, sev, id)) {
        s->denied++;
        return S_OK;
    }
    s->allowed++;
    *brk = breaks_on(s, c, sev, id);
    return store_message(s, c, sev, id, text, seq, quiet);
}

static HRESULT store_message(struct rt_msg_store *s, UINT c, UINT sev, UINT id, const char *text, UINT64 seq,
                             BOOL quiet)
{
    if (!s->mute && !quiet && wddm_debug_enabled())
        fprintf(stderr, "wddm: runtime: %s %s: %s [ %s %s #%d ]\n", s->label,
                rt_msg_severity_valid(sev) ? severity_names[sev] : "?", text,
                rt_msg_category_valid(c) ? category_names[c] : "?",
                rt_msg_severity_valid(sev) ? severity_names[sev] : "?", (int)id);
    if (s->limit == 0) {
        s->discarded++;
        return S_OK;
    }
    if (s->count >= s->limit) /* the oldest gives way */
        drop_oldest(s);
    if (s->count == s->cap) {
        UINT64 cap = s->cap ? s->cap * 2 : 16;
        struct rt_msg *m = realloc(s->msgs, (size_t)cap * sizeof *m);
        if (!m)
            return E_OUTOFMEMORY;
        s->msgs = m;
        s->cap = cap;
    }
    SIZE_T size = strlen(text) + 1;
    char *copy = malloc(size);
    if (!copy)
        return E_OUTOFMEMORY;
    memcpy(copy, text, size);
    s->msgs[s->count++] = (struct rt_msg){ c, sev, id, copy, size, seq };
    return S_OK;
}

void rt_msg_store_set_limit(struct rt_msg_store *s, UINT64 limit)
{
    s->limit = limit;
    while (s->count > limit) /* the oldest beyond the new limit go */
        drop_oldest(s);
}

void rt_msg_store_clear(struct rt_msg_store *s)
{
    for (UINT64 i = 0; i < s->count; i++)
        free(s->msgs[i].text);
    s->count = 0;
}

const struct rt_msg *rt_msg_store_retrieved(const struct rt_msg_store *s, UINT64 index, UINT64 *count)
{
    const struct rt_msg_filter *f = &s->retrieval.f[s->retrieval.n - 1];
    UINT64 n = 0;
    for (UINT64 i = 0; i < s->count; i++) {
        const struct rt_msg *m = &s->msgs[i];
        if (!rt_msg_passes(f, m->category, m->severity, m->id))
            continue;
        if (!count && n == index)
            return m;
        n++;
    }
    if (count)
        *count = n;
    return NULL;
}

/* ---- break settings ----------------------------------------------------------------------------- */

HRESULT rt_msg_break_id(struct rt_msg_store *s, UINT id, BOOL on)
{
    struct rt_msg_list *l = &s->break_ids;
    BOOL has = list_has(l, id);
    if (on && !has)
        return list_append(l, 1, &id, "info queue");
    if (!on && has)
        for (UINT i = 0; i < l->n; i++)
            if (l->v[i] == id)
                l->v[i] = l->v[--l->n];
    return S_OK;
}

BOOL rt_msg_break_id_get(const struct rt_msg_store *s, UINT id)
{
    return list_has(&s->break_ids, id);
}
