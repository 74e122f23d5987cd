/* GPU commands of the reference UMD: copies, updates, clears, and the command buffer they go
 * into (src/gpu/swgpu_isa.h; WDDM 1.x allocation + patch-location lists, docs/semantics.md §4.4,
 * §8.1, §9.1). The fake "kernel" executes every submitted buffer after checking that it is
 * well-formed, so these tests check both the format and the result. */
/* rule: umd.copies-updates-clears-flush-real-dma (fake kernel executes every buffer) */
#include "umd/umd_fake.h"
#include "umd/umd.h"


static struct fake_res *tex_with_data(struct fake *f, D3D10DDIRESOURCE_TYPE dim, DXGI_FORMAT fmt, UINT w, UINT h,
                                      UINT d, UINT mips, const void *data, UINT pitch, UINT slice_pitch)
{
    struct fake_res *r = fake_res_new(dim, D3D10_DDI_USAGE_DEFAULT, fmt, w, h, d, mips, 1, 0);
    D3D10_DDIARG_SUBRESOURCE_UP up[16] = { { data, pitch, slice_pitch } };
    assert_true(fake_res_create(f, r, data ? up : NULL));
    return r;
}

/* ResourceCopyRegion: box in texels, destination point in texels, both 256-pitched. */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_box_is_in_texels(void **state)
{
    struct fake *f = fake_setup();
    UINT src[8][8];
    for (UINT y = 0; y < 8; y++)
        for (UINT x = 0; x < 8; x++)
            src[y][x] = y * 16 + x;
    struct fake_res *s = tex_with_data(f, D3D10DDIRESOURCE_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, src,
                                       32, 256);
    struct fake_res *d = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1,
                                    D3D10_DDI_CPU_ACCESS_READ);
    D3D10_DDI_BOX box = { .left = 2, .top = 3, .front = 0, .right = 5, .bottom = 7, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 1, 1, 0, s->h, 0, &box);
    fake_flush(f);
    UINT *out = (UINT *)fake_mem(f, d)->mem;
    for (UINT y = 0; y < 8; y++)
        for (UINT x = 0; x < 8; x++) {
            BOOL in = x >= 1 && x < 4 && y >= 1 && y < 5;
            assert_int_equal(out[y * 64 + x], in ? src[y + 2][x + 1] : 0);
        }
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* NULL box = the whole source subresource (here mip 1). */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_null_box_copies_whole_subresource(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *s = fake_res_new(D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8_UNORM, 8, 8,
                                      1, 2, 1, 0);
    BYTE m0[64], m1[16];
    memset(m0, 0x11, sizeof m0);
    for (int i = 0; i < 16; i++)
        m1[i] = (BYTE)(0x80 + i);
    D3D10_DDIARG_SUBRESOURCE_UP up[2] = { { m0, 8, 64 }, { m1, 4, 16 } };
    assert_true(fake_res_create(f, s, up));
    struct fake_res *d = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R8_UNORM, 4, 4, 1, 1,
                                    D3D10_DDI_CPU_ACCESS_READ);
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 0, 0, 0, s->h, 1, NULL);
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnStagingResourceMap(f->hDevice, d->h, 0, D3D10_DDI_MAP_READ, 0, &m);
    for (int y = 0; y < 4; y++)
        assert_memory_equal((BYTE *)m.pData + y * m.RowPitch, m1 + 4 * y, 4);
    f->df.pfnStagingResourceUnmap(f->hDevice, d->h, 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* BC formats: texel boxes become 4x4-block boxes (8 bytes per BC1 block). */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_bc_box_is_converted_to_blocks(void **state)
{
    struct fake *f = fake_setup();
    UINT64 blocks[4][4]; /* 16x16 texels = 4x4 blocks */
    for (UINT y = 0; y < 4; y++)
        for (UINT x = 0; x < 4; x++)
            blocks[y][x] = 0x1000 + y * 4 + x;
    struct fake_res *s = tex_with_data(f, D3D10DDIRESOURCE_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1, blocks,
                                       32, 128);
    struct fake_res *d = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1,
                                    D3D10_DDI_CPU_ACCESS_READ);
    D3D10_DDI_BOX box = { .left = 4, .top = 4, .front = 0, .right = 12, .bottom = 8, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 0, 8, 0, s->h, 0, &box);
    fake_flush(f);
    UINT64 *out = (UINT64 *)fake_mem(f, d)->mem; /* row pitch 256 = 32 UINT64 */
    assert_int_equal(out[2 * 32 + 0], blocks[1][1]);
    assert_int_equal(out[2 * 32 + 1], blocks[1][2]);
    assert_int_equal(out[2 * 32 + 2], 0);
    assert_int_equal(out[1 * 32 + 0], 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* Buffers: the box is in bytes. */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_buffer_box_is_in_bytes(void **state)
{
    struct fake *f = fake_setup();
    BYTE data[100];
    for (int i = 0; i < 100; i++)
        data[i] = (BYTE)i;
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 100, 0, data);
    struct fake_res *d = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 100, D3D10_DDI_CPU_ACCESS_READ, NULL);
    D3D10_DDI_BOX box = { .left = 10, .top = 0, .front = 0, .right = 30, .bottom = 1, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 50, 0, 0, s->h, 0, &box);
    fake_flush(f);
    BYTE *out = fake_mem(f, d)->mem;
    assert_memory_equal(out + 50, data + 10, 20);
    assert_int_equal(out[49], 0);
    assert_int_equal(out[70], 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* 3-D boxes: front/back select depth slices, DstZ the first destination slice. */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_3d_box_copies_depth_slices(void **state)
{
    struct fake *f = fake_setup();
    BYTE vol[4][4][4];
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++)
                vol[z][y][x] = (BYTE)(z * 64 + y * 4 + x);
    struct fake_res *s = tex_with_data(f, D3D10DDIRESOURCE_TEXTURE3D, DXGI_FORMAT_R8_UNORM, 4, 4, 4, 1, vol, 4, 16);
    struct fake_res *d = fake_res_new(D3D10DDIRESOURCE_TEXTURE3D, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R8_UNORM, 4, 4,
                                      4, 1, 1, D3D10_DDI_CPU_ACCESS_READ);
    assert_true(fake_res_create(f, d, NULL));
    D3D10_DDI_BOX box = { .left = 1, .top = 1, .front = 1, .right = 3, .bottom = 3, .back = 3 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 0, 0, 2, s->h, 0, &box);
    fake_flush(f);
    BYTE *out = fake_mem(f, d)->mem; /* row pitch 256, depth pitch 1024 */
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
                assert_int_equal(out[(z + 2) * 1024 + y * 256 + x], vol[z + 1][y + 1][x + 1]);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[2 * 1024 + 2], 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* An empty box (left >= right ...) is a no-op: nothing is queued. */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void test_copy_region_empty_box_is_a_noop(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *d = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    D3D10_DDI_BOX box = { .left = 5, .top = 0, .front = 0, .right = 5, .bottom = 1, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 0, 0, 0, s->h, 0, &box);
    fake_flush(f);
    assert_int_equal(f->render_calls, 0);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* ResourceCopy copies every subresource (mips and slices). */
/* rule: umd.resourcecopy-copies-every-subresource */
static void test_copy_resource_copies_every_subresource(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *s = fake_res_new(D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R16_UINT, 5, 3,
                                      1, 2, 2, 0);
    UINT16 d0[15], d1[2];
    for (int i = 0; i < 15; i++)
        d0[i] = (UINT16)(1000 + i);
    d1[0] = 7;
    d1[1] = 9;
    D3D10_DDIARG_SUBRESOURCE_UP up[4] = { { d0, 10, 30 }, { d1, 4, 4 }, { d0, 10, 30 }, { d1, 4, 4 } };
    assert_true(fake_res_create(f, s, up));
    struct fake_res *d = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R16_UINT, 5, 3, 2, 2,
                                    D3D10_DDI_CPU_ACCESS_READ);
    f->df.pfnResourceCopy(f->hDevice, d->h, s->h);
    fake_flush(f);
    assert_memory_equal(fake_mem(f, d)->mem, fake_mem(f, s)->mem, fake_mem(f, s)->size);
    BYTE *out = fake_mem(f, d)->mem;
    assert_memory_equal(out + 256, d0 + 5, 10);       /* row 1 of mip 0 */
    assert_memory_equal(out + 1024 + 768, d1, 4);     /* slice 1 (stride 1024), mip 1 */
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* UpdateSubresourceUP: the box in texels, the application's row pitch; buffers in bytes. */
/* rule: umd.updatesubresourceup-box-texels-blocks */
static void test_update_subresource_writes_box_with_application_pitch(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, 0);
    UINT data[2][10]; /* pitch 40 bytes, 3 texels used */
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 10; x++)
            data[y][x] = 0xA0000000u + y * 16 + x;
    D3D10_DDI_BOX box = { .left = 4, .top = 5, .front = 0, .right = 7, .bottom = 7, .back = 1 };
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, t->h, 0, &box, data, sizeof data[0], sizeof data);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, D3D10_DDI_BIND_CONSTANT_BUFFER, NULL);
    BYTE cb[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    D3D10_DDI_BOX bbox = { .left = 16, .top = 0, .front = 0, .right = 32, .bottom = 1, .back = 1 };
    f->df.pfnDefaultConstantBufferUpdateSubresourceUP(f->hDevice, b->h, 0, &bbox, cb, 0, 0);
    fake_flush(f);
    UINT *out = (UINT *)fake_mem(f, t)->mem;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            BOOL in = x >= 4 && x < 7 && y >= 5 && y < 7;
            assert_int_equal(out[y * 64 + x], in ? data[y - 5][x - 4] : 0);
        }
    assert_memory_equal(fake_mem(f, b)->mem + 16, cb, 16);
    assert_int_equal(fake_mem(f, b)->mem[15], 0);
    fake_res_destroy(f, t);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

