/* The debug layer of a D3D10 device (issue 15 §4): ID3D10InfoQueue and ID3D10Debug of a device
 * created with D3D10_CREATE_DEVICE_DEBUG. Sources: the ID3D10InfoQueue and ID3D10Debug reference
 * pages (message storage, the filter stacks, GetMessage's two calls, the feature mask) and
 * Wine's d3d10core tests, which run on Windows (a device created without the debug flag answers
 * the info queue with E_NOINTERFACE). The D3D10 queue is the D3D11 queue of the same device seen
 * through D3D10's types (docs/api.md "The debug layer"): a refusal made in a D3D10 call is a
 * message with an ID the D3D10 API names, read through either face. docs/rules/debug.md. */
/* rule: debug.one-message-store-producer-storage */
#include "e2e/e2e.h"

#include <d3d10_1.h>
#include <d3d10sdklayers.h>
#include <d3d11sdklayers.h>

struct dbg10 {
    ID3D10Device *dev;
    ID3D10InfoQueue *iq;
    ID3D10Debug *debug;
};

static int setup_debug10(void **state)
{
    struct dbg10 *d = calloc(1, sizeof *d);
    if (FAILED(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, D3D10_CREATE_DEVICE_DEBUG, D3D10_SDK_VERSION,
                                 &d->dev)) ||
        FAILED(ID3D10Device_QueryInterface(d->dev, &IID_ID3D10InfoQueue, (void **)&d->iq)) ||
        FAILED(ID3D10Device_QueryInterface(d->dev, &IID_ID3D10Debug, (void **)&d->debug)))
        return -1;
    ID3D10InfoQueue_SetMuteDebugOutput(d->iq, TRUE); /* the test reads the queue, not stderr */
    *state = d;
    return 0;
}

static int teardown_debug10(void **state)
{
    struct dbg10 *d = *state;
    SAFE_RELEASE(d->debug);
    SAFE_RELEASE(d->iq);
    assert_int_equal(ID3D10Device_Release(d->dev), 0);
    free(d);
    return 0;
}

/* The index-th retrievable message through the D3D10 face: its length first, then the message
 * with its text behind it (the caller frees it). */
static D3D10_MESSAGE *get_message10(ID3D10InfoQueue *iq, UINT64 index)
{
    SIZE_T len = 0;
    assert_int_equal(ID3D10InfoQueue_GetMessage(iq, index, NULL, &len), S_FALSE);
    assert_true(len > sizeof(D3D10_MESSAGE));
    D3D10_MESSAGE *m = malloc(len);
    SIZE_T small = len - 1;
    assert_int_equal(ID3D10InfoQueue_GetMessage(iq, index, m, &small), E_INVALIDARG);
    assert_int_equal(ID3D10InfoQueue_GetMessage(iq, index, m, &len), S_OK);
    assert_int_equal(m->DescriptionByteLength, strlen(m->pDescription) + 1);
    assert_ptr_equal(m->pDescription, (const char *)(m + 1));
    return m;
}

/* The last stored message's category, severity and ID, checked, then the queue emptied. */
static void expect_last(ID3D10InfoQueue *iq, D3D10_MESSAGE_CATEGORY c, D3D10_MESSAGE_ID id, const char *text)
{
    UINT64 n = ID3D10InfoQueue_GetNumStoredMessages(iq);
    assert_true(n >= 1);
    D3D10_MESSAGE *m = get_message10(iq, n - 1);
    assert_int_equal(m->Category, c);
    assert_int_equal(m->Severity, D3D10_MESSAGE_SEVERITY_ERROR);
    assert_int_equal(m->ID, id);
    if (text && !strstr(m->pDescription, text))
        fail_msg("message \"%s\" does not name \"%s\"", m->pDescription, text);
    free(m);
    ID3D10InfoQueue_ClearStoredMessages(iq);
}

static void check_no_iface(void *obj, REFIID iid)
{
    void *p = (void *)(uintptr_t)1;
    assert_int_equal(((IUnknown *)obj)->lpVtbl->QueryInterface((IUnknown *)obj, iid, &p), E_NOINTERFACE);
    assert_null(p);
}

/* Without the flag (D3D10CreateDevice, D3D10CreateDevice1) there is no debug layer; with it
 * both interfaces are faces of the device (one reference count, QueryInterface reaches the
 * device). A D3D11 debug device has no D3D10 faces, as it has no ID3D10Device. */
