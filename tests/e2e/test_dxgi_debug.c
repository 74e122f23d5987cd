/* The DXGI debug layer (issue 15): DXGIGetDebugInterface1, the process's IDXGIInfoQueue with one
 * store per producer, IDXGIDebug1, the DXGI objects' refusals as DXGI_DEBUG_DXGI messages, a
 * debug device's messages under DXGI_DEBUG_D3D11, and ID3D10SwitchToRef. Sources: the
 * DXGIGetDebugInterface1, IDXGIInfoQueue (GetMessage's two calls with DXGI_DEBUG_ALL),
 * "DXGI_DEBUG_ID", IDXGIDebug1, IDXGIFactory1::EnumAdapters1, IDXGIAdapter3::QueryVideoMemoryInfo,
 * IDXGIDevice2::OfferResources, ID3D10SwitchToRef and D3D10_CREATE_DEVICE_FLAG reference pages;
 * the rest is the model written down in docs/api.md "The DXGI info queue". The queue is the
 * process's, so each test starts by clearing what it reads. docs/rules/dxgi.md. */
#include "e2e/e2e.h"

#include <d3d10_1.h>
#include <d3d10sdklayers.h>
#include <d3d11sdklayers.h>
#include <dxgi1_4.h>
#include <dxgidebug.h>

#include <pthread.h>
#include <signal.h>
#include <wddm/wddm.h>

/* The ID libwddm gives each DXGI interface's refusals (docs/api.md "The DXGI info queue"). */
enum { MSG_FACTORY = 1, MSG_ADAPTER = 2, MSG_DEVICE = 3 };

static IDXGIInfoQueue *get_queue(void)
{
    IDXGIInfoQueue *iq = NULL;
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIInfoQueue, (void **)&iq), S_OK);
    IDXGIInfoQueue_SetMuteDebugOutput(iq, DXGI_DEBUG_ALL, TRUE); /* the test reads the queue */
    IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_ALL);
    return iq;
}

/* The index-th message of `producer` past the retrieval filters (the caller frees it). */
static DXGI_INFO_QUEUE_MESSAGE *get_message(IDXGIInfoQueue *iq, DXGI_DEBUG_ID producer, UINT64 index)
{
    SIZE_T len = 0;
    assert_int_equal(IDXGIInfoQueue_GetMessage(iq, producer, index, NULL, &len), S_FALSE);
    assert_true(len > sizeof(DXGI_INFO_QUEUE_MESSAGE));
    DXGI_INFO_QUEUE_MESSAGE *m = malloc(len);
    assert_int_equal(IDXGIInfoQueue_GetMessage(iq, producer, index, m, &len), S_OK);
    assert_int_equal(m->DescriptionByteLength, strlen(m->pDescription) + 1);
    assert_ptr_equal(m->pDescription, (const char *)(m + 1));
    return m;
}

static IDXGIFactory1 *factory(void)
{
    IDXGIFactory1 *f = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&f), S_OK);
    return f;
}

/* Before any DXGI debug interface (or debug factory, or debug device) exists in the process, a
 * DXGI refusal is only the refusal line: the queue obtained afterwards holds nothing of it. This
 * test runs first (main), in a process that has not turned the DXGI debug layer on. */
/* rule: dxgi.dxgi-object-refusal-while-dxgi-debug */
static void dxgi_refusals_are_recorded_only_once_debugging_is_on(void **state)
{
    (void)state;
    IDXGIFactory1 *f = factory();
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    IDXGIInfoQueue *iq = NULL;
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIInfoQueue, (void **)&iq), S_OK);
    IDXGIInfoQueue_SetMuteDebugOutput(iq, DXGI_DEBUG_ALL, TRUE);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 0);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 1);
    IDXGIInfoQueue_Release(iq);
    IDXGIFactory1_Release(f);
}