/* UpdateSubresourceUP on a BC format: the texel box becomes a block box; the application's
 * row pitch is per row of blocks. */
/* rule: umd.updatesubresourceup-box-texels-blocks */
static void test_update_subresource_bc_box_is_in_blocks(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_BC3_UNORM, 16, 16, 1, 1, 0);
    BYTE blocks[2][2][16]; /* 2x2 blocks of 16 bytes, row pitch 32 */
    for (int i = 0; i < 64; i++)
        ((BYTE *)blocks)[i] = (BYTE)(i + 1);
    D3D10_DDI_BOX box = { .left = 8, .top = 4, .front = 0, .right = 16, .bottom = 12, .back = 1 };
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, t->h, 0, &box, blocks, 32, 64);
    fake_flush(f);
    BYTE *mem = fake_mem(f, t)->mem; /* 4 blocks * 16 = 64 bytes per row -> pitch 256 */
    assert_memory_equal(mem + 1 * 256 + 2 * 16, blocks[0], 32);
    assert_memory_equal(mem + 2 * 256 + 2 * 16, blocks[1], 32);
    assert_int_equal(mem[1 * 256 + 2 * 16 - 1], 0);
    assert_int_equal(mem[0], 0);
    fake_res_destroy(f, t);
    fake_teardown(f);
}

