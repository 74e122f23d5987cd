/* libwddm's own public extras (not part of any Windows interface): configuration that plays
 * the registry's role, counters, and the debug switch. */
#ifndef WDDM_WDDM_H
#define WDDM_WDDM_H

#include <wddm/d3d10umddi.h>
#include <wddm/d3dkmddi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which UMD the runtime opens (the registry's UserModeDriverName on Windows). NULL restores
 * the built-in reference UMD (OpenAdapter10_2). Takes effect for devices created afterwards. */
void wddm_set_umd_entry(PFND3D10DDI_OPENADAPTER pfnOpenAdapter);
PFND3D10DDI_OPENADAPTER wddm_get_umd_entry(void);
/* The same UMD's OpenAdapter10 export, which D3D10CreateDevice / D3D10CreateDevice1 call with
 * the D3D10.0 / 10.1 DDI interface (the D3D10 runtime's entry). NULL restores the reference
 * UMD's OpenAdapter10. */
void wddm_set_umd_entry10(PFND3D10DDI_OPENADAPTER pfnOpenAdapter10);
PFND3D10DDI_OPENADAPTER wddm_get_umd_entry10(void);

/* Which KMD the kernel starts (DriverEntry). NULL restores the built-in reference KMD
 * (SwKmdDriverEntry). Takes effect when the adapter list is (re)started. */
void wddm_set_kmd_entry(PDRIVER_INITIALIZE pfnDriverEntry);

/* The built-in reference KMD's DriverEntry: calls DxgkInitialize with its
 * DRIVER_INITIALIZATION_DATA (src/kmd/driver.c). */
NTSTATUS SwKmdDriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

/* Kernel event counters, summed over the process's adapters (docs/architecture.md "Seeing what
 * happens"). Also readable with D3DKMTQueryAdapterInfo(KMTQAITYPE_WDDM_COUNTERS). */
struct wddm_counters {
    UINT64 dma_buffers_submitted;   /* render DMA buffers handed to DxgkDdiSubmitCommand */
    UINT64 paging_buffers_submitted;/* paging buffers handed to DxgkDdiSubmitCommand */
    UINT64 fences_retired;          /* submissions retired through DxgkCbNotifyInterrupt */
    UINT64 allocations_created;
    UINT64 allocations_destroyed;
    UINT64 locks;                   /* successful D3DKMTLock calls */
    UINT64 lock_waits;              /* locks that had to wait for the GPU */
    UINT64 lock_wait_ns;            /* total time spent in those waits */
    UINT64 lock_still_drawing;      /* DonotWait locks refused with ALLOCATION_BUSY */
    UINT64 renames;                 /* Discard locks that handed out another instance */
    UINT64 bytes_paged_in;          /* bytes moved or filled into segments by paging buffers */
    UINT64 bytes_paged_out;
    UINT64 evictions;
    UINT64 context_switches;
    UINT64 preemptions;             /* DxgkDdiPreemptCommand requests answered (issue 4) */
    UINT64 engine_resets;           /* timeouts recovered with DxgkDdiResetEngine */
    UINT64 adapter_resets;          /* timeouts recovered with DxgkDdiResetFromTimeout */
    UINT64 dma_buffer_splits;       /* DMA buffers VidMm submitted in parts (issue 3, §9.1) */
    UINT64 adapter_stops;           /* adapter timeouts past WDDM_TDR_LIMIT_COUNT within
                                       WDDM_TDR_LIMIT_TIME_S: the adapter stopped, not recovered */
    UINT64 null_context_switches;   /* zero-length ContextSwitch buffers: a node switched to the null
                                       context so that VidMm may move the loaded context's save
                                       area, or the context could go (seed 000) */
    UINT64 allocations_purged;      /* allocations taken out of their segment by an adapter reset
                                       (local memory content lost; issue 20 §7) */
    UINT64 paging_multipass;        /* DxgkDdiBuildPagingBuffer answers of
                                       STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER: the operation went on
                                       in a fresh paging buffer (at MultipassOffset) */
    UINT64 page_table_updates;      /* DXGK_OPERATION_UPDATE_PAGE_TABLE operations built (GpuMmu) */
    UINT64 mid_buffer_preemptions;  /* preemptions that stopped the DMA buffer the engine was running
                                       before its end (it is resumed when resubmitted) */
    UINT64 context_allocations_created; /* DxgkCbCreateContextAllocation calls that succeeded (seed 000) */
    UINT64 context_allocation_evictions; /* evictions of a context allocation (its context not loaded) */
    UINT64 iommu_pages_mapped;      /* pages VidMm mapped in the IOMMU for a resident allocation (IoMmu) */
    UINT64 iommu_translations;      /* a device's DMA requests the IOMMU translated (WddmIoMmuTranslate) */
};
NTSTATUS wddm_get_counters(struct wddm_counters *pCounters);

