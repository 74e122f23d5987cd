/* deferred.h - the reference UMD's deferred contexts and command lists (docs/semantics.md §4.5,
 * seed 004): context-local handles, recording, CommandListExecute, and the UMD's test hooks.
 *
 * Data organisation (seed 004 "Driver Data Organization"): a deferred-context (DC) handle
 * holds only what that context changes (per-context use counter, its current discard alias);
 * what it reads is the read-only block umd_resource_ro, which sits after the immediate-context
 * (IC) handle data in the same runtime-allocated memory, contiguous but on its own cache line
 * (UMD_CACHE_LINE padding), so a DC thread reading it never shares a line with the IC thread
 * writing umd_resource. Build with WDDM_UMD_NO_PADDING to remove the padding (false-sharing
 * benchmark, tools/wddm/bench_deferred.c).
 */
#ifndef WDDM_UMD_DEFERRED_H
#define WDDM_UMD_DEFERRED_H

#include "wddm/d3d10umddi.h"

#ifdef WDDM_UMD_NO_PADDING
#define UMD_RO_ALIGN 8u
#else
#define UMD_RO_ALIGN 64u  /* one cache line */
#endif

/* Test hooks (tests and benchmark only; process-wide, atomics).
 * wddm_umd_set_command_lists(1/0): report D3D11DDICAPS_COMMANDLISTS(_BUILD_2) or not, read at
 * the next device creation; -1 = default (on unless WDDM_UMD_NO_COMMANDLISTS=1 is in the
 * environment). Off makes the runtime emulate command lists itself. */
void wddm_umd_set_command_lists(int enabled);
int wddm_umd_command_lists_enabled(void);
/* Make the n-th next deferred-context DDI call (0 = the very next) report E_OUTOFMEMORY
 * through that context's pfnSetErrorCb and do nothing; -1 turns the fault off. */
void wddm_umd_fail_deferred_after(int n);
/* Test hook: make CalcDeferredContextHandleSize return a size it never listed (verifier test). */
void wddm_umd_test_bad_handle_size(int on);

#endif /* WDDM_UMD_DEFERRED_H */
