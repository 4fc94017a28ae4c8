/* hash.c: FNV-1a 64 (hash tables) and SHA-256 (ids, the identity of compiled programs). */
#include <string.h>

#include "util.h"

uint64_t gb__fnv1a64(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* SHA-256 as FIPS 180-4 specifies it: small and plain, which is plenty here. */
static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void sha256_block(uint32_t h[8], const unsigned char *b)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
               (uint32_t)b[4 * i + 2] << 8 | (uint32_t)b[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 =
            hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = bb;
        bb = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

void gb__sha256_init(gb_sha256_t *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->bytes = 0;
}

void gb__sha256_update(gb_sha256_t *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t have = (size_t)(s->bytes % 64);
    s->bytes += len;
    if (have) {
        size_t take = 64 - have < len ? 64 - have : len;
        memcpy(s->block + have, p, take);
        p += take;
        len -= take;
        if (have + take < 64)
            return;
        sha256_block(s->h, s->block);
    }
    for (; len >= 64; len -= 64, p += 64)
        sha256_block(s->h, p);
    memcpy(s->block, p, len);
}

void gb__sha256_hex_final(gb_sha256_t *s, char hex[65])
{
    /* A 1 bit, zeros, and the length in bits (big-endian) fill the last one or two blocks. */
    const uint64_t bits = s->bytes * 8u;
    unsigned char pad[72] = {0x80};
    size_t have = (size_t)(s->bytes % 64), npad = (have < 56 ? 56 : 120) - have;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    gb__sha256_update(s, pad, npad + 8);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        unsigned byte = (s->h[i / 4] >> (24 - 8 * (i % 4))) & 0xffu;
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15u];
    }
    hex[64] = '\0';
}

void gb__sha256_hex(const void *data, size_t len, char hex[65])
{
    gb_sha256_t s;
    gb__sha256_init(&s);
    gb__sha256_update(&s, data, len);
    gb__sha256_hex_final(&s, hex);
}