/* DXGIGetDebugInterface1: the three interfaces of one process-wide object (the same pointer
 * every time); Flags must be 0, another IID is E_NOINTERFACE, a NULL out pointer E_INVALIDARG. */
/* rule: dxgi.dxgigetdebuginterface1-answers */
static void get_debug_interface_answers(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = NULL, *iq2 = NULL;
    IDXGIDebug *dbg = NULL;
    IDXGIDebug1 *dbg1 = NULL;
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIInfoQueue, (void **)&iq), S_OK);
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIInfoQueue, (void **)&iq2), S_OK);
    assert_ptr_equal(iq, iq2);
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIDebug, (void **)&dbg), S_OK);
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIDebug1, (void **)&dbg1), S_OK);
    assert_ptr_equal((void *)dbg, (void *)dbg1);
    IDXGIInfoQueue *back = NULL;
    assert_int_equal(IDXGIDebug1_QueryInterface(dbg1, &IID_IDXGIInfoQueue, (void **)&back), S_OK);
    assert_ptr_equal(back, iq);
    IDXGIInfoQueue_Release(back);

    void *p = (void *)(uintptr_t)1;
    assert_int_equal(DXGIGetDebugInterface1(1, &IID_IDXGIInfoQueue, &p), E_INVALIDARG);
    assert_null(p);
    p = (void *)(uintptr_t)1;
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIFactory, &p), E_NOINTERFACE);
    assert_null(p);
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIInfoQueue, NULL), E_INVALIDARG);

    assert_int_equal(IDXGIInfoQueue_GetMessageCountLimit(iq, DXGI_DEBUG_DXGI), DXGI_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT);
    assert_int_equal(IDXGIInfoQueue_GetStorageFilterStackSize(iq, DXGI_DEBUG_DXGI), 1);
    /* What a Windows template does in a debug build. */
    assert_int_equal(IDXGIInfoQueue_SetBreakOnSeverity(iq, DXGI_DEBUG_ALL, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, TRUE),
                     S_OK);
    assert_true(IDXGIInfoQueue_GetBreakOnSeverity(iq, DXGI_DEBUG_DXGI, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR));
    assert_true(IDXGIInfoQueue_GetBreakOnSeverity(iq, DXGI_DEBUG_ALL, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR));
    assert_int_equal(IDXGIInfoQueue_SetBreakOnSeverity(iq, DXGI_DEBUG_ALL, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, FALSE),
                     S_OK);
    GUID other = DXGI_DEBUG_ALL;
    other.Data1 ^= 1;
    assert_int_equal(IDXGIInfoQueue_PushEmptyStorageFilter(iq, other), E_INVALIDARG); /* not a producer */

    IDXGIDebug1_Release(dbg1);
    IDXGIDebug_Release(dbg);
    IDXGIInfoQueue_Release(iq2);
    IDXGIInfoQueue_Release(iq);
}

/* Each DXGI refusal is one message under DXGI_DEBUG_DXGI, severity ERROR, category
 * MISCELLANEOUS, the refusing interface's ID, the rule in its text; nothing under another
 * producer. EnumAdapters1 with a NULL out pointer (DXGI_ERROR_INVALID_CALL), QueryVideoMemoryInfo
 * with a segment group that is neither LOCAL nor NON_LOCAL and OfferResources with a priority
 * outside LOW..HIGH (E_INVALIDARG) are the three checked. */
