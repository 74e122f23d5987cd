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

/* Which KMD the kernel starts (DriverEntry). NULL restores the built-in reference KMD
 * (SwKmdDriverEntry). Takes effect when the adapter list is (re)started. */
void wddm_set_kmd_entry(PDRIVER_INITIALIZE pfnDriverEntry);

/* The built-in reference KMD's DriverEntry: calls DxgkInitialize with its
 * DRIVER_INITIALIZATION_DATA (src/kmd/driver.c). */
NTSTATUS SwKmdDriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

/* Kernel event counters, summed over the process's adapters (DESIGN.md "Seeing what
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
};
NTSTATUS wddm_get_counters(struct wddm_counters *pCounters);

/* The debug switch: one line on stderr naming the broken rule for every refusal
 * (DESIGN.md "Errors"). Also on with WDDM_DEBUG=1 or D3D11_CREATE_DEVICE_DEBUG. */
void wddm_debug_set(int enabled);

/* The last refusal lines of the calling thread ("<layer>: <rule broken>", up to four, oldest
 * first, '\n'-separated), kept whether or not the debug switch is on: why the last failing
 * call failed, and what caused it below. Copies them into buf (if any); returns the length.
 * wddm_clear_refusals() forgets them. */
size_t wddm_last_refusals(char *buf, size_t size);
void wddm_clear_refusals(void);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_WDDM_H */
