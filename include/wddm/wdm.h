/* The kernel services portable driver code calls by name, with the WDK's names, types and
 * semantics (wdm.h): pool allocation, IRQL and spin locks, DPCs, events and waits, time, debug
 * output and assertions, and the memory and interlocked helpers. A KMD module gets them from
 * libwddm_displib.a (libwddm::displib), not from libwddm.so; docs/drivers.md "WDK services for
 * driver code" lists what exists and what differs from Windows.
 *
 * Names and numeric values are the WDK's (facts); the declarations are ours. The structures
 * drivers embed (KDPC, KEVENT) keep the WDK's member names, not its binary layout. */
#ifndef WDDM_WDM_H
#define WDDM_WDM_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "wintypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Base types wdm.h (ntdef.h) adds to the ones every interface uses ----------------------- */
typedef unsigned char UCHAR, *PUCHAR;
typedef char CCHAR;
typedef char *PCHAR, *PSTR;
typedef const char *PCSTR;
typedef int64_t LONG64;
typedef ULONG *PULONG;

typedef struct _LIST_ENTRY {
    struct _LIST_ENTRY *Flink;
    struct _LIST_ENTRY *Blink;
} LIST_ENTRY, *PLIST_ENTRY;

typedef struct _SINGLE_LIST_ENTRY {
    struct _SINGLE_LIST_ENTRY *Next;
} SINGLE_LIST_ENTRY, *PSINGLE_LIST_ENTRY;

#ifndef CONTAINING_RECORD
#define CONTAINING_RECORD(address, type, field) ((type *)((char *)(address) - offsetof(type, field)))
#endif

#ifndef NT_SUCCESS
#define NT_SUCCESS(s) (((NTSTATUS)(s)) >= 0)
#endif
#ifndef STATUS_INSUFFICIENT_RESOURCES
#define STATUS_INSUFFICIENT_RESOURCES ((NTSTATUS)0xC000009A)
#endif

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096u
#endif

#define UNREFERENCED_PARAMETER(P) ((void)(P))

/* ---- IRQL --------------------------------------------------------------------------------------
 * Each thread has its own IRQL, PASSIVE_LEVEL until the driver raises it (or the shim runs a DPC
 * on its thread at DISPATCH_LEVEL). It decides what the services below allow, as on Windows;
 * raising it does not keep anything else from running here. */
typedef UCHAR KIRQL, *PKIRQL;

#define PASSIVE_LEVEL  0
#define LOW_LEVEL      0
#define APC_LEVEL      1
#define DISPATCH_LEVEL 2
#define HIGH_LEVEL     15

KIRQL KeGetCurrentIrql(VOID);
/* Raises to NewIrql and returns the IRQL before; a NewIrql below the current one is reported
 * and the IRQL stays (Windows bug-checks IRQL_NOT_GREATER_OR_EQUAL). */
KIRQL KfRaiseIrql(KIRQL NewIrql);
#define KeRaiseIrql(NewIrql, OldIrql) (*(OldIrql) = KfRaiseIrql(NewIrql))
KIRQL KeRaiseIrqlToDpcLevel(VOID);
/* Back to NewIrql, normally what KeRaiseIrql returned; above the current IRQL it is reported and
 * the IRQL stays (Windows bug-checks IRQL_NOT_LESS_OR_EQUAL). */
VOID KeLowerIrql(KIRQL NewIrql);

/* ---- Pool ------------------------------------------------------------------------------------- */
typedef ULONG64 POOL_FLAGS;

/* The low 32 bits are required attributes (an unknown one fails the allocation), the high 32
 * optional ones (ignored when unknown). */