/* Large inline data is split across several WRITE commands and command buffers (a 4 KiB
 * command buffer here): a 40000-byte buffer (one row) and a texture whose rows exceed it. */
/* rule: umd.updatesubresourceup-box-texels-blocks */
static void test_update_larger_than_command_buffer_is_split(void **state)
{
    struct fake *f = fake_setup_sized(4096, 8, 8);
    static BYTE big[40000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (BYTE)(i * 31 + 7);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, sizeof big, 0, NULL);
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, big, 0, 0);
    fake_flush(f);
    assert_true(f->render_calls >= 10);
    assert_memory_equal(fake_mem(f, b)->mem, big, sizeof big);

    /* 1200x8 R32_FLOAT: 4800-byte rows, wider than the whole command buffer */
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R32_FLOAT, 1200, 8, 1, 1, 0);
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, t->h, 0, NULL, big, 4800, 4800 * 8);
    fake_flush(f);
    BYTE *out = fake_mem(f, t)->mem;
    for (int y = 0; y < 8; y++)
        assert_memory_equal(out + (size_t)y * 4864, big + (size_t)y * 4800, 4800); /* align(4800, 256) */
    assert_int_equal(f->n_errors, 0);
    fake_res_destroy(f, b);
    fake_res_destroy(f, t);
    fake_teardown(f);
}

