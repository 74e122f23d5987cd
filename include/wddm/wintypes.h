/* Windows base types and status codes used by every interface of libwddm.
 *
 * Names and numeric values are the Windows SDK's and WDK's (facts); the declarations are
 * ours. Binary layout compatibility with Windows is not a goal (docs/architecture.md "Headers use the WDK's and the D3D SDK's names"). */
#ifndef WDDM_WINTYPES_H
#define WDDM_WINTYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define APIENTRY
#define WINAPI
#define STDMETHODCALLTYPE
#define CALLBACK
#define IN
#define OUT
#define INOUT
#define CONST const

typedef void VOID;
typedef void *PVOID;
typedef void *HANDLE;
typedef void *HMODULE;
typedef uint8_t BYTE;
typedef uint8_t UINT8;
typedef uint8_t BOOLEAN;
typedef uint16_t UINT16;
typedef uint16_t USHORT;
typedef uint16_t WORD;
typedef uint32_t UINT;
typedef uint32_t UINT32;
typedef uint32_t ULONG;
typedef uint32_t DWORD;
typedef int32_t INT;
typedef int32_t INT32;
typedef int32_t LONG;
typedef int32_t BOOL;
typedef uint64_t UINT64;
typedef uint64_t ULONGLONG;
typedef uint64_t ULONG64;
typedef int64_t INT64;
typedef int64_t LONGLONG;
typedef size_t SIZE_T;
typedef uintptr_t ULONG_PTR;
typedef uintptr_t UINT_PTR;
typedef intptr_t LONG_PTR;
typedef float FLOAT;
typedef char CHAR;
typedef const char *LPCSTR;
typedef uint16_t WCHAR;
typedef int32_t HRESULT;
typedef int32_t NTSTATUS;
typedef ULONG_PTR PFN_NUMBER;

/* The current process's pseudo handle (GetCurrentProcess / NtCurrentProcess). */
#define NtCurrentProcess() ((HANDLE)(LONG_PTR)-1)

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

