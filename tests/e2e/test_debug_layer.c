/* The debug layer (issue 15 §4): ID3D11Debug and ID3D11InfoQueue of a device created with
 * D3D11_CREATE_DEVICE_DEBUG. Sources: the ID3D11InfoQueue and ID3D11Debug reference pages
 * (message storage, the filter stacks, the count limit, GetMessage's two calls, the live-object
 * report) and Wine's d3d10core / d3d10_1 tests, which run on Windows (a device created without
 * the debug flag answers the info queue with E_NOINTERFACE). Every refusal the runtime makes
 * inside an API call of the device must come back as a message with the method's category and
 * message ID; the filters decide what is stored and what is retrieved. */
/* rule: debug.one-message-store-producer-storage */
#include "e2e/e2e.h"

#include <d3d10_1.h>
#include <d3d11_1.h>
#include <dxgi1_2.h>
#include <d3d11sdklayers.h>
#include <signal.h>
#include <wddm/wddm.h>

struct dbg {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    ID3D11InfoQueue *iq;
    ID3D11Debug *debug;
};

static int setup_debug(void **state)
{
    struct dbg *d = calloc(1, sizeof *d);
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                   D3D11_SDK_VERSION, &d->dev, NULL, &d->ctx);
    if (FAILED(hr))
        return -1;
    if (FAILED(ID3D11Device_QueryInterface(d->dev, &IID_ID3D11InfoQueue, (void **)&d->iq)) ||
        FAILED(ID3D11Device_QueryInterface(d->dev, &IID_ID3D11Debug, (void **)&d->debug)))
        return -1;
    ID3D11InfoQueue_SetMuteDebugOutput(d->iq, TRUE); /* the test reads the queue, not stderr */
    *state = d;
    return 0;
}

static int teardown_debug(void **state)
{
    struct dbg *d = *state;
    SAFE_RELEASE(d->debug);
    SAFE_RELEASE(d->iq);
    SAFE_RELEASE(d->ctx);
    assert_int_equal(ID3D11Device_Release(d->dev), 0);
    free(d);
    return 0;
}

/* The index-th retrievable message, copied out (the caller frees it). */
static D3D11_MESSAGE *get_message(ID3D11InfoQueue *iq, UINT64 index)
{
    SIZE_T len = 0;
    assert_int_equal(ID3D11InfoQueue_GetMessage(iq, index, NULL, &len), S_FALSE);
    assert_true(len > sizeof(D3D11_MESSAGE));
    D3D11_MESSAGE *m = malloc(len);
    SIZE_T small = len - 1;
    assert_int_equal(ID3D11InfoQueue_GetMessage(iq, index, m, &small), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetMessage(iq, index, m, &len), S_OK);
    assert_int_equal(m->DescriptionByteLength, strlen(m->pDescription) + 1);
    assert_ptr_equal(m->pDescription, (const char *)(m + 1)); /* the text follows the structure */
    return m;
}

/* Without the flag there is no debug layer: both interfaces answer E_NOINTERFACE. With it, both
 * are faces of the device (one reference count). */
/* rule: runtime.id3d11debug-id3d11infoqueue-exist-only */
static void the_debug_layer_exists_only_with_the_flag(void **state)
{
    struct dbg *d = *state;
    ID3D11Device *plain = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &plain,
                                       NULL, NULL), S_OK);
    void *p = (void *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_QueryInterface(plain, &IID_ID3D11InfoQueue, &p), E_NOINTERFACE);
    assert_null(p);
    assert_int_equal(ID3D11Device_QueryInterface(plain, &IID_ID3D11Debug, &p), E_NOINTERFACE);
    assert_int_equal(ID3D11Device_Release(plain), 0);

    ULONG before = ID3D11Device_AddRef(d->dev) - 1;
    ID3D11Device_Release(d->dev);
    assert_int_equal(ID3D11InfoQueue_AddRef(d->iq), before + 1);
    ID3D11InfoQueue_Release(d->iq);
    ID3D11Device *back = NULL;
    assert_int_equal(ID3D11Debug_QueryInterface(d->debug, &IID_ID3D11Device, (void **)&back), S_OK);
    assert_ptr_equal(back, d->dev);
    ID3D11Device_Release(back);
    assert_int_equal(ID3D11InfoQueue_GetMessageCountLimit(d->iq), D3D11_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT);
    assert_int_equal(ID3D11InfoQueue_GetStorageFilterStackSize(d->iq), 1);
    assert_int_equal(ID3D11InfoQueue_GetRetrievalFilterStackSize(d->iq), 1);
}