#define POOL_FLAG_USE_QUOTA          0x0000000000000001ull
#define POOL_FLAG_UNINITIALIZED      0x0000000000000002ull
#define POOL_FLAG_SESSION            0x0000000000000004ull
#define POOL_FLAG_CACHE_ALIGNED      0x0000000000000008ull
#define POOL_FLAG_RESERVED1          0x0000000000000010ull
#define POOL_FLAG_RAISE_ON_FAILURE   0x0000000000000020ull
#define POOL_FLAG_NON_PAGED          0x0000000000000040ull
#define POOL_FLAG_NON_PAGED_EXECUTE  0x0000000000000080ull
#define POOL_FLAG_PAGED              0x0000000000000100ull
#define POOL_FLAG_RESERVED2          0x0000000000000200ull
#define POOL_FLAG_RESERVED3          0x0000000000000400ull
#define POOL_FLAG_REQUIRED_START     0x0000000000000001ull
#define POOL_FLAG_REQUIRED_END       0x0000000080000000ull
#define POOL_FLAG_OPTIONAL_START     0x0000000100000000ull
#define POOL_FLAG_SPECIAL_POOL       0x0000000100000000ull
#define POOL_FLAG_OPTIONAL_END       0x8000000000000000ull

typedef enum _POOL_TYPE {
    NonPagedPool = 0,
    NonPagedPoolExecute = NonPagedPool,
    PagedPool = 1,
    NonPagedPoolMustSucceed = 2,
    DontUseThisType = 3,
    NonPagedPoolCacheAligned = 4,
    PagedPoolCacheAligned = 5,
    NonPagedPoolCacheAlignedMustS = 6,
    MaxPoolType = 7,
    NonPagedPoolBase = 0,
    NonPagedPoolBaseMustSucceed = 2,
    NonPagedPoolBaseCacheAligned = 4,
    NonPagedPoolBaseCacheAlignedMustS = 6,
    NonPagedPoolSession = 32,
    PagedPoolSession = 33,
    NonPagedPoolMustSucceedSession = 34,
    DontUseThisTypeSession = 35,
    NonPagedPoolCacheAlignedSession = 36,
    PagedPoolCacheAlignedSession = 37,
    NonPagedPoolCacheAlignedMustSSession = 38,
    NonPagedPoolNx = 512,
    NonPagedPoolNxCacheAligned = 516,
    NonPagedPoolSessionNx = 544
} POOL_TYPE;

/* NumberOfBytes (non-zero) of the pool Flags names (exactly one of POOL_FLAG_NON_PAGED,
 * _NON_PAGED_EXECUTE, _PAGED), zeroed unless POOL_FLAG_UNINITIALIZED, under a non-zero Tag.
 * NULL when memory runs out or the request is invalid, with or without
 * POOL_FLAG_RAISE_ON_FAILURE (there is no exception to raise here: the failure is reported).
 * Paged pool only at IRQL <= APC_LEVEL, any pool at <= DISPATCH_LEVEL. A block of PAGE_SIZE or
 * more is page-aligned, a smaller one 16-byte aligned (64 with POOL_FLAG_CACHE_ALIGNED). */
PVOID ExAllocatePool2(POOL_FLAGS Flags, SIZE_T NumberOfBytes, ULONG Tag);
/* The pre-2004 calls: PoolType instead of flags, the memory not zeroed (ExAllocatePoolZero
 * zeroes it); NULL on failure, for every type (a MustSucceed type does not bug-check). */
PVOID ExAllocatePoolWithTag(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag);
PVOID ExAllocatePoolZero(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag);
PVOID ExAllocatePoolUninitialized(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag);
/* Frees a block these calls returned. A Tag other than the block's, a pointer the pool did not
 * give or already took back, or a call above the IRQL the block's pool allows is reported and
 * the block is not freed (Windows bug-checks BAD_POOL_CALLER). */
VOID ExFreePoolWithTag(PVOID P, ULONG Tag);
VOID ExFreePool(PVOID P);

/* libwddm's pool counter: the blocks allocated with Tag and not yet freed (Tag 0: with any tag),
 * so a test or a driver's unload path sees a leak. */
SIZE_T wddm_pool_outstanding(ULONG Tag);

/* ---- Spin locks ------------------------------------------------------------------------------- */
typedef ULONG_PTR KSPIN_LOCK, *PKSPIN_LOCK;

VOID KeInitializeSpinLock(PKSPIN_LOCK SpinLock);
/* Raises to DISPATCH_LEVEL, spins until the lock is free, returns the IRQL before. Held by one
 * thread at a time; that thread's second acquire is reported instead of spinning for ever
 * (Windows' verifier: SPIN_LOCK_ALREADY_OWNED), and a release by a thread that does not hold
 * it is reported and leaves the lock alone (SPIN_LOCK_NOT_OWNED). */