typedef union _LARGE_INTEGER {
    struct { UINT32 LowPart; INT32 HighPart; };
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;
typedef LARGE_INTEGER PHYSICAL_ADDRESS;

typedef struct _LUID { DWORD LowPart; LONG HighPart; } LUID;

typedef struct _GUID {
    UINT32 Data1;
    UINT16 Data2;
    UINT16 Data3;
    BYTE Data4[8];
} GUID;
typedef GUID IID;
#ifdef __cplusplus
/* C++ passes interface identifiers by reference (the SDK's REFIID); the same pointer in the ABI. */
typedef const IID &REFIID;
typedef const GUID &REFGUID;
#else
typedef const IID *REFIID;
typedef const GUID *REFGUID;
#endif

/* What the application APIs name from windef.h / winnt.h (window system objects are opaque
 * handles here: libwddm presents nothing on a screen). */
typedef void *HWND;
typedef void *HDC;
typedef void *HMONITOR;
typedef WCHAR *LPWSTR;
typedef const WCHAR *LPCWSTR;
typedef char *LPSTR;
typedef struct tagRECT { LONG left; LONG top; LONG right; LONG bottom; } RECT;
typedef struct tagPOINT { LONG x; LONG y; } POINT;
typedef struct tagSIZE { LONG cx; LONG cy; } SIZE;
typedef struct _SECURITY_ATTRIBUTES {
    DWORD nLength;
    void *lpSecurityDescriptor;
    BOOL bInheritHandle;
} SECURITY_ATTRIBUTES;

/* Object names and attributes (ntdef.h): D3DKMTShareObjects names the NT object it makes by
 * OBJECT_ATTRIBUTES.ObjectName, and the D3DKMTOpen*FromName thunks find it by that name. Lengths
 * are in bytes, without a NUL. */
typedef struct _UNICODE_STRING {
    USHORT Length;        /* bytes in Buffer, without a NUL */
    USHORT MaximumLength; /* bytes Buffer holds */
    WCHAR *Buffer;
} UNICODE_STRING, *PUNICODE_STRING;
typedef const UNICODE_STRING *PCUNICODE_STRING;
typedef struct _OBJECT_ATTRIBUTES {
    ULONG Length;                 /* sizeof(OBJECT_ATTRIBUTES) */
    HANDLE RootDirectory;
    UNICODE_STRING *ObjectName;   /* NULL: an unnamed object */
    ULONG Attributes;             /* OBJ_* */
    void *SecurityDescriptor;
    void *SecurityQualityOfService;
} OBJECT_ATTRIBUTES, *POBJECT_ATTRIBUTES;
#define OBJ_INHERIT          0x00000002u
#define OBJ_CASE_INSENSITIVE 0x00000040u
#define InitializeObjectAttributes(p, n, a, r, s) \
    do { (p)->Length = sizeof(OBJECT_ATTRIBUTES); (p)->RootDirectory = (r); (p)->Attributes = (a); \
         (p)->ObjectName = (n); (p)->SecurityDescriptor = (s); (p)->SecurityQualityOfService = NULL; } while (0)

/* Access rights (winnt.h). */
#define DELETE                   0x00010000u
#define READ_CONTROL             0x00020000u
#define STANDARD_RIGHTS_REQUIRED 0x000F0000u
#define STANDARD_RIGHTS_READ     READ_CONTROL
#define STANDARD_RIGHTS_WRITE    READ_CONTROL
#define STANDARD_RIGHTS_EXECUTE  READ_CONTROL
#define STANDARD_RIGHTS_ALL      0x001F0000u
#define GENERIC_READ             0x80000000u
#define GENERIC_WRITE            0x40000000u
#define GENERIC_EXECUTE          0x20000000u
#define GENERIC_ALL              0x10000000u

/* HRESULTs (winerror.h) */
#define S_OK                    ((HRESULT)0x00000000)
#define S_FALSE                 ((HRESULT)0x00000001)
#define E_NOTIMPL               ((HRESULT)0x80004001)
#define E_NOINTERFACE           ((HRESULT)0x80004002)
#define E_POINTER               ((HRESULT)0x80004003)
#define E_FAIL                  ((HRESULT)0x80004005)
#define E_OUTOFMEMORY           ((HRESULT)0x8007000E)
#define E_INVALIDARG            ((HRESULT)0x80070057)
#define E_ACCESSDENIED          ((HRESULT)0x80070005)
#define E_PENDING               ((HRESULT)0x8000000A)
#define SUCCEEDED(hr)           (((HRESULT)(hr)) >= 0)
#define FAILED(hr)              (((HRESULT)(hr)) < 0)

/* NTSTATUS values used by the model (docs/semantics.md "Conventions"). */
#define STATUS_SUCCESS                          ((NTSTATUS)0x00000000)
#define STATUS_TIMEOUT                          ((NTSTATUS)0x00000102)
#define STATUS_PENDING                          ((NTSTATUS)0x00000103)
/* A wait that ended because the owner of what it waited for went away (ntstatus.h; DXGI's
 * WAIT_ABANDONED): a success code, like STATUS_TIMEOUT. */
#define STATUS_ABANDONED                        ((NTSTATUS)0x00000080)
#define STATUS_ABANDONED_WAIT_0                 ((NTSTATUS)0x00000080)
#define STATUS_UNSUCCESSFUL                     ((NTSTATUS)0xC0000001)
#define STATUS_NOT_IMPLEMENTED                  ((NTSTATUS)0xC0000002)
#define STATUS_ACCESS_VIOLATION                 ((NTSTATUS)0xC0000005)
#define STATUS_INVALID_HANDLE                   ((NTSTATUS)0xC0000008)
#define STATUS_INVALID_PARAMETER                ((NTSTATUS)0xC000000D)
#define STATUS_NO_MEMORY                        ((NTSTATUS)0xC0000017)
#define STATUS_ACCESS_DENIED                    ((NTSTATUS)0xC0000022)
#define STATUS_BUFFER_TOO_SMALL                 ((NTSTATUS)0xC0000023)
#define STATUS_OBJECT_TYPE_MISMATCH             ((NTSTATUS)0xC0000024)
#define STATUS_OBJECT_NAME_INVALID              ((NTSTATUS)0xC0000033)
#define STATUS_OBJECT_NAME_NOT_FOUND            ((NTSTATUS)0xC0000034)
#define STATUS_OBJECT_NAME_COLLISION            ((NTSTATUS)0xC0000035)
#define STATUS_INSUFFICIENT_RESOURCES           ((NTSTATUS)0xC000009A)
#define STATUS_NOT_SUPPORTED                    ((NTSTATUS)0xC00000BB)
#define STATUS_DLL_NOT_FOUND                    ((NTSTATUS)0xC0000135)
#define STATUS_INVALID_DEVICE_STATE             ((NTSTATUS)0xC0000184)
#define STATUS_ENTRYPOINT_NOT_FOUND             ((NTSTATUS)0xC0000139)
#define STATUS_DEVICE_REMOVED                   ((NTSTATUS)0xC00002B6)
#define STATUS_NOT_FOUND                        ((NTSTATUS)0xC0000225)
#define STATUS_NAME_TOO_LONG                    ((NTSTATUS)0xC0000106)
#define STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER ((NTSTATUS)0xC01E0001)
#define STATUS_GRAPHICS_NO_VIDEO_MEMORY         ((NTSTATUS)0xC01E0100)
#define STATUS_GRAPHICS_ALLOCATION_BUSY         ((NTSTATUS)0xC01E0102)
#define STATUS_GRAPHICS_TOO_MANY_REFERENCES     ((NTSTATUS)0xC01E0103)
#define STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE ((NTSTATUS)0xC01E0107)
#define STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNSUPPORTED ((NTSTATUS)0xC01E0108)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE ((NTSTATUS)0xC01E0114)
#define STATUS_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION ((NTSTATUS)0xC01E0109)
#define NT_SUCCESS(s)           (((NTSTATUS)(s)) >= 0)

#ifdef __cplusplus
}
#endif

/* The Win32 event subset (CreateEvent, SetEvent, WaitForSingleObject, CloseHandle ...): every
 * program that includes the D3D or D3DKMT headers has it, as <windows.h> gives it on Windows. */
#include "winevent.h"

#endif /* WDDM_WINTYPES_H */
