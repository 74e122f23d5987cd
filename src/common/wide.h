/* UTF-8 <-> UTF-16 for the Windows structures that carry WCHAR strings (file names, adapter
 * descriptions), through the C library's iconv. */
#ifndef WDDM_COMMON_WIDE_H
#define WDDM_COMMON_WIDE_H

#include <stddef.h>

#include <wddm/wintypes.h>

/* Writes `utf8` as NUL-terminated UTF-16 into out[cap]. Returns 0, or -1 when it is not valid
 * UTF-8 or does not fit with its terminator (out is then an empty string). */
int wddm_utf8_to_utf16(const char *utf8, WCHAR *out, size_t cap);
/* The NUL-terminated UTF-16 string in in[0..cap) as a malloc'ed UTF-8 string; NULL when it is
 * not valid UTF-16, has no terminator within cap, or memory runs out. */
char *wddm_utf16_to_utf8(const WCHAR *in, size_t cap);

#endif
