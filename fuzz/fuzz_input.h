/* Decoding a fuzzer's input bytes into values (the harnesses fuzz/fuzz_*.c): a reader that
 * hands out the input from the front and zeros once it is used up, so every input decodes to
 * a bounded, well-defined sequence of calls. */
#ifndef WDDM_FUZZ_INPUT_H
#define WDDM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fz {
    const uint8_t *p;
    size_t left;
};

static inline void fz_init(struct fz *f, const uint8_t *data, size_t size)
{
    f->p = data;
    f->left = size;
}

static inline int fz_done(const struct fz *f) { return f->left == 0; }

/* Copies n bytes (zeros past the end). */
static inline void fz_bytes(struct fz *f, void *out, size_t n)
{
    size_t k = n < f->left ? n : f->left;
    if (k)
        memcpy(out, f->p, k);
    memset((uint8_t *)out + k, 0, n - k);
    f->p += k;
    f->left -= k;
}

static inline uint8_t fz_u8(struct fz *f)
{
    uint8_t v;
    fz_bytes(f, &v, 1);
    return v;
}

static inline uint16_t fz_u16(struct fz *f)
{
    uint16_t v;
    fz_bytes(f, &v, 2);
    return v;
}

static inline uint32_t fz_u32(struct fz *f)
{
    uint32_t v;
    fz_bytes(f, &v, 4);
    return v;
}

static inline uint64_t fz_u64(struct fz *f)
{
    uint64_t v;
    fz_bytes(f, &v, 8);
    return v;
}

/* A value in [0, n) (n > 0). */
static inline uint32_t fz_below(struct fz *f, uint32_t n) { return n ? fz_u8(f) % n : 0; }

/* A size mostly small, sometimes anything: one selector byte, then the value. */
static inline uint32_t fz_size(struct fz *f, uint32_t small_max)
{
    uint8_t sel = fz_u8(f);
    if (sel < 200)
        return small_max ? fz_u16(f) % (small_max + 1) : 0;
    if (sel < 240)
        return fz_u16(f);
    return fz_u32(f);
}

#endif /* WDDM_FUZZ_INPUT_H */
