/* The memory descriptor list both the kernel's DDIs (d3dkmddi.h: a paging buffer's system
 * memory) and the WDK services (wdm.h: IoAllocateMdl, MmProbeAndLockPages ...) name, so a KMD
 * includes both headers. System memory is identity-mapped for the software GPU, so a page frame
 * number is the host address >> 12 (docs/architecture.md "Memory and addresses"). The WDK's
 * MDL has the page array right after the structure; here PfnArray points at it (an MDL of
 * IoAllocateMdl has it there) or anywhere else (the kernel's), and PageCount says how long it
 * is. The WDK's member names, not its layout. */
#ifndef WDDM_WDM_MDL_H
#define WDDM_WDM_MDL_H

#include "wintypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef short CSHORT;

/* How system memory is mapped (MmMapLockedPagesSpecifyCache, DxgkCbMapMemory ...). */
typedef enum _MEMORY_CACHING_TYPE {
    MmNonCached = 0,
    MmCached = 1,
    MmWriteCombined = 2,
    MmHardwareCoherentCached = 3,
    MmNonCachedUnordered = 4,
    MmUSWCCached = 5,
    MmMaximumCacheType = 6,
    MmNotMapped = -1
} MEMORY_CACHING_TYPE;

typedef struct _MDL {
    PVOID StartVa;          /* page-aligned start of the described system memory */
    ULONG ByteOffset;       /* of the buffer into its first page */
    ULONG ByteCount;
    SIZE_T PageCount;
    PFN_NUMBER *PfnArray;   /* PageCount entries */
    struct _MDL *Next;
    CSHORT Size;            /* of an MDL of IoAllocateMdl with its page array, when it fits */
    CSHORT MdlFlags;        /* MDL_* */
    struct _EPROCESS *Process;
    PVOID MappedSystemVa;   /* with MDL_MAPPED_TO_SYSTEM_VA or MDL_SOURCE_IS_NONPAGED_POOL */
} MDL, *PMDL, *PMDLX;
#define MmGetMdlPfnArray(mdl) ((mdl)->PfnArray)

#define MDL_MAPPED_TO_SYSTEM_VA     0x0001
#define MDL_PAGES_LOCKED            0x0002
#define MDL_SOURCE_IS_NONPAGED_POOL 0x0004
#define MDL_ALLOCATED_FIXED_SIZE    0x0008
#define MDL_PARTIAL                 0x0010
#define MDL_PARTIAL_HAS_BEEN_MAPPED 0x0020
#define MDL_IO_PAGE_READ            0x0040
#define MDL_WRITE_OPERATION         0x0080
#define MDL_LOCKED_PAGE_TABLES      0x0100
#define MDL_PARENT_MAPPED_SYSTEM_VA MDL_LOCKED_PAGE_TABLES
#define MDL_FREE_EXTRA_PTES         0x0200
#define MDL_DESCRIBES_AWE           0x0400
#define MDL_IO_SPACE                0x0800
#define MDL_NETWORK_HEADER          0x1000
#define MDL_MAPPING_CAN_FAIL        0x2000
#define MDL_PAGE_CONTENTS_INVARIANT 0x4000
#define MDL_ALLOCATED_MUST_SUCCEED  MDL_PAGE_CONTENTS_INVARIANT
#define MDL_INTERNAL                0x8000

#ifdef __cplusplus
}
#endif

#endif /* WDDM_WDM_MDL_H */