/* A refusal becomes a stored message: severity ERROR, the method's category and ID
 * (CreateBuffer: STATE_CREATION, CREATEBUFFER_INVALIDARG_RETURN; Map / Unmap: the site's own
 * RESOURCE_MAP_* / RESOURCE_UNMAP_* ID), the refusal's text as description. */
/* rule: debug.refusal-inside-api-call-debug-device (mutation-checked: ignoring the site ID fails it) */
/* rule: debug.count-limit-past-oldest-stored-message */
static void refusals_become_messages(void **state)
{
    struct dbg *d = *state;
    D3D11_BUFFER_DESC bd = { .ByteWidth = 0, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 1);
    D3D11_MESSAGE *m = get_message(d->iq, 0);
    assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_STATE_CREATION);
    assert_int_equal(m->Severity, D3D11_MESSAGE_SEVERITY_ERROR);
    assert_int_equal(m->ID, D3D11_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN);
    assert_non_null(strstr(m->pDescription, "ByteWidth"));
    free(m);

    bd = (D3D11_BUFFER_DESC){ .ByteWidth = 64, .Usage = D3D11_USAGE_STAGING,
                              .CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &b), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 1); /* success adds nothing */
    D3D11_MAPPED_SUBRESOURCE ms;
    assert_int_equal(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)b, 3, D3D11_MAP_READ, 0, &ms), E_INVALIDARG);
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)b, 0);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 3);
    m = get_message(d->iq, 1);
    assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_RESOURCE_MANIPULATION);
    assert_int_equal(m->ID, D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDSUBRESOURCE);
    free(m);
    m = get_message(d->iq, 2);
    assert_int_equal(m->ID, D3D11_MESSAGE_ID_RESOURCE_UNMAP_NOTMAPPED);
    free(m);
    SIZE_T len = 0;
    assert_int_equal(ID3D11InfoQueue_GetMessage(d->iq, 3, NULL, &len), E_INVALIDARG); /* past the last */
    assert_int_equal(ID3D11InfoQueue_GetNumMessagesAllowedByStorageFilter(d->iq), 3);
    ID3D11InfoQueue_ClearStoredMessages(d->iq);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 0);
    SAFE_RELEASE(b);
}

/* ID3D11Device1's opens report inside their own call as OpenSharedResource does (STATE_CREATION,
 * DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN: d3d11sdklayers.h has no ID of their own), the
 * message naming the method; the ID3D11Device1::OpenSharedResource1 and OpenSharedResourceByName
 * references: a NULL handle or name is E_INVALIDARG. */
/* rule: runtime.id3d11device1-opensharedresource1 (mutation-checked: the unwrapped entry point in the vtable stores no message) */
static void opens_of_id3d11device1_become_messages(void **state)
{
    struct dbg *d = *state;
    ID3D11Device1 *dev1 = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(d->dev, &IID_ID3D11Device1, (void **)&dev1), S_OK);
    ID3D11InfoQueue_ClearStoredMessages(d->iq);
    void *out = NULL;
    assert_int_equal(ID3D11Device1_OpenSharedResource1(dev1, NULL, &IID_ID3D11Texture2D, &out), E_INVALIDARG);
    assert_int_equal(ID3D11Device1_OpenSharedResourceByName(dev1, NULL, DXGI_SHARED_RESOURCE_READ, &IID_ID3D11Texture2D,
                                                            &out), E_INVALIDARG);
    assert_null(out);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 2);
    const char *names[2] = {"OpenSharedResource1", "OpenSharedResourceByName"};
    for (UINT64 i = 0; i < 2; i++) {
        D3D11_MESSAGE *m = get_message(d->iq, i);
        assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_STATE_CREATION);
        assert_int_equal(m->ID, D3D11_MESSAGE_ID_DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN);
        assert_non_null(strstr(m->pDescription, names[i]));
        free(m);
    }
    ID3D11Device1_Release(dev1);
}