/* rule: dxgi.dxgi-object-refusal-while-dxgi-debug (mutation-checked: not storing the message fails it) */
/* rule: dxgi.refusal-id-names-refusing-interface (IDs 1, 2, 3) */
static void a_dxgi_refusal_is_one_error_message(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    IDXGIFactory1 *f = factory();
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 0);
    DXGI_INFO_QUEUE_MESSAGE *m = get_message(iq, DXGI_DEBUG_DXGI, 0);
    assert_memory_equal(&m->Producer, &DXGI_DEBUG_DXGI, sizeof(GUID));
    assert_int_equal(m->Severity, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR);
    assert_int_equal(m->Category, DXGI_INFO_QUEUE_MESSAGE_CATEGORY_MISCELLANEOUS);
    assert_int_equal(m->ID, MSG_FACTORY);
    assert_non_null(strstr(m->pDescription, "ppAdapter is NULL"));
    free(m);

    IDXGIAdapter1 *a = NULL;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, &a), S_OK);
    IDXGIAdapter3 *a3 = NULL;
    assert_int_equal(IDXGIAdapter1_QueryInterface(a, &IID_IDXGIAdapter3, (void **)&a3), S_OK);
    DXGI_QUERY_VIDEO_MEMORY_INFO info;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, (DXGI_MEMORY_SEGMENT_GROUP)2, &info), E_INVALIDARG);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 2);
    m = get_message(iq, DXGI_DEBUG_DXGI, 1);
    assert_int_equal(m->ID, MSG_ADAPTER);
    assert_non_null(strstr(m->pDescription, "MemorySegmentGroup 2"));
    free(m);

    ID3D11Device *dev = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                       NULL), S_OK);
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);
    IDXGIDevice2 *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(dev, &IID_IDXGIDevice2, (void **)&dxgi), S_OK);
    IDXGIResource *r = NULL;
    assert_int_equal(ID3D11Buffer_QueryInterface(b, &IID_IDXGIResource, (void **)&r), S_OK);
    assert_int_equal(IDXGIDevice2_OfferResources(dxgi, 1, &r, (DXGI_OFFER_RESOURCE_PRIORITY)4), E_INVALIDARG);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 3);
    m = get_message(iq, DXGI_DEBUG_DXGI, 2);
    assert_int_equal(m->ID, MSG_DEVICE);
    assert_non_null(strstr(m->pDescription, "Priority 4"));
    free(m);
    assert_int_equal(IDXGIInfoQueue_GetNumMessagesAllowedByStorageFilter(iq, DXGI_DEBUG_DXGI) >= 3, 1);
    /* A plain device's refusals are the D3D11 debug layer's business: none without the flag. */
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 0);

    IDXGIResource_Release(r);
    IDXGIDevice2_Release(dxgi);
    ID3D11Buffer_Release(b);
    assert_int_equal(ID3D11Device_Release(dev), 0);
    IDXGIAdapter3_Release(a3);
    IDXGIAdapter1_Release(a);
    IDXGIFactory1_Release(f);
    IDXGIInfoQueue_Release(iq);
}

/* Storage filters are per producer: a DXGI_DEBUG_DXGI filter denying by severity, by category or
 * by ID drops the DXGI refusal (counted as denied) and leaves the APP producer alone; Pop
 * restores storing; PushDenyAll stores nothing; a filter pushed through DXGI_DEBUG_ALL is on
 * every producer's stack. */