/* rule: d3d10.id3d10debug-id3d10infoqueue-exist-only */
static void the_d3d10_debug_layer_exists_only_with_the_flag(void **state)
{
    struct dbg10 *d = *state;
    ID3D10Device *plain = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &plain), S_OK);
    check_no_iface(plain, &IID_ID3D10InfoQueue);
    check_no_iface(plain, &IID_ID3D10Debug);
    check_no_iface(plain, &IID_ID3D11InfoQueue);
    assert_int_equal(ID3D10Device_Release(plain), 0);
    ID3D10Device1 *plain1 = NULL;
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_1,
                                        D3D10_1_SDK_VERSION, &plain1), S_OK);
    check_no_iface(plain1, &IID_ID3D10InfoQueue);
    assert_int_equal(ID3D10Device1_Release(plain1), 0);
    ID3D11Device *d11 = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                       D3D11_SDK_VERSION, &d11, NULL, NULL), S_OK);
    check_no_iface(d11, &IID_ID3D10InfoQueue);
    check_no_iface(d11, &IID_ID3D10Debug);
    assert_int_equal(ID3D11Device_Release(d11), 0);

    ULONG before = ID3D10Device_AddRef(d->dev) - 1;
    ID3D10Device_Release(d->dev);
    assert_int_equal(ID3D10InfoQueue_AddRef(d->iq), before + 1);
    ID3D10InfoQueue_Release(d->iq);
    ID3D10Device *back = NULL;
    assert_int_equal(ID3D10Debug_QueryInterface(d->debug, &IID_ID3D10Device, (void **)&back), S_OK);
    assert_ptr_equal(back, d->dev);
    ID3D10Device_Release(back);
    assert_int_equal(ID3D10InfoQueue_QueryInterface(d->iq, &IID_ID3D10Device, (void **)&back), S_OK);
    assert_ptr_equal(back, d->dev);
    ID3D10Device_Release(back);
    assert_int_equal(ID3D10InfoQueue_GetMessageCountLimit(d->iq), D3D10_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT);
    assert_int_equal(ID3D10InfoQueue_GetStorageFilterStackSize(d->iq), 1);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 0);
}

/* A refused D3D10 call is a stored message: severity ERROR, the method's category, and an ID
 * the D3D10 API names - the creation's INVALIDARG_RETURN whether the D3D10 layer refused the
 * description (a D3D11-only bind flag, no description) or the core did (ByteWidth 0); Map and
 * Unmap's per resource kind (D3D11 has one RESOURCE_MAP_* set, D3D10 one per kind); the
 * method's own where D3D10 names nothing closer. */