/* The storage filter on top of the stack decides what is stored: a deny list drops matching
 * messages (counted as denied), an allow list keeps only what it names; Pop restores the one
 * below; Get*Filter answers the length, then the filter. */
/* rule: debug.storage-filter-stack-message-stored-iff */
static void the_storage_filter_decides_what_is_stored(void **state)
{
    struct dbg *d = *state;
    D3D11_MESSAGE_SEVERITY deny_sev[] = { D3D11_MESSAGE_SEVERITY_ERROR };
    D3D11_INFO_QUEUE_FILTER f = { .DenyList = { .NumSeverities = 1, .pSeverityList = deny_sev } };
    assert_int_equal(ID3D11InfoQueue_PushStorageFilter(d->iq, &f), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetStorageFilterStackSize(d->iq), 2);

    SIZE_T len = 0;
    assert_int_equal(ID3D11InfoQueue_GetStorageFilter(d->iq, NULL, &len), S_FALSE);
    assert_int_equal(len, sizeof(D3D11_INFO_QUEUE_FILTER) + sizeof(UINT));
    D3D11_INFO_QUEUE_FILTER *got = malloc(len);
    assert_int_equal(ID3D11InfoQueue_GetStorageFilter(d->iq, got, &len), S_OK);
    assert_int_equal(got->DenyList.NumSeverities, 1);
    assert_int_equal(got->DenyList.pSeverityList[0], D3D11_MESSAGE_SEVERITY_ERROR);
    assert_int_equal(got->AllowList.NumCategories, 0);
    free(got);

    ID3D11Buffer *b = NULL;
    D3D11_BUFFER_DESC bad = { .ByteWidth = 0, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bad, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 0);
    assert_int_equal(ID3D11InfoQueue_GetNumMessagesDeniedByStorageFilter(d->iq), 1);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_WARNING, "kept"), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 1);

    /* An allow list on top of a copy: only EXECUTION passes (and the copied deny list still applies). */
    assert_int_equal(ID3D11InfoQueue_PushCopyOfStorageFilter(d->iq), S_OK);
    D3D11_MESSAGE_CATEGORY allow_cat[] = { D3D11_MESSAGE_CATEGORY_EXECUTION };
    D3D11_INFO_QUEUE_FILTER a = { .AllowList = { .NumCategories = 1, .pCategoryList = allow_cat } };
    assert_int_equal(ID3D11InfoQueue_AddStorageFilterEntries(d->iq, &a), S_OK);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_WARNING, "denied"), S_OK);
    assert_int_equal(ID3D11InfoQueue_AddMessage(d->iq, D3D11_MESSAGE_CATEGORY_EXECUTION, D3D11_MESSAGE_SEVERITY_INFO,
                                                D3D11_MESSAGE_ID_UNKNOWN, "allowed"), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 2);
    assert_int_equal(ID3D11InfoQueue_GetNumMessagesDeniedByStorageFilter(d->iq), 2);

    ID3D11InfoQueue_PopStorageFilter(d->iq);
    ID3D11InfoQueue_PopStorageFilter(d->iq);
    ID3D11InfoQueue_PopStorageFilter(d->iq); /* the bottom filter stays */
    assert_int_equal(ID3D11InfoQueue_GetStorageFilterStackSize(d->iq), 1);
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bad, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 3);
    assert_int_equal(ID3D11InfoQueue_PushStorageFilter(d->iq, NULL), E_INVALIDARG);
}

/* The retrieval filter hides stored messages from GetMessage and its count, not from storage. */
/* rule: debug.storage-filter-stack-message-stored-iff */
/* rule: debug.count-limit-past-oldest-stored-message */
static void the_retrieval_filter_decides_what_is_read(void **state)
{
    struct dbg *d = *state;
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_WARNING, "first"), S_OK);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_INFO, "second"), S_OK);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_WARNING, "third"), S_OK);
    D3D11_MESSAGE_SEVERITY only[] = { D3D11_MESSAGE_SEVERITY_INFO };
    D3D11_INFO_QUEUE_FILTER f = { .AllowList = { .NumSeverities = 1, .pSeverityList = only } };
    assert_int_equal(ID3D11InfoQueue_PushRetrievalFilter(d->iq, &f), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 3);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(d->iq), 1);
    D3D11_MESSAGE *m = get_message(d->iq, 0);
    assert_string_equal(m->pDescription, "second");
    assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_APPLICATION_DEFINED);
    assert_int_equal(m->ID, D3D11_MESSAGE_ID_STRING_FROM_APPLICATION);
    free(m);
    ID3D11InfoQueue_ClearRetrievalFilter(d->iq);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(d->iq), 3);
    m = get_message(d->iq, 2);
    assert_string_equal(m->pDescription, "third");
    free(m);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, (D3D11_MESSAGE_SEVERITY)9, "x"), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_INFO, NULL), E_INVALIDARG);
}