/* rule: debug.one-message-store-producer-storage */
static void storage_filters_deny_per_producer(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    IDXGIFactory1 *f = factory();
    DXGI_INFO_QUEUE_MESSAGE_SEVERITY sev[] = { DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR };
    DXGI_INFO_QUEUE_MESSAGE_CATEGORY cat[] = { DXGI_INFO_QUEUE_MESSAGE_CATEGORY_MISCELLANEOUS };
    DXGI_INFO_QUEUE_MESSAGE_ID ids[] = { MSG_FACTORY };
    DXGI_INFO_QUEUE_FILTER filters[3] = {
        { .DenyList = { .NumSeverities = 1, .pSeverityList = sev } },
        { .DenyList = { .NumCategories = 1, .pCategoryList = cat } },
        { .DenyList = { .NumIDs = 1, .pIDList = ids } },
    };
    for (int i = 0; i < 3; i++) {
        UINT64 denied = IDXGIInfoQueue_GetNumMessagesDeniedByStorageFilter(iq, DXGI_DEBUG_DXGI);
        assert_int_equal(IDXGIInfoQueue_PushEmptyStorageFilter(iq, DXGI_DEBUG_DXGI), S_OK);
        assert_int_equal(IDXGIInfoQueue_AddStorageFilterEntries(iq, DXGI_DEBUG_DXGI, &filters[i]), S_OK);
        assert_int_equal(IDXGIInfoQueue_GetStorageFilterStackSize(iq, DXGI_DEBUG_DXGI), 2);
        assert_int_equal(IDXGIInfoQueue_GetStorageFilterStackSize(iq, DXGI_DEBUG_APP), 1);
        assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
        assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 0);
        assert_int_equal(IDXGIInfoQueue_GetNumMessagesDeniedByStorageFilter(iq, DXGI_DEBUG_DXGI), denied + 1);
        /* The same severity from the application's producer is stored: its filter is its own. */
        assert_int_equal(IDXGIInfoQueue_AddApplicationMessage(iq, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, "app"), S_OK);
        assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_APP), 1);
        IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_APP);
        IDXGIInfoQueue_PopStorageFilter(iq, DXGI_DEBUG_DXGI);
    }
    SIZE_T len = 0;
    assert_int_equal(IDXGIInfoQueue_PushStorageFilter(iq, DXGI_DEBUG_DXGI, &filters[0]), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetStorageFilter(iq, DXGI_DEBUG_DXGI, NULL, &len), S_FALSE);
    DXGI_INFO_QUEUE_FILTER *got = malloc(len);
    assert_int_equal(IDXGIInfoQueue_GetStorageFilter(iq, DXGI_DEBUG_DXGI, got, &len), S_OK);
    assert_int_equal(got->DenyList.NumSeverities, 1);
    assert_int_equal(got->DenyList.pSeverityList[0], DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR);
    free(got);
    IDXGIInfoQueue_PopStorageFilter(iq, DXGI_DEBUG_DXGI);

    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 1); /* stored again */

    assert_int_equal(IDXGIInfoQueue_PushDenyAllStorageFilter(iq, DXGI_DEBUG_ALL), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetStorageFilterStackSize(iq, DXGI_DEBUG_APP), 2);
    assert_int_equal(IDXGIInfoQueue_AddApplicationMessage(iq, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_INFO, "denied"), S_OK);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_ALL), 1);
    IDXGIInfoQueue_PopStorageFilter(iq, DXGI_DEBUG_ALL);
    assert_int_equal(IDXGIInfoQueue_GetStorageFilterStackSize(iq, DXGI_DEBUG_APP), 1);

    IDXGIFactory1_Release(f);
    IDXGIInfoQueue_Release(iq);
}

/* DXGI_DEBUG_ALL reads every producer: the counts add up, and GetMessage(DXGI_DEBUG_ALL, i) is
 * the i-th message in arrival order whatever its producer; a retrieval filter narrows one
 * producer only; the count limit drops the oldest of that producer. */
