/* DXGK_DRIVERCAPS by name: the one table behind `wddm info`'s lines
 *   DXGK_VIDMMCAPS.<Member> = 0|1      DXGK_DRIVERCAPS.<Field> = value
 * and the override file named by WDDM_KMD_CAPS that the reference KMD applies over its
 * defaults when an adapter starts (issue 6). Member names and bit positions are the WDK's
 * (seed 003, docs/semantics.md §6.1-§6.3). */
#ifndef WDDM_COMMON_CAPS_H
#define WDDM_COMMON_CAPS_H

#include <stddef.h>
#include <stdio.h>

#include <wddm/d3dkmddi.h>

struct wddm_cap_field {
    const char *name;  /* "DXGK_VIDMMCAPS.OutOfOrderLock" */
    size_t offset;     /* of the UINT holding the bits, or of the plain field */
    unsigned size;     /* plain field: bytes (1, 4, 8); bit field: 0 */
    unsigned shift;    /* bit field: first bit in the UINT */
    unsigned width;    /* bit field: bits */
    const char *note;  /* printed after the value: "reserved, must be 0", ... or NULL */
};

size_t wddm_caps_count(void);
const struct wddm_cap_field *wddm_caps_at(size_t i);
const struct wddm_cap_field *wddm_caps_find(const char *name);
UINT64 wddm_caps_get(const DXGK_DRIVERCAPS *caps, const struct wddm_cap_field *f);
/* FALSE when the value does not fit the field. */
BOOL wddm_caps_set(DXGK_DRIVERCAPS *caps, const struct wddm_cap_field *f, UINT64 value);

/* Every field, one "NAME = value" line each (a note as a trailing "# ..." comment). The output
 * is itself a valid override file. */
void wddm_caps_print(FILE *out, const DXGK_DRIVERCAPS *caps);

/* What a caps file may be (issue 14 §4, docs/rules/common.md): a regular file of at most
 * WDDM_CAPS_FILE_MAX bytes of text (printable ASCII, tabs, CR, LF; no NUL or other control
 * bytes), each line at most WDDM_CAPS_LINE_MAX characters before its comment (a comment may
 * be as long as the file). Anything else is refused whole. */
#define WDDM_CAPS_FILE_MAX (1u << 20)
#define WDDM_CAPS_LINE_MAX 511u

/* Applies a file of "NAME = value" lines (blank lines and '#' comments allowed; values decimal
 * or 0x-hex) over *caps. On error returns FALSE, leaves *caps unchanged and writes one line
 * naming the file, the line number and what is wrong into err. A path that is not a regular
 * file (a FIFO, a device, a directory) is refused without reading it, so it never blocks.
 * errno is ENOMEM after a refusal for lack of memory (the file itself may be fine). */
BOOL wddm_caps_apply_file(const char *path, DXGK_DRIVERCAPS *caps, char *err, size_t err_size);

/* The same over size bytes in memory (the file reader is a thin wrapper; the fuzz harness
 * fuzz/fuzz_caps.c calls this); name stands for the file in err. */
BOOL wddm_caps_apply_text(const char *name, const char *text, size_t size, DXGK_DRIVERCAPS *caps, char *err,
                          size_t err_size);

#endif
