/* The debug switch (docs/architecture.md "Errors and bad input"): with WDDM_DEBUG=1, wddm_debug_set(1)
 * or D3D11_CREATE_DEVICE_DEBUG, every refusal prints one line naming the broken rule:
 *   wddm: <layer>: <rule>
 */
#ifndef WDDM_COMMON_DEBUG_H
#define WDDM_COMMON_DEBUG_H

int wddm_debug_enabled(void);
void wddm_debug_set(int enabled);
/* The debug layer's break: SIGTRAP when a debugger is attached (or wddm_debug_set_break(1)). */
void wddm_debug_break(void);
/* Whether a debugger (a tracer) is attached to the process. */
int wddm_debugger_attached(void);
void wddm_debug(const char *layer, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A refusal kept in the thread's last-refusal lines without printing it: the caller prints it
 * another way (the runtime's debug layer, src/runtime/debug_layer.c). */
void wddm_debug_note(const char *layer, const char *text);

#endif