/* Issue 17 aim 3 (docs/rules/umd.md): from UMD_UPDATE_UPLOAD_MIN bytes an update goes through the
 * upload buffer, a piece of at most UMD_UPLOAD_BYTES at a time (each a Discard map of it and a
 * COPY), not inline: a 2.5 MiB buffer (one row: pieces of a row), a texture whose application
 * pitch is wider than its rows (pieces of whole rows), a 3-D box (pieces of whole slices). Each
 * piece gets a fresh instance while the previous one's COPY is queued. */
/* rule: umd.updatesubresource-least-64-kib-goes (buffer row pieces, texture row pieces with a wider application pitch, a 3-D box; mutated: threshold never reached) */
static void test_large_update_goes_through_the_upload_buffer(void **state)
{
    struct fake *f = fake_setup();
    f->rename_on_discard = 1;
    struct umd_device *dev = f->hDevice.pDrvPrivate;
    const size_t n = UMD_UPLOAD_BYTES * 5 / 2, held = 4100 * 700; /* the buffer; the texture below */
    BYTE *big = malloc(held > n ? held : n);
    for (size_t i = 0; i < (held > n ? held : n); i++)
        big[i] = (BYTE)(i * 131 + (i >> 11));
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, (UINT)n, 0, NULL);
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, big, 0, 0);
    memset(big, 0xEE, 4096); /* the data was taken at the call */
    fake_flush(f);
    assert_int_equal(dev->uploads, 3);
    assert_int_equal(f->bytes_written_inline, 0);
    for (size_t i = 0; i < 4096; i++)
        big[i] = (BYTE)(i * 131 + (i >> 11));
    assert_memory_equal(fake_mem(f, b)->mem, big, n);

    /* 1000x700 R32: 4000-byte rows from an application pitch of 4100 (262 rows per piece). */
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R32_FLOAT, 1000, 700, 1, 1, 0);
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, t->h, 0, NULL, big, 4100, 4100 * 700);
    fake_flush(f);
    assert_int_equal(dev->uploads, 3 + 3);
    BYTE *out = fake_mem(f, t)->mem;
    for (size_t y = 0; y < 700; y++)
        assert_memory_equal(out + y * 4096, big + y * 4100, 4000); /* align(4000, 256) */

    /* A 3-D box of 256x16x40 RGBA8 (16 KiB slices, 64 per piece) at (8, 4, 3). */
    struct fake_res *v = fake_res_new(D3D10DDIRESOURCE_TEXTURE3D, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8G8B8A8_UNORM,
                                      300, 32, 48, 1, 1, 0);
    assert_true(fake_res_create(f, v, NULL));
    D3D10_DDI_BOX box = { .left = 8, .top = 4, .front = 3, .right = 264, .bottom = 20, .back = 43 };
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, v->h, 0, &box, big, 1024, 1024 * 16);
    fake_flush(f);
    assert_int_equal(dev->uploads, 3 + 3 + 1);
    out = fake_mem(f, v)->mem;
    const UINT rp = 1280, sp = rp * 32; /* align(1200, 256) */
    for (size_t z = 0; z < 40; z++)
        for (size_t y = 0; y < 16; y++)
            assert_memory_equal(out + (z + 3) * sp + (y + 4) * rp + 8 * 4, big + z * 1024 * 16 + y * 1024, 1024);
    assert_int_equal(f->n_errors, 0);
    free(big);
    fake_res_destroy(f, b);
    fake_res_destroy(f, t);
    fake_res_destroy(f, v);
    fake_teardown(f);
}

/* When the upload buffer cannot be mapped or unlocked, the update still arrives: inline, no error
 * reported. */
