/* Win32 event objects (event.c; the application's side is include/wddm/winevent.h) seen from
 * inside the library: a kernel path that is handed an event HANDLE (a D3DKMT CPU notification,
 * a budget-change notification, ID3D11Fence::SetEventOnCompletion) takes a reference to the
 * event once, when the request is made, and signals it later from whatever thread completes
 * the request. The reference keeps the event alive after the application closes its handle,
 * as on Windows, where a kernel reference to an object outlives the handle it came from. */
#ifndef WDDM_COMMON_EVENT_H
#define WDDM_COMMON_EVENT_H

#include <wddm/wintypes.h>

#include <stdbool.h>

struct wddm_event;

/* Takes a reference to the event a HANDLE names; NULL (no message) when h is not a live event
 * handle: the caller decides what a bad handle means for its own call and says so. */
struct wddm_event *wddm_event_get(HANDLE h);

/* Sets it (SetEvent semantics) from any thread, whatever locks the caller holds: it takes only
 * the event's own lock and, under it, the lock of each wait it ends (leaf locks: nothing is
 * ever taken while one of them is held, and neither waits for anything). */
void wddm_event_signal(struct wddm_event *e);

/* Drops the reference wddm_event_get took (NULL is ignored). The last reference frees the
 * event; that also takes the handle table's lock (a leaf lock) for a named event. */
void wddm_event_put(struct wddm_event *e);

/* How many waits are queued on the event right now (a thread blocked in WaitForSingleObject /
 * WaitForMultipleObjects counts once per event it waits on). For tests, which must know a
 * waiter is really blocked before they signal, without timing it. */
unsigned wddm_event_waiter_count(struct wddm_event *e);

/* CloseHandle closes every kind of handle the process has: events here, and the kernel's NT
 * handles (D3DKMTShareObjects, objects/nt_handle.c) through the closer the kernel registers. The
 * closer is asked about a handle that names no event and answers whether it closed one; it
 * prints nothing for a value that is not its own. One closer; registering it again is harmless. */
typedef bool (*wddm_handle_closer)(HANDLE h);
void wddm_handle_closer_register(wddm_handle_closer closer);

#endif
