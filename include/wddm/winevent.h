/* Win32 event objects and the handle functions around them: the kernel32 subset (synchapi.h,
 * handleapi.h, errhandlingapi.h) a program written for Windows uses with Direct3D, e.g. an event
 * HANDLE for ID3D11Fence::SetEventOnCompletion, a D3DKMT CPU notification or a budget-change
 * notification. wintypes.h includes this header, so every program that includes d3d11.h or
 * d3dkmthk.h has these names, as every Windows program has them from <windows.h>.
 *
 * Names, signatures and numeric values are the Windows SDK's (facts); the declarations are ours.
 * What the subset does and does not do: docs/api.md "Win32 events". */
#ifndef WDDM_WINEVENT_H
#define WDDM_WINEVENT_H

#include "wintypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef SECURITY_ATTRIBUTES *LPSECURITY_ATTRIBUTES;

/* Wait functions (synchapi.h / winbase.h). */
#ifndef INFINITE
#define INFINITE 0xFFFFFFFFu
#endif
#ifndef WAIT_OBJECT_0
#define WAIT_OBJECT_0 0x00000000u
#endif
#ifndef WAIT_ABANDONED
#define WAIT_ABANDONED 0x00000080u
#endif
#ifndef WAIT_ABANDONED_0
#define WAIT_ABANDONED_0 0x00000080u
#endif
#ifndef WAIT_TIMEOUT
#define WAIT_TIMEOUT 0x00000102u
#endif
#ifndef WAIT_FAILED
#define WAIT_FAILED 0xFFFFFFFFu
#endif
#ifndef MAXIMUM_WAIT_OBJECTS
#define MAXIMUM_WAIT_OBJECTS 64
#endif
#ifndef MAX_PATH
#define MAX_PATH 260
#endif

/* CreateEventEx flags and the event access rights (synchapi.h / winnt.h). */
#ifndef CREATE_EVENT_MANUAL_RESET
#define CREATE_EVENT_MANUAL_RESET 0x00000001u
#endif
#ifndef CREATE_EVENT_INITIAL_SET
#define CREATE_EVENT_INITIAL_SET 0x00000002u
#endif
#ifndef SYNCHRONIZE
#define SYNCHRONIZE 0x00100000u
#endif
#ifndef EVENT_MODIFY_STATE
#define EVENT_MODIFY_STATE 0x00000002u
#endif
#ifndef EVENT_ALL_ACCESS
#define EVENT_ALL_ACCESS 0x001F0003u
#endif

/* System error codes (winerror.h) these functions leave for GetLastError. */
#ifndef ERROR_SUCCESS
#define ERROR_SUCCESS 0u
#endif
#ifndef ERROR_PATH_NOT_FOUND
#define ERROR_PATH_NOT_FOUND 3u
#endif
#ifndef ERROR_INVALID_HANDLE
#define ERROR_INVALID_HANDLE 6u
#endif
#ifndef ERROR_NOT_ENOUGH_MEMORY
#define ERROR_NOT_ENOUGH_MEMORY 8u
#endif
#ifndef ERROR_INVALID_PARAMETER
#define ERROR_INVALID_PARAMETER 87u
#endif
#ifndef ERROR_ALREADY_EXISTS
#define ERROR_ALREADY_EXISTS 183u
#endif
#ifndef ERROR_FILENAME_EXCED_RANGE
#define ERROR_FILENAME_EXCED_RANGE 206u
#endif
#ifndef ERROR_NO_SYSTEM_RESOURCES
#define ERROR_NO_SYSTEM_RESOURCES 1450u
#endif

HANDLE WINAPI CreateEventW(LPSECURITY_ATTRIBUTES lpEventAttributes, BOOL bManualReset, BOOL bInitialState,
                           LPCWSTR lpName);
HANDLE WINAPI CreateEventA(LPSECURITY_ATTRIBUTES lpEventAttributes, BOOL bManualReset, BOOL bInitialState,
                           LPCSTR lpName);
HANDLE WINAPI CreateEventExW(LPSECURITY_ATTRIBUTES lpEventAttributes, LPCWSTR lpName, DWORD dwFlags,
                             DWORD dwDesiredAccess);
HANDLE WINAPI CreateEventExA(LPSECURITY_ATTRIBUTES lpEventAttributes, LPCSTR lpName, DWORD dwFlags,
                             DWORD dwDesiredAccess);
BOOL WINAPI SetEvent(HANDLE hEvent);
BOOL WINAPI ResetEvent(HANDLE hEvent);
DWORD WINAPI WaitForSingleObject(HANDLE hHandle, DWORD dwMilliseconds);
DWORD WINAPI WaitForMultipleObjects(DWORD nCount, const HANDLE *lpHandles, BOOL bWaitAll, DWORD dwMilliseconds);
BOOL WINAPI CloseHandle(HANDLE hObject);
DWORD WINAPI GetLastError(void);
void WINAPI SetLastError(DWORD dwErrCode);

/* The generic names, as the SDK maps them by UNICODE. */
#ifndef CreateEvent
#ifdef UNICODE
#define CreateEvent CreateEventW
#define CreateEventEx CreateEventExW
#else
#define CreateEvent CreateEventA
#define CreateEventEx CreateEventExA
#endif
#endif

#ifdef __cplusplus
}
#endif
#endif /* WDDM_WINEVENT_H */