/* rule: umd.when-upload-buffer-cannot-made-mapped */
static void test_large_update_goes_inline_when_the_upload_buffer_cannot_be_mapped(void **state)
{
    struct fake *f = fake_setup();
    struct umd_device *dev = f->hDevice.pDrvPrivate;
    const size_t n = UMD_UPDATE_UPLOAD_MIN * 2;
    BYTE *big = malloc(n);
    for (size_t i = 0; i < n; i++)
        big[i] = (BYTE)(i * 7 + 1);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, (UINT)n, 0, NULL);
    f->lock_result = E_OUTOFMEMORY;
    f->lock_fail_count = -1;
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, big, 0, 0);
    fake_flush(f);
    f->lock_result = S_OK;
    assert_int_equal(dev->uploads, 0);
    assert_int_equal(f->bytes_written_inline, n);
    assert_memory_equal(fake_mem(f, b)->mem, big, n);
    /* Mapped, but the unlock fails: the bytes written there are sent again, inline. */
    for (size_t i = 0; i < n; i++)
        big[i] = (BYTE)(i * 5 + 2);
    f->unlock_result = E_FAIL;
    f->df.pfnResourceUpdateSubresourceUP(f->hDevice, b->h, 0, NULL, big, 0, 0);
    f->unlock_result = S_OK;
    fake_flush(f);
    assert_int_equal(dev->uploads, 0);
    assert_int_equal(f->bytes_written_inline, 2 * n);
    assert_memory_equal(fake_mem(f, b)->mem, big, n);
    assert_int_equal(f->n_errors, 0);
    free(big);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

/* ---- clears -------------------------------------------------------------------------------- */
static void clear_and_read(struct fake *f, DXGI_FORMAT fmt, const FLOAT rgba[4], BYTE *out, UINT n)
{
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, fmt, 2, 2, 1, 1, 0);
    D3D10DDIARG_CREATERENDERTARGETVIEW rv = { .hDrvResource = t->h, .Format = fmt,
                                             .ResourceDimension = D3D10DDIRESOURCE_TEXTURE2D,
                                             .Tex2D = { .MipSlice = 0, .FirstArraySlice = 0, .ArraySize = 1 } };
    D3D10DDI_HRENDERTARGETVIEW hv = { calloc(1, f->df.pfnCalcPrivateRenderTargetViewSize(f->hDevice, &rv)) };
    D3D10DDI_HRTRENDERTARGETVIEW rt = { hv.pDrvPrivate };
    f->df.pfnCreateRenderTargetView(f->hDevice, &rv, hv, rt);
    FLOAT c[4] = { rgba[0], rgba[1], rgba[2], rgba[3] };
    f->df.pfnClearRenderTargetView(f->hDevice, hv, c);
    fake_flush(f);
    BYTE *mem = fake_mem(f, t)->mem;
    memcpy(out, mem, n);
    /* both texels of both rows carry it */
    assert_memory_equal(mem + n, mem, n);
    assert_memory_equal(mem + 256 + n, mem, n);
    f->df.pfnDestroyRenderTargetView(f->hDevice, hv);
    free(hv.pDrvPrivate);
    fake_res_destroy(f, t);
}

/* ClearRenderTargetView converts the colour to the view format: UNORM round + clamp, sRGB,
 * SNORM, UINT, SINT, FLOAT 32/16/11/10, BGRA order, packed 16-bit. */