/* rule: debug.one-message-store-producer-storage */
/* rule: dxgi.debug-all-setting-reads-dxgi-producer (AddMessage to DXGI_DEBUG_ALL) */
static void dxgi_debug_all_counts_every_producer(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    IDXGIFactory1 *f = factory();
    assert_int_equal(IDXGIInfoQueue_AddApplicationMessage(iq, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_WARNING, "first"), S_OK);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIInfoQueue_AddApplicationMessage(iq, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_INFO, "third"), S_OK);
    assert_int_equal(IDXGIInfoQueue_AddMessage(iq, DXGI_DEBUG_ALL, DXGI_INFO_QUEUE_MESSAGE_CATEGORY_UNKNOWN,
                                               DXGI_INFO_QUEUE_MESSAGE_SEVERITY_INFO, 0, "x"), E_INVALIDARG);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_APP), 2);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_ALL), 3);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessagesAllowedByRetrievalFilters(iq, DXGI_DEBUG_ALL), 3);

    DXGI_INFO_QUEUE_MESSAGE *m = get_message(iq, DXGI_DEBUG_ALL, 0);
    assert_memory_equal(&m->Producer, &DXGI_DEBUG_APP, sizeof(GUID));
    assert_int_equal(m->ID, DXGI_INFO_QUEUE_MESSAGE_ID_STRING_FROM_APPLICATION);
    assert_string_equal(m->pDescription, "first");
    free(m);
    m = get_message(iq, DXGI_DEBUG_ALL, 1);
    assert_memory_equal(&m->Producer, &DXGI_DEBUG_DXGI, sizeof(GUID));
    free(m);
    m = get_message(iq, DXGI_DEBUG_ALL, 2);
    assert_string_equal(m->pDescription, "third");
    free(m);
    SIZE_T len = 0;
    assert_int_equal(IDXGIInfoQueue_GetMessage(iq, DXGI_DEBUG_ALL, 3, NULL, &len), E_INVALIDARG);

    DXGI_INFO_QUEUE_MESSAGE_SEVERITY info[] = { DXGI_INFO_QUEUE_MESSAGE_SEVERITY_INFO };
    DXGI_INFO_QUEUE_FILTER only_info = { .AllowList = { .NumSeverities = 1, .pSeverityList = info } };
    assert_int_equal(IDXGIInfoQueue_PushRetrievalFilter(iq, DXGI_DEBUG_APP, &only_info), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessagesAllowedByRetrievalFilters(iq, DXGI_DEBUG_APP), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessagesAllowedByRetrievalFilters(iq, DXGI_DEBUG_ALL), 2);
    m = get_message(iq, DXGI_DEBUG_ALL, 0);
    assert_memory_equal(&m->Producer, &DXGI_DEBUG_DXGI, sizeof(GUID)); /* "first" is filtered out */
    free(m);
    IDXGIInfoQueue_PopRetrievalFilter(iq, DXGI_DEBUG_APP);

    assert_int_equal(IDXGIInfoQueue_SetMessageCountLimit(iq, DXGI_DEBUG_APP, 1), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_APP), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 1);
    assert_true(IDXGIInfoQueue_GetNumMessagesDiscardedByMessageCountLimit(iq, DXGI_DEBUG_APP) >= 1);
    assert_int_equal(IDXGIInfoQueue_SetMessageCountLimit(iq, DXGI_DEBUG_ALL, DXGI_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT),
                     S_OK);
    assert_int_equal(IDXGIInfoQueue_GetMessageCountLimit(iq, DXGI_DEBUG_APP), DXGI_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT);
    IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_ALL);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_ALL), 0);

    IDXGIFactory1_Release(f);
    IDXGIInfoQueue_Release(iq);
}

/* A D3D11 debug device's refusal is a message of its ID3D11InfoQueue and, the same category,
 * severity, ID and text, of the DXGI info queue under DXGI_DEBUG_D3D11; a D3D10 debug device's
 * goes under DXGI_DEBUG_D3D10. */