/* Past the count limit the oldest messages give way, counted as discarded. */
/* rule: debug.count-limit-past-oldest-stored-message */
static void the_count_limit_keeps_the_newest(void **state)
{
    struct dbg *d = *state;
    assert_int_equal(ID3D11InfoQueue_SetMessageCountLimit(d->iq, 2), S_OK);
    const char *texts[] = { "m0", "m1", "m2", "m3", "m4" };
    for (int i = 0; i < 5; i++)
        assert_int_equal(ID3D11InfoQueue_AddApplicationMessage(d->iq, D3D11_MESSAGE_SEVERITY_INFO, texts[i]), S_OK);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), 2);
    assert_int_equal(ID3D11InfoQueue_GetNumMessagesDiscardedByMessageCountLimit(d->iq), 3);
    assert_int_equal(ID3D11InfoQueue_GetNumMessagesAllowedByStorageFilter(d->iq), 5);
    D3D11_MESSAGE *m = get_message(d->iq, 0);
    assert_string_equal(m->pDescription, "m3");
    free(m);
    assert_int_equal(ID3D11InfoQueue_SetMessageCountLimit(d->iq, 1), S_OK); /* shrinking drops the oldest */
    m = get_message(d->iq, 0);
    assert_string_equal(m->pDescription, "m4");
    free(m);
    assert_int_equal(ID3D11InfoQueue_GetMessageCountLimit(d->iq), 1);
}

/* Break and mute settings read back what was set (nothing breaks: there is no debugger). */
/* rule: debug.break-settings-stored-read-back-out */
static void break_and_mute_settings_read_back(void **state)
{
    struct dbg *d = *state;
    assert_false(ID3D11InfoQueue_GetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR));
    assert_int_equal(ID3D11InfoQueue_SetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR, TRUE), S_OK);
    assert_true(ID3D11InfoQueue_GetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR));
    assert_int_equal(ID3D11InfoQueue_SetBreakOnCategory(d->iq, D3D11_MESSAGE_CATEGORY_EXECUTION, TRUE), S_OK);
    assert_true(ID3D11InfoQueue_GetBreakOnCategory(d->iq, D3D11_MESSAGE_CATEGORY_EXECUTION));
    assert_int_equal(ID3D11InfoQueue_SetBreakOnCategory(d->iq, (D3D11_MESSAGE_CATEGORY)99, TRUE), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_SetBreakOnID(d->iq, D3D11_MESSAGE_ID_LIVE_DEVICE, TRUE), S_OK);
    assert_true(ID3D11InfoQueue_GetBreakOnID(d->iq, D3D11_MESSAGE_ID_LIVE_DEVICE));
    assert_int_equal(ID3D11InfoQueue_SetBreakOnID(d->iq, D3D11_MESSAGE_ID_LIVE_DEVICE, FALSE), S_OK);
    assert_false(ID3D11InfoQueue_GetBreakOnID(d->iq, D3D11_MESSAGE_ID_LIVE_DEVICE));
    assert_true(ID3D11InfoQueue_GetMuteDebugOutput(d->iq));
    ID3D11InfoQueue_SetMuteDebugOutput(d->iq, FALSE);
    assert_false(ID3D11InfoQueue_GetMuteDebugOutput(d->iq));
    ID3D11InfoQueue_SetMuteDebugOutput(d->iq, TRUE);
}

/* The break: a stored message the settings name raises SIGTRAP (the debugger's stop); a denied one, or one no setting names, does not; without a debugger attached
 * (wddm_debug_set_break(-1): the kernel says this process is not traced) nothing happens. */
