/* UTF-8 <-> UTF-16 with iconv (wide.h). */
#include "common/wide.h"

#include <iconv.h>
#include <stdlib.h>
#include <string.h>

/* WCHAR is a host-order 16-bit unit. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define UTF16_HOST "UTF-16BE"
#else
#define UTF16_HOST "UTF-16LE"
#endif

static int convert(const char *to, const char *from, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                   size_t *left)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1)
        return -1;
    char *ip = (char *)in, *op = out;
    size_t il = in_bytes, ol = out_bytes;
    size_t r = iconv(cd, &ip, &il, &op, &ol);
    iconv_close(cd);
    *left = ol;
    return r == (size_t)-1 || il ? -1 : 0;
}

int wddm_utf8_to_utf16(const char *utf8, WCHAR *out, size_t cap)
{
    if (!out || !cap)
        return -1;
    out[0] = 0;
    if (!utf8)
        return -1;
    size_t left = 0;
    if (convert(UTF16_HOST, "UTF-8", utf8, strlen(utf8), out, (cap - 1) * sizeof(WCHAR), &left)) {
        out[0] = 0;
        return -1;
    }
    out[(cap - 1) - left / sizeof(WCHAR)] = 0;
    return 0;
}

char *wddm_utf16_to_utf8(const WCHAR *in, size_t cap)
{
    if (!in)
        return NULL;
    size_t n = 0;
    while (n < cap && in[n])
        n++;
    if (n == cap)
        return NULL;
    size_t room = n * 3 + 1; /* a UTF-16 unit is at most 3 UTF-8 bytes (a pair: 4 for 2) */
    char *out = malloc(room);
    if (!out)
        return NULL;
    size_t left = 0;
    if (convert("UTF-8", UTF16_HOST, in, n * sizeof(WCHAR), out, room - 1, &left)) {
        free(out);
        return NULL;
    }
    out[room - 1 - left] = 0;
    return out;
}
