/*
 * msg_store.h - one debug message store: the messages, the storage and retrieval filter
 * stacks, the count limit, the counters, the break settings and mute (msg_store.c).
 *
 * Every info queue of the runtime is made of these: a debug device's queue (info_queue.c: one
 * store behind ID3D11InfoQueue and ID3D10InfoQueue) and the process's DXGI info queue
 * (dxgi_debug.c: one store per producer behind IDXGIInfoQueue). The store takes no lock: its
 * owner holds its own around every call.
 *
 * Filters are passed in the SDK's D3D11_INFO_QUEUE_FILTER layout; D3D10_INFO_QUEUE_FILTER and
 * DXGI_INFO_QUEUE_FILTER have that layout too (each face asserts it), and every category,
 * severity and ID of the three APIs is a 32-bit value.
 */
#ifndef LIBWDDM_RUNTIME_MSG_STORE_H
#define LIBWDDM_RUNTIME_MSG_STORE_H

#include "d3d11sdklayers.h"

enum { RT_MSG_CAT, RT_MSG_SEV, RT_MSG_ID, RT_MSG_KINDS };

struct rt_msg_list {
    UINT n;
    UINT *v;
};

struct rt_msg_filter {
    struct rt_msg_list allow[RT_MSG_KINDS], deny[RT_MSG_KINDS];
};

struct rt_msg_stack {
    struct rt_msg_filter *f;        /* f[n - 1] is the top; n >= 1 */
    UINT n;
};

struct rt_msg {
    UINT category, severity, id;
    char *text;
    SIZE_T size;                    /* strlen(text) + 1 */
    UINT64 seq;                     /* the owner's arrival number (orders several stores' messages) */
};

/* The highest category and severity value the three APIs define (the same in each). */
#define RT_MSG_CATEGORY_MAX ((UINT)D3D11_MESSAGE_CATEGORY_SHADER)
#define RT_MSG_SEVERITY_MAX ((UINT)D3D11_MESSAGE_SEVERITY_MESSAGE)

struct rt_msg_store {
    const char *label;              /* who speaks in the printed line ("D3D11", "DXGI", ...) */
    struct rt_msg *msgs;            /* oldest first */
    UINT64 count, cap, limit;
    UINT64 allowed, denied, discarded;
    struct rt_msg_stack storage, retrieval;
    BOOL break_category[RT_MSG_CATEGORY_MAX + 1];
    BOOL break_severity[RT_MSG_SEVERITY_MAX + 1];
    struct rt_msg_list break_ids;
    BOOL mute;
};

HRESULT rt_msg_store_init(struct rt_msg_store *s, const char *label); /* limit: the SDKs' default, 1024 */
void rt_msg_store_fini(struct rt_msg_store *s);

BOOL rt_msg_category_valid(UINT c);
BOOL rt_msg_severity_valid(UINT s);

/* A message through the storage filter (counted as allowed or denied), printed under WDDM_DEBUG
 * unless muted or `quiet` (a copy another store printed already), stored (the oldest giving
 * way past the limit). *brk: the break settings name it - the owner calls wddm_debug_break()
 * once its lock is released. */
HRESULT rt_msg_store_add(struct rt_msg_store *s, UINT c, UINT sev, UINT id, const char *text, UINT64 seq, BOOL quiet,
                         BOOL *brk);
void rt_msg_store_set_limit(struct rt_msg_store *s, UINT64 limit);
void rt_msg_store_clear(struct rt_msg_store *s);
/* The stored messages the retrieval filter lets through: with count, their number (NULL
 * answered); without, the index-th (NULL past the end). */
const struct rt_msg *rt_msg_store_retrieved(const struct rt_msg_store *s, UINT64 index, UINT64 *count);
/* Whether a message passes a filter (every allow list empty or naming it, no deny list naming it). */
BOOL rt_msg_passes(const struct rt_msg_filter *f, UINT c, UINT s, UINT id);

/* The filter stacks (`which`: &s->storage or &s->retrieval). `iface` names the interface in
 * refusals ("ID3D1xInfoQueue", "IDXGIInfoQueue"). */
HRESULT rt_msg_filter_add(struct rt_msg_stack *st, const D3D11_INFO_QUEUE_FILTER *in, const char *iface);
HRESULT rt_msg_filter_get(const struct rt_msg_stack *st, D3D11_INFO_QUEUE_FILTER *out, SIZE_T *len, const char *iface);
void rt_msg_filter_clear_top(struct rt_msg_stack *st);
HRESULT rt_msg_stack_push_empty(struct rt_msg_stack *st);
HRESULT rt_msg_stack_push_copy(struct rt_msg_stack *st);
HRESULT rt_msg_stack_push(struct rt_msg_stack *st, const D3D11_INFO_QUEUE_FILTER *in, const char *iface);
HRESULT rt_msg_stack_push_deny_all(struct rt_msg_stack *st);
void rt_msg_stack_pop(struct rt_msg_stack *st);

/* The break settings (rt_msg_store_add's *brk; wddm_debug_break: SIGTRAP under a debugger,
 * common/debug.c). */
HRESULT rt_msg_break_id(struct rt_msg_store *s, UINT id, BOOL on);
BOOL rt_msg_break_id_get(const struct rt_msg_store *s, UINT id);

#endif