static volatile sig_atomic_t traps;
static UINT64 stored_at_trap;
static ID3D11InfoQueue *trap_queue;
static void on_trap(int sig)
{
    (void)sig;
    traps++;
    /* What a debugger would look at when it stops: the queue, message already stored (the
     * break comes after the queue's lock is released, so this call does not deadlock). */
    stored_at_trap = ID3D11InfoQueue_GetNumStoredMessages(trap_queue);
}

static void zero_byte_buffer(struct dbg *d)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = 0, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &b), E_INVALIDARG);
}

/* rule: debug.message-break-settings-name-passes (a SIGTRAP handler that reads the queue: no deadlock, the message already stored; mutation-checked: never breaking fails it) */
static void break_settings_break(void **state)
{
    struct dbg *d = *state;
    struct sigaction sa = { .sa_handler = on_trap }, old;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGTRAP, &sa, &old), 0);
    trap_queue = d->iq;
    traps = 0;
    wddm_debug_set_break(1); /* as under a debugger */

    zero_byte_buffer(d);
    assert_int_equal(traps, 0); /* no setting names it */
    assert_int_equal(ID3D11InfoQueue_SetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR, TRUE), S_OK);
    zero_byte_buffer(d);
    assert_int_equal(traps, 1);
    assert_int_equal(stored_at_trap, 2); /* stored before the break */
    assert_int_equal(ID3D11InfoQueue_SetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR, FALSE), S_OK);
    assert_int_equal(ID3D11InfoQueue_SetBreakOnID(d->iq, D3D11_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN, TRUE), S_OK);
    zero_byte_buffer(d);
    assert_int_equal(traps, 2);
    assert_int_equal(ID3D11InfoQueue_SetBreakOnID(d->iq, D3D11_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN, FALSE), S_OK);
    assert_int_equal(ID3D11InfoQueue_SetBreakOnCategory(d->iq, D3D11_MESSAGE_CATEGORY_STATE_CREATION, TRUE), S_OK);
    zero_byte_buffer(d);
    assert_int_equal(traps, 3);
    /* Denied by the storage filter: no break. */
    D3D11_MESSAGE_SEVERITY deny[] = { D3D11_MESSAGE_SEVERITY_ERROR };
    D3D11_INFO_QUEUE_FILTER f = { .DenyList = { .NumSeverities = 1, .pSeverityList = deny } };
    assert_int_equal(ID3D11InfoQueue_PushStorageFilter(d->iq, &f), S_OK);
    zero_byte_buffer(d);
    assert_int_equal(traps, 3);
    ID3D11InfoQueue_PopStorageFilter(d->iq);
    /* No debugger attached: nothing, the message still stored. */
    wddm_debug_set_break(-1);
    UINT64 before = ID3D11InfoQueue_GetNumStoredMessages(d->iq);
    zero_byte_buffer(d);
    assert_int_equal(traps, 3);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(d->iq), before + 1);
    assert_int_equal(sigaction(SIGTRAP, &old, NULL), 0);
}

static int count_id(ID3D11InfoQueue *iq, D3D11_MESSAGE_ID id, const char *text)
{
    int n = 0;
    UINT64 count = ID3D11InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(iq);
    for (UINT64 i = 0; i < count; i++) {
        D3D11_MESSAGE *m = get_message(iq, i);
        n += m->ID == id && (!text || strstr(m->pDescription, text));
        free(m);
    }
    return n;
}

/* ReportLiveDeviceObjects: the device, then each kind of object still alive with its count
 * (DETAIL), then the summary; released objects are no longer reported. */
/* rule: debug.reportlivedeviceobjects-live-device */
static void live_objects_are_reported(void **state)
{
    struct dbg *d = *state;
    assert_int_equal(ID3D11Debug_ReportLiveDeviceObjects(d->debug, (D3D11_RLDO_FLAGS)0x80), E_INVALIDARG);
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b1 = NULL, *b2 = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &b1), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &b2), S_OK);
    D3D11_TEXTURE2D_DESC td = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(d->dev, &td, NULL, &t), S_OK);
    ID3D11RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(d->dev, (ID3D11Resource *)t, NULL, &rtv), S_OK);

    assert_int_equal(ID3D11Debug_ReportLiveDeviceObjects(d->debug, D3D11_RLDO_DETAIL), S_OK);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_DEVICE, "Live ID3D11Device"), 1);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_BUFFER, ": 2"), 1);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_TEXTURE2D, ": 1"), 1);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_RENDERTARGETVIEW, ": 1"), 1);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_OBJECT_SUMMARY, ": 4 "), 1);

    ID3D11InfoQueue_ClearStoredMessages(d->iq);
    SAFE_RELEASE(rtv);
    SAFE_RELEASE(t);
    SAFE_RELEASE(b2);
    assert_int_equal(ID3D11Debug_ReportLiveDeviceObjects(d->debug, D3D11_RLDO_DETAIL), S_OK);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_BUFFER, ": 1"), 1);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_TEXTURE2D, NULL), 0);
    assert_int_equal(count_id(d->iq, D3D11_MESSAGE_ID_LIVE_OBJECT_SUMMARY, ": 1 "), 1);
    SAFE_RELEASE(b1);
}