/* rule: debug.refusal-inside-call-through-d3d10-face (mutation-checked: not marking the D3D10 call reports `RESOURCE_MAP_INVALIDMAPTYPE` and fails it) */
static void d3d10_refusals_become_messages(void **state)
{
    struct dbg10 *d = *state;
    ID3D10Buffer *b = NULL;
    D3D10_BUFFER_DESC bd = { 0, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 1);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_STATE_CREATION, D3D10_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN,
                "ByteWidth");
    bd = (D3D10_BUFFER_DESC){ 64, D3D10_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &b), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_STATE_CREATION, D3D10_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN,
                "BindFlags");
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(d->dev, NULL, NULL, &t), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_STATE_CREATION, D3D10_MESSAGE_ID_CREATETEXTURE2D_INVALIDARG_RETURN,
                "pDesc");

    bd = (D3D10_BUFFER_DESC){ 64, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &b), S_OK);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 0); /* success adds nothing */
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(b, D3D10_MAP_READ, 0, &p), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_BUFFER_MAP_INVALIDMAPTYPE,
                "USAGE_DEFAULT");
    assert_int_equal(ID3D10Buffer_Map(b, D3D10_MAP_READ, 0x8, &p), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_BUFFER_MAP_INVALIDFLAGS,
                "MapFlags");
    ID3D10Buffer_Unmap(b);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_BUFFER_UNMAP_NOTMAPPED, NULL);

    D3D10_TEXTURE2D_DESC td = { 8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_STAGING, 0,
                                D3D10_CPU_ACCESS_READ, 0 };
    assert_int_equal(ID3D10Device_CreateTexture2D(d->dev, &td, NULL, &t), S_OK);
    D3D10_MAPPED_TEXTURE2D mt;
    assert_int_equal(ID3D10Texture2D_Map(t, 3, D3D10_MAP_READ, 0, &mt), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                D3D10_MESSAGE_ID_TEXTURE2D_MAP_INVALIDSUBRESOURCE, "Subresource 3");
    assert_int_equal(ID3D10Texture2D_Map(t, 0, D3D10_MAP_READ, 0, &mt), S_OK);
    assert_int_equal(ID3D10Texture2D_Map(t, 0, D3D10_MAP_READ, 0, &mt), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_TEXTURE2D_MAP_ALREADYMAPPED,
                "already mapped");
    ID3D10Texture2D_Unmap(t, 0);
    ID3D10Texture2D_Unmap(t, 0);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_TEXTURE2D_UNMAP_NOTMAPPED,
                NULL);

    const FLOAT color[4] = { 0 }; /* D3D10 has no ID for a bad view to clear: the method's, UNKNOWN */
    ID3D10Device_ClearRenderTargetView(d->dev, NULL, color);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_UNKNOWN, "pRenderTargetView");
    ID3D10Device_CopyResource(d->dev, (ID3D10Resource *)t, NULL);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D10_MESSAGE_ID_COPYRESOURCE_INVALIDSOURCE,
                NULL);
    assert_int_equal(ID3D10Device_CreateQuery(d->dev, NULL, NULL), E_INVALIDARG);
    expect_last(d->iq, D3D10_MESSAGE_CATEGORY_STATE_CREATION, D3D10_MESSAGE_ID_CREATEQUERYORPREDICATE_INVALIDQUERY,
                "pQueryDesc");
    SAFE_RELEASE(t);
    SAFE_RELEASE(b);
}

/* The filters through the D3D10 face: a storage filter with a deny list drops what it names
 * (counted as denied) and keeps the rest; Get*Filter answers the length, then the filter; a
 * retrieval filter hides stored messages from GetMessage. */
/* rule: debug.id3d10infoqueue-device-one-queue-through (deny list by ID, Get*Filter, retrieval allow list) */
static void d3d10_filters_decide_what_is_stored_and_read(void **state)
{
    struct dbg10 *d = *state;
    D3D10_MESSAGE_ID deny[] = { D3D10_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN };
    D3D10_INFO_QUEUE_FILTER f = { .DenyList = { .NumIDs = 1, .pIDList = deny } };
    assert_int_equal(ID3D10InfoQueue_PushStorageFilter(d->iq, &f), S_OK);
    assert_int_equal(ID3D10InfoQueue_GetStorageFilterStackSize(d->iq), 2);
    SIZE_T len = 0;
    assert_int_equal(ID3D10InfoQueue_GetStorageFilter(d->iq, NULL, &len), S_FALSE);
    assert_int_equal(len, sizeof(D3D10_INFO_QUEUE_FILTER) + sizeof(UINT));
    D3D10_INFO_QUEUE_FILTER *got = malloc(len);
    assert_int_equal(ID3D10InfoQueue_GetStorageFilter(d->iq, got, &len), S_OK);
    assert_int_equal(got->DenyList.NumIDs, 1);
    assert_int_equal(got->DenyList.pIDList[0], D3D10_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN);
    assert_int_equal(got->AllowList.NumSeverities, 0);
    free(got);

    ID3D10Buffer *b = NULL;
    D3D10_BUFFER_DESC bad = { 0, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bad, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 0);
    assert_int_equal(ID3D10InfoQueue_GetNumMessagesDeniedByStorageFilter(d->iq), 1);
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(d->dev, NULL, NULL, &t), E_INVALIDARG); /* not denied */
    assert_int_equal(ID3D10InfoQueue_AddApplicationMessage(d->iq, D3D10_MESSAGE_SEVERITY_INFO, "mine"), S_OK);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 2);

    D3D10_MESSAGE_SEVERITY only[] = { D3D10_MESSAGE_SEVERITY_INFO };
    D3D10_INFO_QUEUE_FILTER r = { .AllowList = { .NumSeverities = 1, .pSeverityList = only } };
    assert_int_equal(ID3D10InfoQueue_PushRetrievalFilter(d->iq, &r), S_OK);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(d->iq), 1);
    D3D10_MESSAGE *m = get_message10(d->iq, 0);
    assert_string_equal(m->pDescription, "mine");
    assert_int_equal(m->Category, D3D10_MESSAGE_CATEGORY_APPLICATION_DEFINED);
    assert_int_equal(m->ID, D3D10_MESSAGE_ID_STRING_FROM_APPLICATION);
    free(m);
    ID3D10InfoQueue_PopRetrievalFilter(d->iq);

    ID3D10InfoQueue_PopStorageFilter(d->iq);
    assert_int_equal(ID3D10InfoQueue_GetStorageFilterStackSize(d->iq), 1);
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bad, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(d->iq), 3);
    assert_int_equal(ID3D10InfoQueue_PushStorageFilter(d->iq, NULL), E_INVALIDARG);
}