KIRQL KeAcquireSpinLockRaiseToDpc(PKSPIN_LOCK SpinLock);
#define KeAcquireSpinLock(SpinLock, OldIrql) (*(OldIrql) = KeAcquireSpinLockRaiseToDpc(SpinLock))
VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql);
/* The same at DISPATCH_LEVEL already (a DPC routine): the IRQL does not change. */
VOID KeAcquireSpinLockAtDpcLevel(PKSPIN_LOCK SpinLock);
VOID KeReleaseSpinLockFromDpcLevel(PKSPIN_LOCK SpinLock);

/* ---- DPCs ------------------------------------------------------------------------------------- */
struct _KDPC;
typedef VOID KDEFERRED_ROUTINE(struct _KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1,
                               PVOID SystemArgument2);
typedef KDEFERRED_ROUTINE *PKDEFERRED_ROUTINE;

typedef enum _KDPC_IMPORTANCE { LowImportance, MediumImportance, HighImportance } KDPC_IMPORTANCE;

/* Opaque to the driver, which supplies the storage: KeInitializeDpc fills it. */
typedef struct _KDPC {
    UCHAR Type;
    UCHAR Importance;
    USHORT Number;
    SINGLE_LIST_ENTRY DpcListEntry;
    PKDEFERRED_ROUTINE DeferredRoutine;
    PVOID DeferredContext;
    PVOID SystemArgument1;
    PVOID SystemArgument2;
    PVOID DpcData; /* non-NULL while queued */
} KDPC, *PKDPC, *PRKDPC;

VOID KeInitializeDpc(PRKDPC Dpc, PKDEFERRED_ROUTINE DeferredRoutine, PVOID DeferredContext);
/* Queues the DPC with the two arguments its routine receives: TRUE, or FALSE (and nothing
 * changes) when it is queued already. The routine runs once per queueing, at DISPATCH_LEVEL, on
 * the shim's DPC thread (one "processor": DPCs run one at a time, in queueing order). */
BOOLEAN KeInsertQueueDpc(PRKDPC Dpc, PVOID SystemArgument1, PVOID SystemArgument2);
/* Takes a queued DPC off the queue before its routine starts: TRUE, or FALSE when not queued. */
BOOLEAN KeRemoveQueueDpc(PRKDPC Dpc);
/* Returns when every DPC queued before the call has run. PASSIVE_LEVEL only (from a DPC it
 * would wait for itself): above it the call is reported and returns at once. */
VOID KeFlushQueuedDpcs(VOID);

/* ---- Events, waits and time ------------------------------------------------------------------ */
typedef CCHAR KPROCESSOR_MODE;
typedef enum _MODE { KernelMode, UserMode, MaximumMode } MODE;
typedef LONG KPRIORITY;
#define IO_NO_INCREMENT 0

typedef enum _KWAIT_REASON {
    Executive, FreePage, PageIn, PoolAllocation, DelayExecution, Suspended, UserRequest
} KWAIT_REASON;

typedef enum _EVENT_TYPE { NotificationEvent, SynchronizationEvent } EVENT_TYPE;

typedef struct _DISPATCHER_HEADER {
    UCHAR Type;       /* EVENT_TYPE */
    UCHAR Signalling;
    UCHAR Size;       /* in LONGs: set by KeInitializeEvent, so an uninitialized event is seen */
    UCHAR Reserved1;
    LONG SignalState;
    LIST_ENTRY WaitListHead;
} DISPATCHER_HEADER;

typedef struct _KEVENT {
    DISPATCHER_HEADER Header;
} KEVENT, *PKEVENT, *PRKEVENT;

/* A notification event stays signalled until reset and satisfies every wait; a synchronization
 * event satisfies one wait and is reset by it. */