/* Paging-buffer room, a stress option (`wddm check` Paging.Multipass, docs/drivers.md): VidMm
 * batches paging operations into one paging buffer, so DxgkDdiBuildPagingBuffer is offered
 * whatever room is left, and a KMD must answer STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER with
 * MultipassOffset set when an operation does not fit. With `bytes` > 0 every call is offered at
 * most that much room; an operation that makes no progress in an empty buffer is offered twice
 * as much, up to the KMD's PagingBufferSize. 0 (the default) offers the whole remaining buffer. */
void wddm_vidmm_set_paging_room(UINT bytes);

/* Scheduling event trace (issue 4): a bounded in-memory ring (WDDM_SCHED_TRACE_CAPACITY events)
 * of what the scheduler did, in the order it did it, so tests assert on order, not timing.
 * Off by default; while off an event costs one relaxed load. sequence numbers start at 1 and
 * grow by one per event; read returns the events still in the ring with sequence > the last
 * clear, oldest first (older ones were overwritten: the sequence numbers show the gap). */
#define WDDM_SCHED_TRACE_CAPACITY 4096u
enum wddm_sched_event_type {
    WDDM_SCHED_EVENT_SUBMIT = 1,   /* DMA buffer of `context` handed to DxgkDdiSubmitCommand */
    WDDM_SCHED_EVENT_COMPLETE = 2, /* packet with `fence` retired on `node` (DPC) */
    WDDM_SCHED_EVENT_SWITCH = 3,   /* node switched from `from_context` to `context` (seed 000) */
    WDDM_SCHED_EVENT_PREEMPT = 4,  /* DxgkDdiPreemptCommand for `context`'s higher-priority work;
                                      `fence` = PreemptionFenceId */
    WDDM_SCHED_EVENT_PREEMPTED = 5,/* DMA_PREEMPTED answered; `fence` = LastCompletedFenceId */
    WDDM_SCHED_EVENT_RESET = 6,    /* engine (or, with node ~0u, adapter) reset after a timeout;
                                      `context` = the guilty one, `fence` = last aborted */
    WDDM_SCHED_EVENT_START = 7,    /* the packet with `fence` (of `context`, 0 for paging) became the
                                      head of its node's hardware queue: the GPU runs it now (the
                                      kernel's view: submitted to an empty queue, or the packet
                                      before it retired); after its SUBMIT, before its COMPLETE */
};
struct wddm_sched_event {
    UINT64 sequence;
    UINT type;                     /* enum wddm_sched_event_type */
    UINT node;
    D3DKMT_HANDLE context;         /* SUBMIT, SWITCH: 0 for a paging buffer */
    D3DKMT_HANDLE from_context;    /* SWITCH */
    UINT64 fence;                  /* SUBMIT, COMPLETE: the 64-bit SubmissionFenceId */
};
void wddm_sched_trace_enable(int enabled);
size_t wddm_sched_trace_read(struct wddm_sched_event *events, size_t max);
void wddm_sched_trace_clear(void);

/* The library's version, "MAJOR.MINOR.PATCH" (CMakeLists.txt project version; CHANGELOG.md). */
const char *wddm_version(void);

/* Memory statistics (issue 18 §2): one consistent moment of an adapter's segments and, when
 * hDevice names one of its devices, that device's allocations. STATUS_INVALID_PARAMETER for a
 * NULL output or a bad adapter handle, STATUS_INVALID_HANDLE for a device of another adapter or
 * no device. */
