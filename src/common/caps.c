/* DXGK_DRIVERCAPS by name: see caps.h. */
#include "common/caps.h"

#include "common/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BIT(prefix, member, word, pos, n, note) \
    {prefix "." #member, offsetof(DXGK_DRIVERCAPS, word), 0, pos, n, note}
#define VIDMM(member, pos, note) BIT("DXGK_VIDMMCAPS", member, MemoryManagementCaps.Value, pos, 1, note)
#define VIDSCH(member, pos, n) BIT("DXGK_VIDSCHCAPS", member, SchedulingCaps.Value, pos, n, NULL)
#define FIELD(name, member, note) \
    {name, offsetof(DXGK_DRIVERCAPS, member), sizeof(((DXGK_DRIVERCAPS *)0)->member), 0, 0, note}
#define DRIVER(member) FIELD("DXGK_DRIVERCAPS." #member, member, NULL)

/* Bit positions: declaration order of the WDK's bitfields (seed 003 for DXGK_VIDMMCAPS). */
/* A note marks a bit the model does nothing with (reserved or documentation only). The
 * primaries' bits act on SWGPU_ALLOC_PRIMARY allocations (objects/allocation.c, verifier.c,
 * vidmm/evict.c, kmd/allocation.c); MapAperture2Supported picks the aperture-mapping paging
 * operation (vidmm/residency.c, kmd/paging.c). */
static const struct wddm_cap_field fields[] = {
    DRIVER(WDDMVersion),
    FIELD("DXGK_DRIVERCAPS.HighestAcceptableAddress", HighestAcceptableAddress.QuadPart, NULL),
    DRIVER(MaxAllocationListSlotId),
    DRIVER(ApertureSegmentCommitLimit),
    DRIVER(MaxPointerWidth),
    DRIVER(MaxPointerHeight),
    DRIVER(InterruptMessageNumber),
    DRIVER(NumberOfSwizzlingRanges),
    DRIVER(MaxOverlays),
    DRIVER(MaxQueuedFlipOnVSync),
    DRIVER(GpuEngineTopology.NbAsymetricProcessingNodes),
    DRIVER(PreemptionCaps.GraphicsPreemptionGranularity),
    DRIVER(PreemptionCaps.ComputePreemptionGranularity),
    DRIVER(SupportNonVGA),
    DRIVER(SupportSmoothRotation),
    DRIVER(SupportPerEngineTDR),
    DRIVER(SupportDirectFlip),
    DRIVER(SupportMultiPlaneOverlay),
    DRIVER(SupportRuntimePowerManagement),
    DRIVER(SupportSurpriseRemovalInHibernation),
    DRIVER(HybridDiscrete),
    DRIVER(MaxOverlayPlanes),
    DRIVER(HybridIntegrated),
    DRIVER(InternalGpuVirtualAddressRangeStart),
    DRIVER(InternalGpuVirtualAddressRangeEnd),
    DRIVER(SupportSurpriseRemoval),
    DRIVER(HybridAcpiChainingRequired),
    DRIVER(DetachableDevice),
    DRIVER(MaxHwQueuedFlips),
    VIDSCH(MultiEngineAware, 0, 1),
    VIDSCH(VSyncPowerSaveAware, 1, 1),
    VIDSCH(PreemptionAware, 2, 1),
    VIDSCH(NoDmaPatching, 3, 1),
    VIDSCH(CancelCommandAware, 4, 1),
    VIDSCH(No64BitAtomics, 5, 1),
    VIDSCH(LowIrqlPreemptCommand, 6, 1),
    VIDSCH(HwQueuePacketCap, 7, 4),
    VIDSCH(NativeGpuFence, 11, 1),
    VIDSCH(OptimizedNativeFenceSignaledInterrupt, 12, 1),
    BIT("DXGK_VIDSCHCAPS", Reserved, SchedulingCaps.Value, 13, 19, "reserved, must be 0"),
    VIDMM(OutOfOrderLock, 0, NULL),
    VIDMM(DedicatedPagingEngine, 1, "reserved, must be 0"),
    VIDMM(PagingEngineCanSwizzle, 2, "reserved, must be 0"),
    VIDMM(SectionBackedPrimary, 3, NULL),
    VIDMM(CrossAdapterResource, 4, NULL),
    VIDMM(VirtualAddressingSupported, 5, NULL),
    VIDMM(GpuMmuSupported, 6, NULL),
    VIDMM(IoMmuSupported, 7, NULL),
    VIDMM(ReplicateGdiContent, 8, "documentation only: the model has no GDI"),
    VIDMM(NonCpuVisiblePrimary, 9, NULL),
    VIDMM(ParavirtualizationSupported, 10, NULL),
    VIDMM(IoMmuSecureModeSupported, 11, NULL),
    VIDMM(DisableSelfRefreshVRAMInS3, 12, NULL),
    VIDMM(IoMmuSecureModeRequired, 13, NULL),
    VIDMM(MapAperture2Supported, 14, NULL),
    VIDMM(CrossAdapterResourceTexture, 15, NULL),
    VIDMM(CrossAdapterResourceScanout, 16, NULL),
    VIDMM(AlwaysPoweredVRAM, 17, NULL),
    BIT("DXGK_VIDMMCAPS", Reserved, MemoryManagementCaps.Value, 18, 14, "reserved, must be 0"),
    FIELD("DXGK_VIDMMCAPS.PagingNode", MemoryManagementCaps.PagingNode, NULL),
};

size_t wddm_caps_count(void)
{
    return sizeof fields / sizeof fields[0];
}

const struct wddm_cap_field *wddm_caps_at(size_t i)
{
    return i < wddm_caps_count() ? &fields[i] : NULL;
}

const struct wddm_cap_field *wddm_caps_find(const char *name)
{
    for (size_t i = 0; i < wddm_caps_count(); i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

UINT64 wddm_caps_get(const DXGK_DRIVERCAPS *caps, const struct wddm_cap_field *f)
{
    const BYTE *p = (const BYTE *)caps + f->offset;
    if (f->size == 0) {
        UINT word;
        memcpy(&word, p, sizeof word);
        return (word >> f->shift) & (UINT)((1ull << f->width) - 1);
    }
    UINT64 v = 0;
    memcpy(&v, p, f->size); /* little-endian: the low bytes */
    return v;
}

BOOL wddm_caps_set(DXGK_DRIVERCAPS *caps, const struct wddm_cap_field *f, UINT64 value)
{
    BYTE *p = (BYTE *)caps + f->offset;
    if (f->size == 0) {
        if (value >> f->width)
            return FALSE;
        UINT word, mask = (UINT)(((1ull << f->width) - 1) << f->shift);
        memcpy(&word, p, sizeof word);
        word = (word & ~mask) | ((UINT)value << f->shift);
        memcpy(p, &word, sizeof word);
        return TRUE;
    }
    if (f->size < 8 && value >> (8 * f->size))
        return FALSE;
    memcpy(p, &value, f->size);
    return TRUE;
}

void wddm_caps_print(FILE *out, const DXGK_DRIVERCAPS *caps)
{
    for (size_t i = 0; i < wddm_caps_count(); i++) {
        const struct wddm_cap_field *f = &fields[i];
        UINT64 v = wddm_caps_get(caps, f);
        /* Addresses, versions and masks read better in hex; counts and bits in decimal (a
         * one-bit cap is 0|1 even when its name says "Address": VirtualAddressingSupported). */
        if (f->width != 1 && (strstr(f->name, "Address") || strstr(f->name, "WDDMVersion")))
            fprintf(out, "%s = 0x%llx", f->name, (unsigned long long)v);
        else
            fprintf(out, "%s = %llu", f->name, (unsigned long long)v);
        if (f->note)
            fprintf(out, "  # %s", f->note);
        fputc('\n', out);
    }
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* A caps file is text: printable ASCII, tabs and line ends. Anything else (a NUL, other control
 * bytes, a binary file) is refused rather than guessed at. Bytes >= 0x80 are let through into
 * comments only: outside them no name or number contains one, so they fail as such. */
static bool text_byte(unsigned char c)
{
    return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c != 0x7f);
}

/* One "NAME = value" line (its comment already cut off) applied to *work. */
static bool apply_line(const char *name, unsigned n, char *s, DXGK_DRIVERCAPS *work, char *err, size_t err_size)
{
    s = trim(s);
    if (!*s)
        return true;
    char *eq = strchr(s, '=');
    if (!eq) {
        snprintf(err, err_size, "%s:%u: expected 'NAME = value', got '%.64s'", name, n, s);
        return false;
    }
    *eq = 0;
    char *key = trim(s), *val = trim(eq + 1), *end = NULL;
    const struct wddm_cap_field *fld = wddm_caps_find(key);
    if (!fld) {
        snprintf(err, err_size, "%s:%u: unknown capability '%.96s'", name, n, key);
        return false;
    }
    errno = 0;
    unsigned long long v = strtoull(val, &end, 0);
    if (!*val || *end || errno || val[0] == '-' || val[0] == '+') {
        snprintf(err, err_size, "%s:%u: %s: '%.32s' is not a number", name, n, key, val);
        return false;
    }
    if (!wddm_caps_set(work, fld, v)) {
        snprintf(err, err_size, "%s:%u: %s: %llu does not fit the field", name, n, key, v);
        return false;
    }
    return true;
}

BOOL wddm_caps_apply_text(const char *name, const char *text, size_t size, DXGK_DRIVERCAPS *caps, char *err,
                          size_t err_size)
{
    if (size > WDDM_CAPS_FILE_MAX) {
        snprintf(err, err_size, "%s: larger than %u bytes (a caps file is a short text file)", name,
                 WDDM_CAPS_FILE_MAX);
        return FALSE;
    }
    DXGK_DRIVERCAPS work = *caps; /* all or nothing */
    char line[WDDM_CAPS_LINE_MAX + 1];
    unsigned n = 0;
    size_t pos = 0;
    while (pos < size) {
        n++;
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - start) : size - pos;
        pos += len + (nl != NULL);
        for (size_t i = 0; i < len; i++)
            if (!text_byte((unsigned char)start[i])) {
                snprintf(err, err_size, "%s:%u: byte 0x%02x at column %zu: a caps file is text (no NUL, "
                         "no control or binary bytes)", name, n, (unsigned char)start[i], i + 1);
                return FALSE;
            }
        /* A comment may be of any length; the part before it must fit a line. */
        const char *hash = memchr(start, '#', len);
        size_t used = hash ? (size_t)(hash - start) : len;
        if (used > WDDM_CAPS_LINE_MAX) {
            snprintf(err, err_size, "%s:%u: longer than %u characters before any comment", name, n,
                     WDDM_CAPS_LINE_MAX);
            return FALSE;
        }
        memcpy(line, start, used);
        line[used] = 0;
        if (!apply_line(name, n, line, &work, err, err_size))
            return FALSE;
    }
    *caps = work;
    return TRUE;
}

BOOL wddm_caps_apply_file(const char *path, DXGK_DRIVERCAPS *caps, char *err, size_t err_size)
{
    errno = 0;
    /* O_NONBLOCK: opening a FIFO nobody writes to must not wait; it is then refused as not a
     * regular file, like a directory or a device (/dev/zero would never end). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return FALSE;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s: not a regular file (a caps file must be one)", path);
        close(fd);
        return FALSE;
    }
    if (st.st_size > WDDM_CAPS_FILE_MAX) {
        snprintf(err, err_size, "%s: larger than %u bytes (a caps file is a short text file)", path,
                 WDDM_CAPS_FILE_MAX);
        close(fd);
        return FALSE;
    }
    /* Read at most one byte more than fstat said: a file that changed meanwhile is caught. */
    size_t cap = (size_t)st.st_size + 1;
    char *buf = wddm_malloc(cap);
    if (!buf) {
        snprintf(err, err_size, "%s: out of memory reading it", path);
        close(fd);
        errno = ENOMEM;
        return FALSE;
    }
    size_t got = 0;
    BOOL ok = TRUE;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
            ok = FALSE;
            break;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    if (ok && got > (size_t)st.st_size) {
        snprintf(err, err_size, "%s: changed while it was read", path);
        ok = FALSE;
    }
    close(fd);
    if (ok)
        ok = wddm_caps_apply_text(path, buf, got, caps, err, err_size);
    free(buf);
    errno = ok ? 0 : EINVAL;
    return ok;
}