VOID KeInitializeEvent(PRKEVENT Event, EVENT_TYPE Type, BOOLEAN State);
/* Signals the event; returns its previous state (non-zero: it was signalled). */
LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait);
LONG KeResetEvent(PRKEVENT Event);
VOID KeClearEvent(PRKEVENT Event);
LONG KeReadStateEvent(PRKEVENT Event);
/* Waits for a KEVENT (the only dispatcher object here): STATUS_SUCCESS when it is signalled,
 * STATUS_TIMEOUT when *Timeout passes first. Timeout in 100 ns units: negative, relative;
 * positive, an absolute system time (KeQuerySystemTime's); 0, only a look; NULL, no limit.
 * A wait that may block is allowed up to APC_LEVEL, a look up to DISPATCH_LEVEL: above, the call
 * is reported and only looks. Alertable waits are not modeled (never STATUS_ALERTED). */
NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout);

/* Spins MicroSeconds on the calling thread (any IRQL). */
VOID KeStallExecutionProcessor(ULONG MicroSeconds);
/* Sleeps *Interval (as KeWaitForSingleObject's Timeout; up to APC_LEVEL, above it the call is
 * reported and returns at once). STATUS_SUCCESS. */
NTSTATUS KeDelayExecutionThread(KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Interval);
/* A monotonic counter; *PerformanceFrequency (if given) its ticks per second (10 MHz here). */
LARGE_INTEGER KeQueryPerformanceCounter(PLARGE_INTEGER PerformanceFrequency);
/* Monotonic 100 ns units since an arbitrary start (Windows: since boot). */
ULONGLONG KeQueryInterruptTime(VOID);
/* The system time: 100 ns units since 1601-01-01 UTC. */
VOID KeQuerySystemTime(PLARGE_INTEGER CurrentTime);
VOID KeQuerySystemTimePrecise(PLARGE_INTEGER CurrentTime);

/* ---- Debug output and assertions ---------------------------------------------------------------
 * Printed to stderr as "wddm: kmd: <text>", the prefix at the start of each line (a line may be
 * built over several calls of one thread). A message's importance is 1 << Level for Level < 32,
 * else Level itself; DPFLTR_ERROR_LEVEL's bit is always printed, the others with WDDM_DEBUG=1
 * (the component filter masks Windows keeps in the registry). At most 512 bytes per call. The
 * format is the C library's: ULONG is 32-bit, so %u / %x, not Windows' %lu / %lx. */
#define DPFLTR_ERROR_LEVEL   0
#define DPFLTR_WARNING_LEVEL 1
#define DPFLTR_TRACE_LEVEL   2
#define DPFLTR_INFO_LEVEL    3
#define DPFLTR_MASK          0x80000000u

#define DPFLTR_IHVDRIVER_ID    77
#define DPFLTR_IHVVIDEO_ID     78
#define DPFLTR_IHVAUDIO_ID     79
#define DPFLTR_IHVNETWORK_ID   80
#define DPFLTR_IHVSTREAMING_ID 81
#define DPFLTR_IHVBUS_ID       82
#define DPFLTR_DEFAULT_ID      99

#if defined(__GNUC__) || defined(__clang__)
#define WDDM_WDM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define WDDM_WDM_PRINTF(f, a)
#endif

/* STATUS_SUCCESS. DbgPrint is DPFLTR_DEFAULT_ID at DPFLTR_INFO_LEVEL, as since Windows Vista. */
ULONG DbgPrintEx(ULONG ComponentId, ULONG Level, PCSTR Format, ...) WDDM_WDM_PRINTF(3, 4);
ULONG vDbgPrintEx(ULONG ComponentId, ULONG Level, PCSTR Format, va_list arglist) WDDM_WDM_PRINTF(3, 0);
ULONG DbgPrint(PCSTR Format, ...) WDDM_WDM_PRINTF(1, 2);

/* A failed assertion: printed (always) with the expression, file, line and message; execution
 * goes on (Windows breaks into the kernel debugger). */
VOID RtlAssert(PVOID VoidFailedAssertion, PVOID VoidFileName, ULONG LineNumber, PSTR MutableMessage);

/* Active unless DBG is defined to 0: this platform is a debug build of the driver's world
 * (the WDK compiles them out unless its build sets DBG=1). */