#define WDDM_MAX_STATISTICS_SEGMENTS 8u
struct wddm_segment_statistics {
    UINT id;                        /* 1-based segment id */
    BOOL aperture;                  /* an aperture over system memory */
    BOOL cpu_visible;               /* the CPU can reach what is placed in it */
    UINT64 size;                    /* bytes VidMm may place (CommitLimit, or the size) */
    UINT64 used;                    /* bytes placed */
    UINT64 free;                    /* size - used */
    UINT64 largest_free;            /* the largest free range: the largest placement that fits */
    UINT free_ranges;               /* free ranges: more of them for the same free bytes is more
                                       fragmentation */
    UINT instances;                 /* allocation instances placed in it */
};
struct wddm_device_memory_statistics {
    D3DKMT_HANDLE hDevice;
    UINT allocations;               /* live allocations of the device */
    UINT64 bytes;                   /* their sizes */
    UINT resident_allocations;      /* whose current instance is placed in a segment */
    UINT64 resident_bytes;
    UINT evicted_allocations;       /* whose content waits in its backing store */
    /* Allocations by kind, as the KMD described them (DXGK_ALLOCATIONINFO) and as VidMm holds
     * them; one allocation may count in several. */
    struct {
        UINT cpu_visible;           /* DXGK_ALLOCATIONINFOFLAGS.CpuVisible */
        UINT primary;               /* D3DDDI_ALLOCATIONINFO.Flags.Primary */
        UINT swizzled;              /* DXGK_ALLOCATIONINFOFLAGS.Swizzled */
        UINT system_memory;         /* PermanentSysMem or ExistingSysMem: never in a segment of
                                       its own */
        UINT shared;                /* created shareable (a global share) */
        UINT opened;                /* opened from another device's or adapter's share */
    } kinds;
};
struct wddm_memory_statistics {
    LUID AdapterLuid;
    UINT segment_count;
    struct wddm_segment_statistics segment[WDDM_MAX_STATISTICS_SEGMENTS];
    struct wddm_device_memory_statistics device;  /* zero without hDevice */
    UINT64 backing_budget;          /* WDDM_SYSMEM_BUDGET_MB in bytes, 0 = unlimited */
    UINT64 backing_committed;       /* system memory charged against that budget for backing
                                       stores (process-wide; counted only while there is one) */
};
NTSTATUS wddm_query_memory_statistics(D3DKMT_HANDLE hAdapter, D3DKMT_HANDLE hDevice,
                                      struct wddm_memory_statistics *pStatistics);

/* The timeline (issue 18): timestamped events from every layer — the GPU engines (each DMA and
 * paging buffer, preemptions, resets, context switches), the context queues, VidMm (evictions,
 * page-ins, renames, segment use) and the CPU threads (Map, Flush, submissions, waits) — written
 * as Chrome / Perfetto trace-event JSON, or as a self-contained HTML page that draws the lanes
 * (docs/timeline.md). Off by default; while off an event costs one relaxed load.
 * WDDM_TRACE=file.json and/or WDDM_TRACE_HTML=file.html turn it on for a whole run and write the
 * files at exit. write: STATUS_INVALID_PARAMETER for no path, STATUS_ACCESS_DENIED when the file
 * cannot be created, STATUS_UNSUCCESSFUL when writing failed. clear: later writes start from now. */
void wddm_timeline_enable(int enabled);
void wddm_timeline_clear(void);
NTSTATUS wddm_timeline_write(const char *path);
NTSTATUS wddm_timeline_write_html(const char *path);

/* D3DKMTWaitForSynchronizationObjectFromCpu with a time limit (issue 4): the same rules and
 * return codes, plus STATUS_TIMEOUT when the objects are not signalled within timeout_ms
 * (0 = only look; WDDM_WAIT_INFINITE = the blocking D3DKMT call). */
#define WDDM_WAIT_INFINITE 0xFFFFFFFFu
struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU; /* <wddm/d3dkmthk.h> */
NTSTATUS wddm_wait_for_synchronization_object_from_cpu_timeout(
    const struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *pData, UINT timeout_ms);

/* The debug switch: one line on stderr naming the broken rule for every refusal
 * (docs/architecture.md "Errors and bad input"). Also on with WDDM_DEBUG=1 or D3D11_CREATE_DEVICE_DEBUG. */
void wddm_debug_set(int enabled);

/* The debug layer's break-on settings (ID3D11InfoQueue / ID3D10InfoQueue / IDXGIInfoQueue
 * SetBreakOnCategory, SetBreakOnSeverity, SetBreakOnID): a message they name that passes the
 * storage filter raises SIGTRAP - where Windows breaks into the debugger - when a debugger is
 * attached to the process, and does nothing otherwise. wddm_debug_set_break(1) raises it
 * whether or not one is (a program that handles SIGTRAP itself), 0 never, -1 back to asking
 * whether the process is traced. */
void wddm_debug_set_break(int mode);

/* The last refusal lines of the calling thread ("<layer>: <rule broken>", up to four, oldest
 * first, '\n'-separated), kept whether or not the debug switch is on: why the last failing
 * call failed, and what caused it below. Copies them into buf (if any; a buffer too small for
 * all drops the oldest lines first); returns the length. wddm_clear_refusals() forgets them. */
size_t wddm_last_refusals(char *buf, size_t size);
void wddm_clear_refusals(void);