/* rule: umd.clearrendertargetview-converts-colour */
static void test_clear_converts_color_to_view_format(void **state)
{
    struct fake *f = fake_setup();
    BYTE b[16];
    FLOAT c1[4] = { 0.5f, 1.5f, -0.2f, 1.0f };
    clear_and_read(f, DXGI_FORMAT_R8G8B8A8_UNORM, c1, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 128, 255, 0, 255 }), 4);
    clear_and_read(f, DXGI_FORMAT_B8G8R8A8_UNORM, c1, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 0, 255, 128, 255 }), 4);
    FLOAT c2[4] = { 0.5f, 0.0f, 1.0f, 0.5f };
    clear_and_read(f, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, c2, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 188, 0, 255, 128 }), 4); /* alpha stays linear */
    FLOAT c3[4] = { -1.0f, 1.0f, 0.5f, -0.5f };
    clear_and_read(f, DXGI_FORMAT_R8G8B8A8_SNORM, c3, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 0x81, 0x7F, 64, (BYTE)-64 }), 4);
    FLOAT c4[4] = { 3.7f, 300.0f, -1.0f, 0.0f };
    clear_and_read(f, DXGI_FORMAT_R8G8B8A8_UINT, c4, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 3, 255, 0, 0 }), 4);
    FLOAT c5[4] = { -2.5f, 200.0f, -200.0f, 7.0f };
    clear_and_read(f, DXGI_FORMAT_R8G8B8A8_SINT, c5, b, 4);
    assert_memory_equal(b, ((BYTE[]){ (BYTE)-2, 127, (BYTE)-128, 7 }), 4);
    FLOAT c6[4] = { 1.25f, -2.0f, 0.0f, 1.0f };
    clear_and_read(f, DXGI_FORMAT_R32G32B32A32_FLOAT, c6, b, 16);
    assert_memory_equal(b, c6, 16);
    clear_and_read(f, DXGI_FORMAT_R32_FLOAT, c6, b, 4);
    assert_memory_equal(b, c6, 4);
    clear_and_read(f, DXGI_FORMAT_R16G16_FLOAT, c6, b, 4);
    assert_memory_equal(b, ((BYTE[]){ 0x00, 0x3D, 0x00, 0xC0 }), 4); /* 1.25 = 0x3D00, -2 = 0xC000 */
    FLOAT c7[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
    clear_and_read(f, DXGI_FORMAT_R11G11B10_FLOAT, c7, b, 4);
    UINT v;
    memcpy(&v, b, 4);
    assert_int_equal(v, 0x3C0u | (0x3C0u << 11) | (0x1E0u << 22)); /* 1.0: exponent 15 */
    FLOAT c8[4] = { 1.0f, 0.0f, 1.0f, 1.0f };
    clear_and_read(f, DXGI_FORMAT_B5G6R5_UNORM, c8, b, 2);
    assert_memory_equal(b, ((BYTE[]){ 0x1F, 0xF8 }), 2); /* B in bits 0-4, R in 11-15 */
    clear_and_read(f, DXGI_FORMAT_R16_UNORM, c2, b, 2);
    assert_memory_equal(b, ((BYTE[]){ 0x00, 0x80 }), 2); /* 0.5 * 65535 + 0.5 = 32768 */
    assert_int_equal(f->n_errors, 0);
    fake_teardown(f);
}

/* The clear covers exactly the view's subresources: mip 1 of array slices 1..2. */
/* rule: umd.clearrendertargetview-converts-colour */
static void test_clear_fills_only_the_views_subresources(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *t = fake_tex2d(f, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8_UNORM, 4, 4, 2, 3, 0);
    D3D10DDIARG_CREATERENDERTARGETVIEW rv = { .hDrvResource = t->h, .Format = DXGI_FORMAT_R8_UNORM,
                                             .ResourceDimension = D3D10DDIRESOURCE_TEXTURE2D,
                                             .Tex2D = { .MipSlice = 1, .FirstArraySlice = 1, .ArraySize = 2 } };
    struct umd_rtv view;
    D3D10DDI_HRENDERTARGETVIEW hv = { &view };
    f->df.pfnCreateRenderTargetView(f->hDevice, &rv, hv, (D3D10DDI_HRTRENDERTARGETVIEW){ &view });
    FLOAT c[4] = { 1, 1, 1, 1 };
    f->df.pfnClearRenderTargetView(f->hDevice, hv, c);
    fake_flush(f);
    BYTE *mem = fake_mem(f, t)->mem;
    /* per slice: mip 0 = 4 rows * 256, mip 1 = 2 rows * 256: slice stride 1536 */
    for (UINT s = 0; s < 3; s++)
        for (UINT mip = 0; mip < 2; mip++) {
            BYTE *sub = mem + s * 1536 + (mip ? 1024 : 0);
            BYTE expect = (mip == 1 && s >= 1) ? 255 : 0;
            assert_int_equal(sub[0], expect);
            assert_int_equal(sub[256 + 1], expect);
            assert_int_equal(sub[2], 0); /* beyond the 2-texel row */
        }
    fake_res_destroy(f, t);
    fake_teardown(f);
}

