/* deferred.h - the reference UMD's deferred contexts and command lists (docs/semantics.md §4.5,
 * seed 004): context-local handles, recording, CommandListExecute, and the command-list switch.
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

/* Whether the UMD reports D3D11DDICAPS_COMMANDLISTS(_BUILD_2): yes unless WDDM_UMD_NO_COMMANDLISTS=1
 * is in the environment, read at each GetCaps. Off makes the runtime emulate command lists. */
int wddm_umd_command_lists_enabled(void);

#endif /* WDDM_UMD_DEFERRED_H */