/* The verifier (docs/drivers.md "The verifier"): every check of what a KMD answers has an id
 * ("Caps.VidMmReserved"); WDDM_VERIFIER=1 prints each violation and a summary at exit, =break
 * also stops at the first one with a backtrace. Violations are counted either way, by rule and
 * driver. wddm_verifier_violations: how many of rule `id` (NULL: of every rule, features this
 * kernel lacks not counted); wddm_verifier_summary: the summary text (as snprintf, the length
 * written). */
UINT64 wddm_verifier_violations(const char *id);
size_t wddm_verifier_summary(char *buf, size_t size);

/* Test control (issue 14 §4), not for applications: makes an internal allocation of the
 * library fail, to prove that every path answers its documented out-of-memory error
 * (E_OUTOFMEMORY at the D3D11 API, STATUS_NO_MEMORY at D3DKMT) and releases everything.
 * wddm_test_fail_alloc_after(n): of the calling thread's next allocations, the one n of them
 * later fails (0 = the very next), once; the others succeed. Only the calling thread counts:
 * the GPU engines' and scheduler's threads allocate at timing-dependent moments and never
 * fail, so n names an allocation of the caller's own path (which still varies a little where
 * that path depends on the GPU's progress, e.g. whether a Map had to wait). n < 0 turns it off.
 * wddm_test_alloc_failures_injected(): how many failures the calling thread has had since
 * its last wddm_test_fail_alloc_after (0 or 1): 0 after a scenario means n was past its end. */
void wddm_test_fail_alloc_after(long long n);
unsigned long long wddm_test_alloc_failures_injected(void);

/* Test control (issue 20 §4): how much of a segment group of the adapter other processes use
 * (0 at first). On Windows they share the GPU; here the process is alone, so this plays their
 * part: the process's budget of the group (D3DKMTQueryVideoMemoryInfo, IDXGIAdapter3) is the
 * group's size less this, never below the process's reservation. A change of the budget calls
 * the budget-change notifications of the adapter's devices; a budget now below the process's
 * use of the group calls its trim notifications (TrimToBudget, NumBytesToTrim = the excess).
 * The notifications run on the calling thread before the call returns.
 * STATUS_INVALID_PARAMETER for a bad adapter handle, group, or a use above the group's size. */
NTSTATUS wddm_vidmm_set_external_usage(UINT hAdapter, UINT group, UINT64 bytes);

/* Test control, not for applications: moves the clock the TDR limits read (WDDM_TDR_LIMIT_TIME_S)
 * `seconds` forward, process-wide and for good, so that a test makes earlier adapter timeouts
 * fall out of the window without sleeping. Timeout detection keeps the real clock. */
void wddm_test_tdr_clock_advance(UINT seconds);

/* Test control (issue 19 §4, `wddm check` Context.Allocations): VidMm evicts from every segment
 * of the adapter whatever it may evict, as under the heaviest memory pressure. The caller
 * submits nothing meanwhile. The kernel lets the GPU run dry and switches every node to the null
 * context (the contexts' state goes to their save areas), so that context allocations (seed
 * 000) may leave their segments too; memory segments' allocations go to their backing store
 * (DXGK_OPERATION_TRANSFER), aperture segments' are unmapped. Locked and pinned allocations
 * stay. Everything comes back on its next use, with its content. *pEvicted (optional): how many
 * left their segment. STATUS_INVALID_PARAMETER for a bad adapter handle. */
NTSTATUS wddm_test_vidmm_trim(UINT hAdapter, UINT64 *pEvicted);

/* Test control (issue 20 §5): the system goes to standby (S3) or hibernation (S4) and wakes up
 * again, as far as the adapter sees it. The caller submits nothing meanwhile. The kernel lets
 * the GPU run dry, switches every node to the null context (the contexts' state goes to their
 * save areas), takes out of video memory what will not survive the transition (segments not
 * DXGK_SEGMENTFLAGS.PreservedDuringStandby / PreservedDuringHibernate for it; standby purges
 * every memory segment under DXGK_VIDMMCAPS.DisableSelfRefreshVRAMInS3 and none under
 * AlwaysPoweredVRAM), then calls DxgkDdiSetPowerState(D3) and (D0). Allocations come back on
 * their next use, with their content. STATUS_INVALID_PARAMETER for a bad handle or state,
 * STATUS_NOT_SUPPORTED for a KMD without DxgkDdiSetPowerState. In the GpuMmu model VidMm's page
 * tables live in local memory: after a transition that lost it, every table is written again
 * and what devices made resident is placed again before the call returns. */
#define WDDM_SYSTEM_STANDBY 3u   /* S3: PowerActionSleep */
#define WDDM_SYSTEM_HIBERNATE 4u /* S4: PowerActionHibernate */
NTSTATUS wddm_test_system_power_cycle(UINT hAdapter, UINT system_state);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_WDDM_H */