/* rule: debug.debug-device-messages-also-stored-under */
static void debug_device_messages_show_under_their_producer(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    ID3D11Device *dev = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                       D3D11_SDK_VERSION, &dev, NULL, NULL), S_OK);
    ID3D11InfoQueue *iq11 = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(dev, &IID_ID3D11InfoQueue, (void **)&iq11), S_OK);
    ID3D11InfoQueue_SetMuteDebugOutput(iq11, TRUE);
    D3D11_BUFFER_DESC bd = { .ByteWidth = 0, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b), E_INVALIDARG);
    assert_int_equal(ID3D11InfoQueue_GetNumStoredMessages(iq11), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_DXGI), 0);
    DXGI_INFO_QUEUE_MESSAGE *m = get_message(iq, DXGI_DEBUG_D3D11, 0);
    assert_memory_equal(&m->Producer, &DXGI_DEBUG_D3D11, sizeof(GUID));
    assert_int_equal(m->Category, (int)D3D11_MESSAGE_CATEGORY_STATE_CREATION);
    assert_int_equal(m->Severity, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR);
    assert_int_equal(m->ID, (int)D3D11_MESSAGE_ID_CREATEBUFFER_INVALIDARG_RETURN);
    assert_non_null(strstr(m->pDescription, "ByteWidth"));
    free(m);
    ID3D11InfoQueue_Release(iq11);
    assert_int_equal(ID3D11Device_Release(dev), 0);

    ID3D10Device *dev10 = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, D3D10_CREATE_DEVICE_DEBUG,
                                       D3D10_SDK_VERSION, &dev10), S_OK);
    ID3D10InfoQueue *iq10 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev10, &IID_ID3D10InfoQueue, (void **)&iq10), S_OK);
    ID3D10InfoQueue_SetMuteDebugOutput(iq10, TRUE);
    D3D10_BUFFER_DESC bd10 = { .ByteWidth = 0, .Usage = D3D10_USAGE_DEFAULT, .BindFlags = D3D10_BIND_VERTEX_BUFFER };
    ID3D10Buffer *b10 = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(dev10, &bd10, NULL, &b10), E_INVALIDARG);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D10), 1);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 1); /* unchanged */
    ID3D10InfoQueue_Release(iq10);
    assert_int_equal(ID3D10Device_Release(dev10), 0);
    IDXGIInfoQueue_Release(iq);
}

/* IDXGIDebug::ReportLiveObjects reports each live debug device with its objects (the
 * ReportLiveDeviceObjects messages, under DXGI_DEBUG_D3D11) and a summary under DXGI_DEBUG_DXGI;
 * a released device is gone from the next report; a debug device created on a thread that
 * disabled leak tracking is not reported. */
/* rule: dxgi.idxgidebug-reportliveobjects-reports */
static void live_objects_are_reported(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    IDXGIDebug1 *dbg = NULL;
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIDebug1, (void **)&dbg), S_OK);
    assert_true(IDXGIDebug1_IsLeakTrackingEnabledForThread(dbg));
    ID3D11Device *dev = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                       D3D11_SDK_VERSION, &dev, NULL, NULL), S_OK);
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);

    assert_int_equal(IDXGIDebug1_ReportLiveObjects(dbg, DXGI_DEBUG_ALL, (DXGI_DEBUG_RLO_FLAGS)0x10), E_INVALIDARG);
    IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_ALL);
    assert_int_equal(IDXGIDebug1_ReportLiveObjects(dbg, DXGI_DEBUG_ALL, DXGI_DEBUG_RLO_ALL), S_OK);
    UINT64 n = IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11);
    assert_int_equal(n, 3); /* the device, its buffers, the summary */
    DXGI_INFO_QUEUE_MESSAGE *m = get_message(iq, DXGI_DEBUG_D3D11, 1);
    assert_int_equal(m->ID, (int)D3D11_MESSAGE_ID_LIVE_BUFFER);
    assert_int_equal(m->Severity, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_WARNING);
    assert_non_null(strstr(m->pDescription, ": 1"));
    free(m);
    m = get_message(iq, DXGI_DEBUG_DXGI, 0);
    assert_non_null(strstr(m->pDescription, "reported: 1"));
    free(m);

    ID3D11Buffer_Release(b);
    assert_int_equal(ID3D11Device_Release(dev), 0);
    IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_ALL);
    assert_int_equal(IDXGIDebug1_ReportLiveObjects(dbg, DXGI_DEBUG_D3D11, DXGI_DEBUG_RLO_SUMMARY), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 0);

    IDXGIDebug1_DisableLeakTrackingForThread(dbg);
    assert_false(IDXGIDebug1_IsLeakTrackingEnabledForThread(dbg));
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                       D3D11_SDK_VERSION, &dev, NULL, NULL), S_OK);
    IDXGIDebug1_EnableLeakTrackingForThread(dbg);
    assert_true(IDXGIDebug1_IsLeakTrackingEnabledForThread(dbg));
    IDXGIInfoQueue_ClearStoredMessages(iq, DXGI_DEBUG_ALL);
    assert_int_equal(IDXGIDebug1_ReportLiveObjects(dbg, DXGI_DEBUG_ALL, DXGI_DEBUG_RLO_ALL), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 0); /* created untracked */
    assert_int_equal(ID3D11Device_Release(dev), 0);

    IDXGIDebug1_Release(dbg);
    IDXGIInfoQueue_Release(iq);
}