#if !defined(DBG) || DBG
#define ASSERT(exp) ((void)((exp) ? 1 : (RtlAssert((PVOID)#exp, (PVOID)__FILE__, __LINE__, NULL), 0)))
#define ASSERTMSG(msg, exp) ((void)((exp) ? 1 : (RtlAssert((PVOID)#exp, (PVOID)__FILE__, __LINE__, (PSTR)(msg)), 0)))
#define NT_ASSERT(exp) ((void)((exp) ? 1 : (RtlAssert((PVOID)#exp, (PVOID)__FILE__, __LINE__, NULL), 0)))
/* Code that may only run at IRQL <= APC_LEVEL says so. */
#define PAGED_CODE()                                                                   \
    ((void)(KeGetCurrentIrql() <= APC_LEVEL ||                                         \
            (RtlAssert((PVOID)"KeGetCurrentIrql() <= APC_LEVEL", (PVOID)__FILE__,       \
                       __LINE__, (PSTR)"pageable code called above APC_LEVEL"), 0)))
#define KdPrint(args) DbgPrint args
#define KdPrintEx(args) DbgPrintEx args
#else
#define ASSERT(exp) ((void)0)
#define ASSERTMSG(msg, exp) ((void)0)
#define NT_ASSERT(exp) ((void)0)
#define PAGED_CODE() ((void)0)
#define KdPrint(args) ((void)0)
#define KdPrintEx(args) ((void)0)
#endif

/* ---- Memory and interlocked helpers ----------------------------------------------------------- */
#define RtlZeroMemory(Destination, Length) memset((Destination), 0, (Length))
#define RtlFillMemory(Destination, Length, Fill) memset((Destination), (Fill), (Length))
#define RtlCopyMemory(Destination, Source, Length) memcpy((Destination), (Source), (Length))
#define RtlMoveMemory(Destination, Source, Length) memmove((Destination), (Source), (Length))
#define RtlEqualMemory(Source1, Source2, Length) (!memcmp((Source1), (Source2), (Length)))

/* Full barriers, as on Windows. Increment and Decrement return the new value, Exchange and
 * ExchangeAdd the old one, CompareExchange the old one (stored Exchange only if it was
 * Comparand). */
static inline LONG InterlockedIncrement(LONG volatile *Addend)
{
    return __atomic_add_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}
static inline LONG InterlockedDecrement(LONG volatile *Addend)
{
    return __atomic_sub_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}
static inline LONG InterlockedExchange(LONG volatile *Target, LONG Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}
static inline LONG InterlockedExchangeAdd(LONG volatile *Addend, LONG Value)
{
    return __atomic_fetch_add(Addend, Value, __ATOMIC_SEQ_CST);
}
static inline LONG InterlockedCompareExchange(LONG volatile *Destination, LONG Exchange, LONG Comparand)
{
    __atomic_compare_exchange_n(Destination, &Comparand, Exchange, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return Comparand;
}
static inline LONG64 InterlockedIncrement64(LONG64 volatile *Addend)
{
    return __atomic_add_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}
static inline LONG64 InterlockedDecrement64(LONG64 volatile *Addend)
{
    return __atomic_sub_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}
static inline LONG64 InterlockedExchange64(LONG64 volatile *Target, LONG64 Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}
static inline LONG64 InterlockedExchangeAdd64(LONG64 volatile *Addend, LONG64 Value)
{
    return __atomic_fetch_add(Addend, Value, __ATOMIC_SEQ_CST);
}
static inline LONG64 InterlockedCompareExchange64(LONG64 volatile *Destination, LONG64 Exchange, LONG64 Comparand)
{
    __atomic_compare_exchange_n(Destination, &Comparand, Exchange, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return Comparand;
}
static inline PVOID InterlockedExchangePointer(PVOID volatile *Target, PVOID Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}
static inline PVOID InterlockedCompareExchangePointer(PVOID volatile *Destination, PVOID Exchange, PVOID Comparand)
{
    __atomic_compare_exchange_n(Destination, &Comparand, Exchange, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return Comparand;
}

#ifdef __cplusplus
}
#endif

#endif /* WDDM_WDM_H */