/* One store, two faces: the D3D10 device answers ID3D11Device and, with the flag, its
 * ID3D11InfoQueue, which holds the same messages, counters and filters. A refusal in a D3D10
 * call reads as the same number through both (D3D10's IDs are D3D11's namesakes); a refusal in
 * a call through the device's D3D11 face keeps its D3D11 ID. */
/* rule: debug.id3d10infoqueue-device-one-queue-through */
/* rule: debug.refusal-inside-call-through-d3d10-face */
static void one_store_behind_both_faces(void **state)
{
    struct dbg10 *d = *state;
    ID3D11Device *d11 = NULL;
    ID3D11InfoQueue *iq11 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(d->dev, &IID_ID3D11Device, (void **)&d11), S_OK);
    assert_int_equal(ID3D11Device_QueryInterface(d11, &IID_ID3D11InfoQueue, (void **)&iq11), S_OK);
    ID3D10InfoQueue *again = NULL;
    assert_int_equal(ID3D11InfoQueue_QueryInterface(iq11, &IID_ID3D10InfoQueue, (void **)&again), S_OK);
    assert_ptr_equal(again, d->iq);
    ID3D10InfoQueue_Release(again);

    D3D10_BUFFER_DESC bd = { 0, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer *b = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(iq11), 1);
    SIZE_T len = 0;
    assert_int_equal(ID3D11InfoQueue_GetMessage(iq11, 0, NULL, &len), S_FALSE);
    D3D11_MESSAGE *m = malloc(len);
    assert_int_equal(ID3D11InfoQueue_GetMessage(iq11, 0, m, &len), S_OK);
    assert_int_equal(m->ID, D3D11_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN);
    assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_STATE_CREATION);
    D3D10_MESSAGE *m10 = get_message10(d->iq, 0);
    assert_int_equal((UINT)m10->ID, (UINT)m->ID);
    assert_string_equal(m10->pDescription, m->pDescription);
    free(m10);
    free(m);

    D3D11_BUFFER_DESC bd11 = { .ByteWidth = 64, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b11 = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(d11, &bd11, NULL, &b11), S_OK);
    ID3D11DeviceContext *ctx = NULL;
    ID3D11Device_GetImmediateContext(d11, &ctx);
    D3D11_MAPPED_SUBRESOURCE ms;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)b11, 0, (D3D11_MAP)0, 0, &ms), E_INVALIDARG);
    m10 = get_message10(d->iq, 1);
    assert_int_equal((UINT)m10->ID, (UINT)D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDMAPTYPE); /* a D3D11 call's */
    free(m10);

    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(iq11, D3D11_MESSAGE_SEVERITY_WARNING, "from 11"), S_OK);
    m10 = get_message10(d->iq, 2);
    assert_string_equal(m10->pDescription, "from 11");
    assert_int_equal(m10->Severity, D3D10_MESSAGE_SEVERITY_WARNING);
    free(m10);
    assert_int_equal(ID3D10InfoQueue_PushEmptyStorageFilter(d->iq), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetStorageFilterStackSize(iq11), 2);
    ID3D11InfoQueue_PopStorageFilter(iq11);
    ID3D10InfoQueue_ClearStoredMessages(d->iq);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(iq11), 0);
    SAFE_RELEASE(ctx);
    SAFE_RELEASE(b11);
    ID3D11InfoQueue_Release(iq11);
    ID3D11Device_Release(d11);
}

/* ID3D10Debug: the feature mask takes D3D10's three bits (a D3D11-only one is refused) and is
 * the device's one mask, ID3D11Debug reads it; the present delay reads back; Validate finds
 * nothing invalid; there are no swap chains to set or get (not implemented, as ID3D11Debug's). */