/* ---- the command buffer --------------------------------------------------------------------- */
/* Every address field gets a patch entry: PatchOffset = the field's offset in the buffer,
 * AllocationOffset = the offset inside the allocation, 0 in the field itself; the
 * destination's allocation-list entry has WriteOperation, the source's not. */
/* rule: umd.every-address-field-exactly-one-patch (and the fake executor's pass 1 in `tests/umd/umd_fake.h` for every buffer) */
/* rule: kmd.every-address-field-user-command-buffer */
static void test_cmdbuf_patch_entries_point_at_address_fields(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *s = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 512, 0, NULL);
    struct fake_res *d = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 512, 0, NULL);
    D3D10_DDI_BOX box = { .left = 100, .top = 0, .front = 0, .right = 200, .bottom = 1, .back = 1 };
    f->df.pfnResourceCopyRegion(f->hDevice, d->h, 0, 300, 0, 0, s->h, 0, &box);
    fake_flush(f);
    assert_int_equal(f->last_cmd_length, sizeof(struct swgpu_cmd_copy));
    assert_int_equal(f->last_num_allocs, 2);
    assert_int_equal(f->last_num_patches, 2);
    const struct swgpu_cmd_copy *c = (const void *)f->last_cmd;
    assert_int_equal(c->hdr.opcode, SWGPU_OP_COPY);
    assert_int_equal(c->row_bytes, 100);
    assert_int_equal(f->last_plist[0].PatchOffset, offsetof(struct swgpu_cmd_copy, dst.addr));
    assert_int_equal(f->last_plist[0].AllocationOffset, 300);
    assert_int_equal(f->last_plist[1].PatchOffset, offsetof(struct swgpu_cmd_copy, src.addr));
    assert_int_equal(f->last_plist[1].AllocationOffset, 100);
    assert_int_equal(f->last_alist[f->last_plist[0].AllocationIndex].WriteOperation, 1);
    assert_int_equal(f->last_alist[f->last_plist[1].AllocationIndex].WriteOperation, 0);
    assert_int_equal(f->last_alist[f->last_plist[0].AllocationIndex].hAllocation, (UINT)(fake_mem(f, d) - f->allocs) + 1);
    fake_res_destroy(f, s);
    fake_res_destroy(f, d);
    fake_teardown(f);
}

/* One allocation-list entry per allocation per command buffer, WriteOperation if any command
 * writes it (docs/semantics.md §9.1). */