struct untracked {
    IDXGIDebug1 *dbg;
    ID3D11Device *dev;
    BOOL tracking;
};

static void *make_untracked_device(void *arg)
{
    struct untracked *u = arg;
    IDXGIDebug1_DisableLeakTrackingForThread(u->dbg);
    u->tracking = IDXGIDebug1_IsLeakTrackingEnabledForThread(u->dbg);
    if (FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_DEBUG, NULL, 0,
                                 D3D11_SDK_VERSION, &u->dev, NULL, NULL)))
        u->dev = NULL;
    return NULL;
}

/* Leak tracking is the calling thread's: another thread disabling it leaves this one tracking,
 * and the debug device that thread creates is left out of ReportLiveObjects. */
/* rule: dxgi.idxgidebug-reportliveobjects-reports */
static void leak_tracking_is_per_thread(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    struct untracked u = { NULL, NULL, TRUE };
    assert_int_equal(DXGIGetDebugInterface1(0, &IID_IDXGIDebug1, (void **)&u.dbg), S_OK);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, make_untracked_device, &u), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_false(u.tracking);
    assert_non_null(u.dev);
    assert_true(IDXGIDebug1_IsLeakTrackingEnabledForThread(u.dbg));
    assert_int_equal(IDXGIDebug1_ReportLiveObjects(u.dbg, DXGI_DEBUG_ALL, DXGI_DEBUG_RLO_ALL), S_OK);
    assert_int_equal(IDXGIInfoQueue_GetNumStoredMessages(iq, DXGI_DEBUG_D3D11), 0);
    assert_int_equal(ID3D11Device_Release(u.dev), 0);
    IDXGIDebug1_Release(u.dbg);
    IDXGIInfoQueue_Release(iq);
}

/* ID3D10SwitchToRef: answered only by a device created with D3D10_CREATE_DEVICE_SWITCH_TO_REF
 * (the ID3D10SwitchToRef page), as a face of the device; there is no reference rasterizer, so
 * GetUseRef stays FALSE, SetUseRef returns that previous value and SetUseRef(TRUE) is a
 * WARNING message of a debug device's queue. */
/* The DXGI queue's break settings break as a debug device's do: SIGTRAP (forced here, as under
 * a debugger) for a stored message they name, after the queue's lock is released (the handler
 * reads the queue). */
static volatile sig_atomic_t dxgi_traps;
static UINT64 dxgi_stored_at_trap;
static IDXGIInfoQueue *dxgi_trap_queue;
static void on_dxgi_trap(int sig)
{
    (void)sig;
    dxgi_traps++;
    dxgi_stored_at_trap = IDXGIInfoQueue_GetNumStoredMessages(dxgi_trap_queue, DXGI_DEBUG_DXGI);
}

