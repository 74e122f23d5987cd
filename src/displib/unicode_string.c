/* Counted strings (include/wddm/wdm.h): UNICODE_STRING and ANSI_STRING, lengths in bytes without
 * the NUL, never written past MaximumLength (RtlAppendUnicodeStringToString reference: a result
 * that does not fit is STATUS_BUFFER_TOO_SMALL). A string whose Length exceeds MaximumLength, or
 * with a Length but no Buffer, is reported and taken as empty. */
#include "displib/wdk_shim.h"

#define STRING_TAG 0x67727453u /* "Strg" in memory order: buffers the conversions allocate */
#define MAX_COUNTED 0xFFFEu     /* the largest even USHORT */

static size_t wide_length(PCWSTR s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* The string's characters, or NULL (reported) when its fields contradict each other. */
static const WCHAR *chars_of(const char *who, PCUNICODE_STRING s, size_t *count)
{
    *count = 0;
    if (!s) {
        displib_report("%s: a UNICODE_STRING is NULL: taken as empty", who);
        return NULL;
    }
    if (s->Length > s->MaximumLength || (s->Length && !s->Buffer) || (s->Length & 1)) {
        displib_report("%s: UNICODE_STRING %p has Length %u, MaximumLength %u, Buffer %p: Length must be even, at "
                       "most MaximumLength, with a Buffer: taken as empty",
                       who, (const void *)s, (unsigned)s->Length, (unsigned)s->MaximumLength, (void *)s->Buffer);
        return NULL;
    }
    *count = s->Length / sizeof(WCHAR);
    return s->Buffer;
}

static int writable(const char *who, PUNICODE_STRING s)
{
    if (s && s->Length <= s->MaximumLength && (s->Buffer || !s->MaximumLength) && !(s->Length & 1))
        return 1;
    displib_report("%s: destination UNICODE_STRING %p is not a valid counted string: nothing written", who,
                   (void *)s);
    return 0;
}

VOID RtlInitUnicodeString(PUNICODE_STRING DestinationString, PCWSTR SourceString)
{
    DestinationString->Buffer = (PWSTR)SourceString;
    DestinationString->Length = DestinationString->MaximumLength = 0;
    if (!SourceString)
        return;
    size_t bytes = wide_length(SourceString) * sizeof(WCHAR);
    if (bytes > MAX_COUNTED - sizeof(WCHAR)) {
        displib_report("RtlInitUnicodeString: the source is %zu bytes, more than a UNICODE_STRING holds: cut at %u",
                       bytes, MAX_COUNTED - (unsigned)sizeof(WCHAR));
        bytes = MAX_COUNTED - sizeof(WCHAR);
    }
    DestinationString->Length = (USHORT)bytes;
    DestinationString->MaximumLength = (USHORT)(bytes + sizeof(WCHAR));
}

VOID RtlInitAnsiString(PANSI_STRING DestinationString, PCSZ SourceString)
{
    DestinationString->Buffer = (PCHAR)SourceString;
    DestinationString->Length = DestinationString->MaximumLength = 0;
    if (!SourceString)
        return;
    size_t bytes = strlen(SourceString);
    if (bytes > 0xFFFEu) {
        displib_report("RtlInitAnsiString: the source is %zu bytes, more than an ANSI_STRING holds: cut at 65534",
                       bytes);
        bytes = 0xFFFEu;
    }
    DestinationString->Length = (USHORT)bytes;
    DestinationString->MaximumLength = (USHORT)(bytes + 1);
}

VOID RtlInitString(PSTRING DestinationString, PCSZ SourceString)
{
    RtlInitAnsiString(DestinationString, SourceString);
}

/* Writes count characters after Destination's Length and a NUL if it fits: the caller checked
 * that the characters fit. */
static void put(PUNICODE_STRING d, const WCHAR *src, size_t count)
{
    if (count)
        memmove((char *)d->Buffer + d->Length, src, count * sizeof(WCHAR));
    d->Length = (USHORT)(d->Length + count * sizeof(WCHAR));
    if (d->Length + sizeof(WCHAR) <= d->MaximumLength)
        d->Buffer[d->Length / sizeof(WCHAR)] = 0;
}

VOID RtlCopyUnicodeString(PUNICODE_STRING DestinationString, PCUNICODE_STRING SourceString)
{
    if (!writable("RtlCopyUnicodeString", DestinationString))
        return;
    size_t count = 0;
    const WCHAR *src = SourceString ? chars_of("RtlCopyUnicodeString", SourceString, &count) : NULL;
    size_t room = DestinationString->MaximumLength / sizeof(WCHAR);
    DestinationString->Length = 0;
    put(DestinationString, src, count < room ? count : room); /* cut to the buffer, as Windows does */
}

static NTSTATUS append(const char *who, PUNICODE_STRING d, const WCHAR *src, size_t count)
{
    if (!writable(who, d))
        return STATUS_INVALID_PARAMETER;
    if (d->Length + count * sizeof(WCHAR) > d->MaximumLength)
        return STATUS_BUFFER_TOO_SMALL;
    put(d, src, count);
    return STATUS_SUCCESS;
}

NTSTATUS RtlAppendUnicodeStringToString(PUNICODE_STRING Destination, PCUNICODE_STRING Source)
{
    size_t count;
    const WCHAR *src = chars_of("RtlAppendUnicodeStringToString", Source, &count);
    return append("RtlAppendUnicodeStringToString", Destination, src, count);
}

NTSTATUS RtlAppendUnicodeToString(PUNICODE_STRING Destination, PCWSTR Source)
{
    return append("RtlAppendUnicodeToString", Destination, Source, Source ? wide_length(Source) : 0);
}

WCHAR RtlUpcaseUnicodeChar(WCHAR c)
{
    if (c >= 'a' && c <= 'z')
        return (WCHAR)(c - 0x20);
    if (c < 0xE0)
        return c;
    if (c <= 0xFE)
        return c == 0xF7 ? c : (WCHAR)(c - 0x20); /* Latin-1, not the division sign */
    if (c == 0xFF)
        return 0x178;
    if (c >= 0x100 && c <= 0x17F) /* Latin Extended-A: mostly upper/lower pairs */
        return (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E) ? ((c & 1) ? c : (WCHAR)(c - 1))
               : c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F ? c
               : (c & 1) ? (WCHAR)(c - 1)
                         : c;
    if (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) /* Greek */
        return (WCHAR)(c - 0x20);
    if (c >= 0x430 && c <= 0x44F) /* Cyrillic */
        return (WCHAR)(c - 0x20);
    if (c >= 0x450 && c <= 0x45F)
        return (WCHAR)(c - 0x50);
    return c;
}

static LONG compare(const char *who, PCUNICODE_STRING a, PCUNICODE_STRING b, BOOLEAN fold, int *comparable)
{
    size_t na, nb;
    const WCHAR *x = chars_of(who, a, &na), *y = chars_of(who, b, &nb);
    *comparable = (x || !a || !a->Length) && (y || !b || !b->Length) && a && b;
    for (size_t i = 0; i < na && i < nb; i++) {
        WCHAR p = fold ? RtlUpcaseUnicodeChar(x[i]) : x[i], q = fold ? RtlUpcaseUnicodeChar(y[i]) : y[i];
        if (p != q)
            return (LONG)p - (LONG)q;
    }
    return (LONG)na - (LONG)nb;
}

BOOLEAN RtlEqualUnicodeString(PCUNICODE_STRING String1, PCUNICODE_STRING String2, BOOLEAN CaseInSensitive)
{
    int comparable;
    LONG order = compare("RtlEqualUnicodeString", String1, String2, CaseInSensitive, &comparable);
    return comparable && order == 0;
}

LONG RtlCompareUnicodeString(PCUNICODE_STRING String1, PCUNICODE_STRING String2, BOOLEAN CaseInSensitive)
{
    int comparable;
    return compare("RtlCompareUnicodeString", String1, String2, CaseInSensitive, &comparable);
}

/* The conversions' buffers: paged pool, PASSIVE_LEVEL (RtlUnicodeStringToAnsiString reference). */
static void *string_buffer(const char *who, size_t bytes)
{
    KIRQL level = KeGetCurrentIrql();
    if (level > PASSIVE_LEVEL) {
        char irql[16];
        displib_report("%s: called at %s: allocating conversions run at PASSIVE_LEVEL: no buffer", who,
                       displib_irql_name(level, irql));
        return NULL;
    }
    return displib_pool_allocate(who, 1, bytes, STRING_TAG);
}

NTSTATUS RtlUnicodeStringToAnsiString(PANSI_STRING DestinationString, PCUNICODE_STRING SourceString,
                                      BOOLEAN AllocateDestinationString)
{
    static const char who[] = "RtlUnicodeStringToAnsiString";
    size_t count;
    const WCHAR *src = chars_of(who, SourceString, &count);
    if (!DestinationString)
        return STATUS_INVALID_PARAMETER;
    if (count + 1 > 0xFFFFu)
        return STATUS_INVALID_PARAMETER_2;
    char *out;
    if (AllocateDestinationString) {
        out = string_buffer(who, count + 1);
        if (!out)
            return STATUS_NO_MEMORY;
        DestinationString->Buffer = out;
        DestinationString->MaximumLength = (USHORT)(count + 1);
    } else {
        if (count >= DestinationString->MaximumLength || !DestinationString->Buffer)
            return STATUS_BUFFER_OVERFLOW; /* the result with its NUL does not fit: nothing written */
        out = DestinationString->Buffer;
    }
    for (size_t i = 0; i < count; i++)
        out[i] = src[i] <= 0xFF ? (char)src[i] : '?';
    out[count] = 0;
    DestinationString->Length = (USHORT)count;
    return STATUS_SUCCESS;
}

NTSTATUS RtlAnsiStringToUnicodeString(PUNICODE_STRING DestinationString, PCANSI_STRING SourceString,
                                      BOOLEAN AllocateDestinationString)
{
    static const char who[] = "RtlAnsiStringToUnicodeString";
    if (!DestinationString || !SourceString || SourceString->Length > SourceString->MaximumLength ||
        (SourceString->Length && !SourceString->Buffer)) {
        displib_report("%s: a string is NULL or not a valid counted string: nothing converted", who);
        return STATUS_INVALID_PARAMETER;
    }
    size_t count = SourceString->Length, bytes = (count + 1) * sizeof(WCHAR);
    if (bytes > MAX_COUNTED)
        return STATUS_INVALID_PARAMETER_2;
    WCHAR *out;
    if (AllocateDestinationString) {
        out = string_buffer(who, bytes);
        if (!out)
            return STATUS_NO_MEMORY;
        DestinationString->Buffer = out;
        DestinationString->MaximumLength = (USHORT)bytes;
    } else {
        if (bytes > DestinationString->MaximumLength || !DestinationString->Buffer)
            return STATUS_BUFFER_OVERFLOW;
        out = DestinationString->Buffer;
    }
    for (size_t i = 0; i < count; i++)
        out[i] = (unsigned char)SourceString->Buffer[i]; /* ISO 8859-1: each byte is its code point */
    out[count] = 0;
    DestinationString->Length = (USHORT)(count * sizeof(WCHAR));
    return STATUS_SUCCESS;
}

static void free_buffer(const char *who, void *buffer)
{
    if (!buffer)
        return;
    if (displib_pool_tag_of(buffer) != STRING_TAG) {
        displib_report("%s: buffer %p was not allocated by a conversion (or is freed already): not freed", who,
                       buffer);
        return;
    }
    ExFreePoolWithTag(buffer, STRING_TAG);
}

VOID RtlFreeAnsiString(PANSI_STRING AnsiString)
{
    free_buffer("RtlFreeAnsiString", AnsiString->Buffer);
    AnsiString->Buffer = NULL;
    AnsiString->Length = AnsiString->MaximumLength = 0;
}

VOID RtlFreeUnicodeString(PUNICODE_STRING UnicodeString)
{
    free_buffer("RtlFreeUnicodeString", UnicodeString->Buffer);
    UnicodeString->Buffer = NULL;
    UnicodeString->Length = UnicodeString->MaximumLength = 0;
}