/* rule: umd.one-allocation-list-entry-allocation */
static void test_cmdbuf_allocation_list_is_deduplicated(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    for (int i = 0; i < 10; i++)
        f->df.pfnResourceCopy(f->hDevice, i & 1 ? a->h : b->h, i & 1 ? b->h : a->h);
    fake_flush(f);
    assert_int_equal(f->render_calls, 1);
    assert_int_equal(f->last_num_allocs, 2);
    assert_int_equal(f->last_num_patches, 20);
    assert_int_equal(f->last_alist[0].WriteOperation, 1);
    assert_int_equal(f->last_alist[1].WriteOperation, 1);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

/* A full allocation or patch list (or command buffer) flushes and continues in the new
 * buffers the kernel returned. */
/* rule: umd.full-command-buffer-allocation-list */
static void test_cmdbuf_full_lists_flush_and_continue(void **state)
{
    struct fake *f = fake_setup_sized(4096, 4, 256);
    struct fake_res *r[6];
    for (int i = 0; i < 6; i++)
        r[i] = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    f->df.pfnResourceCopy(f->hDevice, r[1]->h, r[0]->h);
    f->df.pfnResourceCopy(f->hDevice, r[3]->h, r[2]->h);
    assert_int_equal(f->render_calls, 0);
    f->df.pfnResourceCopy(f->hDevice, r[5]->h, r[4]->h); /* 6 allocations > 4 */
    assert_int_equal(f->render_calls, 1);
    fake_flush(f);
    assert_int_equal(f->render_calls, 2);
    assert_int_equal(f->last_num_allocs, 2);
    /* command buffer full: 4096 / 56-byte copies */
    for (int i = 0; i < 100; i++)
        f->df.pfnResourceCopy(f->hDevice, r[1]->h, r[0]->h);
    fake_flush(f);
    assert_int_equal(f->render_calls, 4);
    assert_int_equal(f->commands_executed, 103);
    for (int i = 0; i < 6; i++)
        fake_res_destroy(f, r[i]);
    fake_teardown(f);
}

/* Flush submits only when something is queued. */
/* rule: umd.flush-submits-only-when-something-queued */
static void test_flush_submits_only_queued_work(void **state)
{
    struct fake *f = fake_setup();
    fake_flush(f);
    assert_int_equal(f->render_calls, 0);
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    f->df.pfnResourceCopy(f->hDevice, a->h, b->h);
    fake_flush(f);
    fake_flush(f);
    assert_int_equal(f->render_calls, 1);
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

/* DestroyResource submits queued commands that reference the resource before
 * pfnDeallocateCb (the fake executor asserts every listed allocation is alive). */
/* rule: umd.destroyresource-submits-queued-commands */
static void test_destroy_flushes_commands_referencing_the_resource(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    f->df.pfnResourceCopy(f->hDevice, a->h, b->h);
    fake_res_destroy(f, b);
    assert_int_equal(f->render_calls, 1);
    fake_res_destroy(f, a); /* nothing queued any more */
    assert_int_equal(f->render_calls, 1);
    fake_teardown(f);
}

/* pfnRenderCb failing with DEVICEREMOVED is reported from Flush. */
/* rule: umd.pfnrendercb-deviceremoved-reported-flush */
static void test_flush_reports_device_removed(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *a = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    struct fake_res *b = fake_buffer(f, D3D10_DDI_USAGE_DEFAULT, 64, 0, NULL);
    f->df.pfnResourceCopy(f->hDevice, a->h, b->h);
    f->render_result = D3DDDIERR_DEVICEREMOVED;
    fake_flush(f);
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], D3DDDIERR_DEVICEREMOVED);
    f->render_result = S_OK;
    fake_res_destroy(f, a);
    fake_res_destroy(f, b);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_region_box_is_in_texels),
        cmocka_unit_test(test_copy_region_null_box_copies_whole_subresource),
        cmocka_unit_test(test_copy_region_bc_box_is_converted_to_blocks),
        cmocka_unit_test(test_copy_region_buffer_box_is_in_bytes),
        cmocka_unit_test(test_copy_region_3d_box_copies_depth_slices),
        cmocka_unit_test(test_copy_region_empty_box_is_a_noop),
        cmocka_unit_test(test_copy_resource_copies_every_subresource),
        cmocka_unit_test(test_update_subresource_writes_box_with_application_pitch),
        cmocka_unit_test(test_update_subresource_bc_box_is_in_blocks),
        cmocka_unit_test(test_update_larger_than_command_buffer_is_split),
        cmocka_unit_test(test_large_update_goes_through_the_upload_buffer),
        cmocka_unit_test(test_large_update_goes_inline_when_the_upload_buffer_cannot_be_mapped),
        cmocka_unit_test(test_clear_converts_color_to_view_format),
        cmocka_unit_test(test_clear_fills_only_the_views_subresources),
        cmocka_unit_test(test_cmdbuf_patch_entries_point_at_address_fields),
        cmocka_unit_test(test_cmdbuf_allocation_list_is_deduplicated),
        cmocka_unit_test(test_cmdbuf_full_lists_flush_and_continue),
        cmocka_unit_test(test_flush_submits_only_queued_work),
        cmocka_unit_test(test_destroy_flushes_commands_referencing_the_resource),
        cmocka_unit_test(test_flush_reports_device_removed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