/* rule: debug.message-break-settings-name-passes (the DXGI queue) */
static void break_settings_break(void **state)
{
    (void)state;
    IDXGIInfoQueue *iq = get_queue();
    IDXGIFactory1 *f = factory();
    struct sigaction sa = { .sa_handler = on_dxgi_trap }, old;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGTRAP, &sa, &old), 0);
    dxgi_trap_queue = iq;
    dxgi_traps = 0;
    wddm_debug_set_break(1);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(dxgi_traps, 0);
    assert_int_equal(IDXGIInfoQueue_SetBreakOnSeverity(iq, DXGI_DEBUG_DXGI, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, TRUE),
                     S_OK);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, NULL), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(dxgi_traps, 1);
    assert_int_equal(dxgi_stored_at_trap, 2);
    assert_int_equal(IDXGIInfoQueue_SetBreakOnSeverity(iq, DXGI_DEBUG_DXGI, DXGI_INFO_QUEUE_MESSAGE_SEVERITY_ERROR, FALSE),
                     S_OK);
    wddm_debug_set_break(-1);
    assert_int_equal(sigaction(SIGTRAP, &old, NULL), 0);
    IDXGIFactory1_Release(f);
    IDXGIInfoQueue_Release(iq);
}

/* rule: d3d10.id3d10switchtoref-answered-only-d3d10 */
static void switch_to_ref_answers_honestly(void **state)
{
    (void)state;
    ID3D10Device *plain = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, D3D10_CREATE_DEVICE_DEBUG,
                                       D3D10_SDK_VERSION, &plain), S_OK);
    void *p = (void *)(uintptr_t)1;
    assert_int_equal(ID3D10Device_QueryInterface(plain, &IID_ID3D10SwitchToRef, &p), E_NOINTERFACE);
    assert_null(p);
    assert_int_equal(ID3D10Device_Release(plain), 0);

    ID3D10Device *dev = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL,
                                       D3D10_CREATE_DEVICE_DEBUG | D3D10_CREATE_DEVICE_SWITCH_TO_REF,
                                       D3D10_SDK_VERSION, &dev), S_OK);
    ID3D10SwitchToRef *str = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D10SwitchToRef, (void **)&str), S_OK);
    ID3D10Device *back = NULL;
    assert_int_equal(ID3D10SwitchToRef_QueryInterface(str, &IID_ID3D10Device, (void **)&back), S_OK);
    assert_ptr_equal(back, dev);
    ID3D10Device_Release(back);
    ID3D10InfoQueue *iq10 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D10InfoQueue, (void **)&iq10), S_OK);
    ID3D10InfoQueue_SetMuteDebugOutput(iq10, TRUE);
    assert_false(ID3D10SwitchToRef_GetUseRef(str));
    assert_false(ID3D10SwitchToRef_SetUseRef(str, TRUE));
    assert_false(ID3D10SwitchToRef_GetUseRef(str));
    assert_false(ID3D10SwitchToRef_SetUseRef(str, FALSE));
    assert_int_equal(ID3D10InfoQueue_GetNumStoredMessages(iq10), 1);
    SIZE_T len = 0;
    assert_int_equal(ID3D10InfoQueue_GetMessage(iq10, 0, NULL, &len), S_FALSE);
    D3D10_MESSAGE *m = malloc(len);
    assert_int_equal(ID3D10InfoQueue_GetMessage(iq10, 0, m, &len), S_OK);
    assert_int_equal(m->Severity, D3D10_MESSAGE_SEVERITY_WARNING);
    assert_non_null(strstr(m->pDescription, "no reference rasterizer"));
    free(m);
    ID3D10InfoQueue_Release(iq10);
    ID3D10SwitchToRef_Release(str);
    assert_int_equal(ID3D10Device_Release(dev), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dxgi_refusals_are_recorded_only_once_debugging_is_on), /* first: see there */
        cmocka_unit_test(get_debug_interface_answers),
        cmocka_unit_test(a_dxgi_refusal_is_one_error_message),
        cmocka_unit_test(storage_filters_deny_per_producer),
        cmocka_unit_test(dxgi_debug_all_counts_every_producer),
        cmocka_unit_test(debug_device_messages_show_under_their_producer),
        cmocka_unit_test(live_objects_are_reported),
        cmocka_unit_test(leak_tracking_is_per_thread),
        cmocka_unit_test(break_settings_break),
        cmocka_unit_test(switch_to_ref_answers_honestly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
