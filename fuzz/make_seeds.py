#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/fuzz_gpu.c (fuzz/corpus/gpu/): valid DMA buffers of every
opcode in both addressing modes, and edge cases. Run from the repository root; the files are
committed, this script only says how they were made."""
import os
import struct

SEG = lambda i: i << 56
PG = 4096


def hdr(op, size):
    return struct.pack('<II', op, size)


def region(addr, rp=0, sp=0):
    return struct.pack('<QII', addr, rp, sp)


def copy(dst, src, rb, rows=1, slices=1, dp=(0, 0), sp=(0, 0)):
    return hdr(1, 56) + region(dst, *dp) + region(src, *sp) + struct.pack('<IIII', rb, rows, slices, 0)


def fill(dst, rb, pat, rows=1, slices=1, p=(0, 0)):
    return hdr(2, 64) + region(dst, *p) + struct.pack('<IIII', rb, rows, slices, len(pat)) + pat.ljust(16, b'\0')


def write(dst, data, rows=1, slices=1, p=(0, 0)):
    rb = len(data) // (rows * slices)
    body = data + b'\0' * ((-len(data)) % 8)
    return hdr(3, 40 + len(body)) + region(dst, *p) + struct.pack('<IIII', rb, rows, slices, 0) + body


def fence(addr, value):
    return hdr(4, 24) + struct.pack('<QQ', addr, value)


def gart_map(first, pages):
    return hdr(5, 16 + 8 * len(pages)) + struct.pack('<II', first, len(pages)) + b''.join(struct.pack('<Q', p) for p in pages)


def gart_unmap(first, count, dummy):
    return hdr(6, 24) + struct.pack('<IIQ', first, count, dummy)


def flush(root):
    return hdr(7, 16) + struct.pack('<Q', root)


def nop():
    return hdr(0, 8)


def timestamp(dst):
    return hdr(8, 24) + region(dst, 8, 8)


def set_reg(reg, value):
    return hdr(9, 24) + struct.pack('<IIQ', reg, 0, value)


def store_reg(dst, reg):
    return hdr(10, 32) + region(dst, 8, 8) + struct.pack('<II', reg, 0)


L, V, A = SEG(1), SEG(2), SEG(3)
VA = 0x200000  # fuzz_gpu.c VA_DATA: page i kind = i % 8
seeds = {
    'phys_write_copy': b'\0' + write(L + 0x50000, bytes(range(64))) + copy(V + 100, L + 0x50000, 64),
    'phys_pitched_box': b'\0' + copy(L + 0x60000, V, 10, 4, 3, (256, 2048), (16, 80)),
    'phys_overlap_up': b'\0' + copy(L + 3, L, 4000),
    'phys_fill_patterns': b'\0' + fill(L, 100, b'\x11') + fill(V, 64, b'\x01\x02\x03\x04', 3, 1, (128, 0)) +
    fill(A + 100, 9000, b'ABCDEFGH'),
    'phys_aperture_copy': b'\0' + copy(A + 4090, L + 0x70000, 5000) + copy(L + 0x80000, A + 8000, 3000),
    'phys_system_fence': b'\0' + fence(0x20000, 0x1234) + write(0x30000, b'sysmem!!') + copy(L, 0x30000, 8),
    'phys_faults': b'\0' + copy(SEG(9), L, 8),
    'phys_out_of_segment': b'\0' + fill(V + 256 * 1024 - 4, 8, b'\xff'),
    'paging_gart': b'\2' + gart_map(0, [0x1000, 0x2000]) + gart_unmap(1, 1, 0x3000) + flush(0) +
    copy(L, A, 8192),
    'paging_gart_bad': b'\2' + gart_map(63, [0x1000, 0x2000]) + gart_map(0, [0x1001]) + gart_unmap(0, 65, 0),
    'phys_truncated': b'\0' + nop() + hdr(1, 56)[:6],
    'phys_bad_size': b'\0' + hdr(1, 12) + b'\0' * 4,
    'phys_unknown_op': b'\0' + hdr(99, 8),
    'phys_huge_box': b'\0' + copy(L, L + 8, 1, 0xFFFFFFFF, 0xFFFFFFFF),
    'phys_resubmit': b'\4' + write(L + 0x3000, struct.pack('<IIQII', 0x31415343, 8, 0, 200, 1)) + nop() + nop(),
    'va_every_page_kind': b'\1' + b''.join(copy(VA + i * PG, VA + ((i + 1) % 8) * PG, 64) for i in range(8)) +
    write(VA + 3 * PG, b'readonly') + fill(VA + 2 * PG + 4000, 200, b'\x5a') + fence(VA + 5 * PG, 7),
    'va_root_kinds': b'\1' + copy(VA, 0x400000, 8) + copy(VA, 0x600000, 8) + copy(VA, 1 << 39, 8),
    'va_privileged': b'\1' + flush(0),
    'va_code_fault': b'\1' + nop() + hdr(3, 0x2000),
    'va_resubmit': b'\5' + copy(VA, VA + PG, 64) + nop() + copy(VA + 6 * PG, VA, 8),
    'phys_registers': b'\0' + set_reg(3, 0x1122334455667788) + store_reg(L + 0x50000, 3) + store_reg(0x20000, 3) +
    set_reg(8, 1) + timestamp(V + 64),
    'two_contexts_registers': b'\4' + store_reg(L + 0x50000, 0) + set_reg(0, 0xABCD) + store_reg(VA, 0),
    'va_registers': b'\1' + set_reg(7, 42) + store_reg(VA + 5 * PG, 7) + store_reg(VA + 3 * PG, 7) + timestamp(VA),
}
out = 'fuzz/corpus/gpu'
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