/* D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP: every copy has finished on the GPU when the call
 * returns, so a DO_NOT_WAIT map right after it never answers WAS_STILL_DRAWING - even with the
 * software GPU slowed to 64 MiB/s. Unknown mask bits are refused. */
/* rule: debug.setfeaturemask-takes-only-d3d11-debug (GPU slowed to 64 MiB/s; mutation-checked: flush only fails it) */
static void finish_per_render_op_waits_for_each_copy(void **state)
{
    struct dbg *d = *state;
    assert_int_equal(ID3D11Debug_SetFeatureMask(d->debug, 0x10000), E_INVALIDARG);
    assert_int_equal(ID3D11Debug_SetFeatureMask(d->debug, D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP), S_OK);
    assert_int_equal(ID3D11Debug_GetFeatureMask(d->debug), D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP);
    enum { N = 4 << 20 };
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *src = NULL, *dst = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &src), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &dst), S_OK);
    wddm_swgpu_set_bandwidth(64ull << 20);
    for (int i = 0; i < 3; i++) {
        ID3D11DeviceContext_CopyResource(d->ctx, (ID3D11Resource *)dst, (ID3D11Resource *)src);
        D3D11_MAPPED_SUBRESOURCE m;
        HRESULT hr = ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)dst, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m);
        if (hr != S_OK) {
            wddm_swgpu_set_bandwidth(0);
            fail_msg("copy %d: Map(DO_NOT_WAIT) answered 0x%08x after a finished render op", i, (unsigned)hr);
        }
        ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)dst, 0);
    }
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(ID3D11Debug_SetFeatureMask(d->debug, 0), S_OK);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dst);
}

/* A D3D10 device made with D3D10_CREATE_DEVICE_DEBUG has the same layer: a refusal through the
 * D3D10 API (Map of a DEFAULT buffer) is a message of its ID3D11InfoQueue. */
/* rule: debug.refusal-inside-api-call-debug-device */
static void a_d3d10_debug_device_reports_too(void **state)
{
    (void)state;
    ID3D10Device *dev = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, D3D10_CREATE_DEVICE_DEBUG,
                                       D3D10_SDK_VERSION, &dev), S_OK);
    ID3D11InfoQueue *iq = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D11InfoQueue, (void **)&iq), S_OK);
    ID3D11InfoQueue_SetMuteDebugOutput(iq, TRUE);
    D3D10_BUFFER_DESC bd = { 64, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer *b = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(b, D3D10_MAP_READ, 0, &p), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(iq), 1);
    D3D11_MESSAGE *m = get_message(iq, 0);
    assert_int_equal(m->Category, D3D11_MESSAGE_CATEGORY_RESOURCE_MANIPULATION);
    assert_non_null(strstr(m->pDescription, "USAGE_DEFAULT"));
    free(m);
    ID3D10Buffer_Release(b);
    ID3D11InfoQueue_Release(iq);
    assert_int_equal(ID3D10Device_Release(dev), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_debug_layer_exists_only_with_the_flag, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(refusals_become_messages, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(opens_of_id3d11device1_become_messages, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(the_storage_filter_decides_what_is_stored, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(the_retrieval_filter_decides_what_is_read, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(the_count_limit_keeps_the_newest, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(break_and_mute_settings_read_back, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(break_settings_break, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(live_objects_are_reported, setup_debug, teardown_debug),
        cmocka_unit_test_setup_teardown(finish_per_render_op_waits_for_each_copy, setup_debug, teardown_debug),
        cmocka_unit_test(a_d3d10_debug_device_reports_too),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