/* rule: debug.id3d10debug-setfeaturemask-takes-only */
static void id3d10debug_settings(void **state)
{
    struct dbg10 *d = *state;
    assert_int_equal(ID3D10Debug_SetFeatureMask(d->debug, D3D11_DEBUG_FEATURE_ALWAYS_DISCARD_OFFERED_RESOURCE),
                     E_INVALIDARG);
    assert_int_equal(ID3D10Debug_SetFeatureMask(d->debug, D3D10_DEBUG_FEATURE_FLUSH_PER_RENDER_OP |
                                                              D3D10_DEBUG_FEATURE_PRESENT_PER_RENDER_OP), S_OK);
    assert_int_equal(ID3D10Debug_GetFeatureMask(d->debug),
                     D3D10_DEBUG_FEATURE_FLUSH_PER_RENDER_OP | D3D10_DEBUG_FEATURE_PRESENT_PER_RENDER_OP);
    ID3D11Debug *dbg11 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(d->dev, &IID_ID3D11Debug, (void **)&dbg11), S_OK);
    assert_int_equal(ID3D11Debug_GetFeatureMask(dbg11),
                     D3D11_DEBUG_FEATURE_FLUSH_PER_RENDER_OP | D3D11_DEBUG_FEATURE_PRESENT_PER_RENDER_OP);
    ID3D11Debug_Release(dbg11);
    assert_int_equal(ID3D10Debug_SetFeatureMask(d->debug, 0), S_OK);
    assert_int_equal(ID3D10Debug_SetPresentPerRenderOpDelay(d->debug, 25), S_OK);
    assert_int_equal(ID3D10Debug_GetPresentPerRenderOpDelay(d->debug), 25);
    assert_int_equal(ID3D10Debug_Validate(d->debug), S_OK);
    IDXGISwapChain *sc = (IDXGISwapChain *)(uintptr_t)1;
    assert_int_equal(ID3D10Debug_GetSwapChain(d->debug, &sc), E_NOTIMPL);
    assert_int_equal(ID3D10Debug_SetSwapChain(d->debug, NULL), E_NOTIMPL);
}

/* D3D10_DEBUG_FEATURE_FINISH_PER_RENDER_OP acts on D3D10 copies: each has finished on the GPU
 * when the call returns, so a DO_NOT_WAIT map right after it never answers WAS_STILL_DRAWING,
 * even with the software GPU slowed to 64 MiB/s. */
/* rule: debug.id3d10debug-setfeaturemask-takes-only */
static void finish_per_render_op_waits_for_each_d3d10_copy(void **state)
{
    struct dbg10 *d = *state;
    assert_int_equal(ID3D10Debug_SetFeatureMask(d->debug, D3D10_DEBUG_FEATURE_FINISH_PER_RENDER_OP), S_OK);
    enum { N = 4 << 20 };
    D3D10_BUFFER_DESC bd = { N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer *src = NULL, *dst = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &src), S_OK);
    bd = (D3D10_BUFFER_DESC){ N, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, 0 };
    assert_int_equal(ID3D10Device_CreateBuffer(d->dev, &bd, NULL, &dst), S_OK);
    wddm_swgpu_set_bandwidth(64ull << 20);
    for (int i = 0; i < 2; i++) {
        ID3D10Device_CopyResource(d->dev, (ID3D10Resource *)dst, (ID3D10Resource *)src);
        void *p = NULL;
        HRESULT hr = ID3D10Buffer_Map(dst, D3D10_MAP_READ, D3D10_MAP_FLAG_DO_NOT_WAIT, &p);
        if (hr != S_OK) {
            wddm_swgpu_set_bandwidth(0);
            fail_msg("copy %d: Map(DO_NOT_WAIT) answered 0x%08x after a finished render op", i, (unsigned)hr);
        }
        ID3D10Buffer_Unmap(dst);
    }
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(ID3D10Debug_SetFeatureMask(d->debug, 0), S_OK);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dst);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup_debug10, teardown_debug10)
    const struct CMUnitTest tests[] = {
        T(the_d3d10_debug_layer_exists_only_with_the_flag),
        T(d3d10_refusals_become_messages),
        T(d3d10_filters_decide_what_is_stored_and_read),
        T(one_store_behind_both_faces),
        T(id3d10debug_settings),
        T(finish_per_render_op_waits_for_each_d3d10_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
