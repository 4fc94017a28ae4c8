/* png_nonblank.c: png_nonblank FILE [MIN_FRACTION [MIN_COLOURS [MIN_COLOURED]]]
 *
 * Decodes a PNG (8-bit grey, grey+alpha, RGB or RGBA, not interlaced: what Chromium's
 * screenshots are) with zlib, undoing the five scanline filters, and checks that the picture
 * holds something: at least MIN_FRACTION (default 0.02) of its pixels differ from the
 * background (the top-left pixel), it has at least MIN_COLOURS (default 16) distinct colours,
 * and at least MIN_COLOURED (default 1000) strongly coloured pixels (the plots' lines and heat
 * maps, as opposed to black text on white). Exit 0 when it does, 1 when it does not, 2 when the
 * file is not such a PNG. Prints one line with what it found. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_FILE (256u << 20)

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static int bad(const char *file, const char *why)
{
    fprintf(stderr, "png_nonblank: %s: %s\n", file, why);
    return 2;
}

static unsigned char paeth(unsigned char a, unsigned char b, unsigned char c)
{
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc)
        return a;
    return pb <= pc ? b : c;
}

/* Undoes the filter of each scanline in place: raw holds height x (1 + stride) bytes. */
static int unfilter(unsigned char *raw, size_t height, size_t stride, size_t bpp)
{
    unsigned char *prev = NULL;
    for (size_t y = 0; y < height; y++) {
        unsigned char *line = raw + y * (stride + 1), type = line[0], *cur = line + 1;
        for (size_t i = 0; i < stride; i++) {
            unsigned char a = i >= bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0;
            unsigned char c = prev && i >= bpp ? prev[i - bpp] : 0;
            switch (type) {
            case 0: break;
            case 1: cur[i] = (unsigned char)(cur[i] + a); break;
            case 2: cur[i] = (unsigned char)(cur[i] + b); break;
            case 3:
                cur[i] = (unsigned char)(cur[i] + (unsigned char)(((unsigned)a + b) / 2));
                break;
            case 4: cur[i] = (unsigned char)(cur[i] + paeth(a, b, c)); break;
            default: return 0;
            }
        }
        prev = cur;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: png_nonblank FILE [MIN_FRACTION [MIN_COLOURS [MIN_COLOURED]]]\n");
        return 2;
    }
    const char *file = argv[1];
    double min_fraction = argc > 2 ? atof(argv[2]) : 0.02;
    unsigned long min_colours = argc > 3 ? strtoul(argv[3], NULL, 10) : 16;
    unsigned long min_coloured = argc > 4 ? strtoul(argv[4], NULL, 10) : 1000;
    FILE *f = fopen(file, "rb");
    if (!f)
        return bad(file, "cannot open");
    unsigned char *data = malloc(MAX_FILE);
    size_t len = data ? fread(data, 1, MAX_FILE, f) : 0;
    fclose(f);
    static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (!data || len < 8 + 25 || len == MAX_FILE || memcmp(data, sig, 8))
        return bad(file, "not a PNG file (or over 256 MiB)");
    unsigned long width = 0, height = 0;
    unsigned channels = 0;
    unsigned char *idat = NULL;
    size_t nidat = 0;
    int ended = 0;
    for (size_t at = 8; at + 12 <= len && !ended;) {
        unsigned long n = be32(data + at);
        const unsigned char *type = data + at + 4, *body = data + at + 8;
        if (n > len - at - 12)
            return bad(file, "a chunk runs past the end of the file");
        if (be32(body + n) != crc32(crc32(0L, Z_NULL, 0), type, (uInt)(n + 4)))
            return bad(file, "a chunk's CRC does not match");
        if (!memcmp(type, "IHDR", 4)) {
            static const unsigned ch[7] = {1, 0, 3, 0, 2, 0, 4};
            width = be32(body);
            height = be32(body + 4);
            if (n != 13 || body[8] != 8 || body[9] > 6 || !ch[body[9]] || body[10] || body[11])
                return bad(file, "only 8-bit grey, grey+alpha, RGB and RGBA PNGs are read");
            if (body[12])
                return bad(file, "interlaced PNGs are not read");
            if (!width || !height || width > 100000 || height > 100000)
                return bad(file, "bad dimensions");
            channels = ch[body[9]];
        } else if (!memcmp(type, "IDAT", 4)) {
            unsigned char *grown = realloc(idat, nidat + n + 1);
            if (!grown)
                return bad(file, "out of memory");
            idat = grown;
            memcpy(idat + nidat, body, n);
            nidat += n;
        } else if (!memcmp(type, "IEND", 4)) {
            ended = 1;
        }
        at += 12 + n;
    }
    if (!channels || !idat || !ended)
        return bad(file, "missing IHDR, IDAT or IEND");
    size_t stride = (size_t)width * channels, rawlen = (size_t)height * (stride + 1);
    unsigned char *raw = malloc(rawlen);
    uLongf got = (uLongf)rawlen;
    if (!raw || uncompress(raw, &got, idat, (uLong)nidat) != Z_OK || got != rawlen)
        return bad(file, "the image data does not inflate to width x height pixels");
    if (!unfilter(raw, height, stride, channels))
        return bad(file, "unknown scanline filter");
    /* Grey pictures repeat their one channel as red, green and blue. */
    unsigned char *seen = calloc(1u << 21, 1); /* one bit per 24-bit colour */
    if (!seen)
        return bad(file, "out of memory");
    unsigned long differ = 0, colours = 0, coloured = 0;
    unsigned char bg[3] = {0, 0, 0};
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            const unsigned char *px = raw + y * (stride + 1) + 1 + x * channels;
            unsigned char rgb[3] = {px[0], channels >= 3 ? px[1] : px[0],
                                    channels >= 3 ? px[2] : px[0]};
            if (x == 0 && y == 0)
                memcpy(bg, rgb, 3);
            differ += memcmp(rgb, bg, 3) != 0;
            uint32_t c = (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
            if (!(seen[c >> 3] & (1u << (c & 7)))) {
                seen[c >> 3] = (unsigned char)(seen[c >> 3] | (1u << (c & 7)));
                colours++;
            }
            unsigned char hi = rgb[0], lo = rgb[0];
            for (int i = 1; i < 3; i++) {
                hi = rgb[i] > hi ? rgb[i] : hi;
                lo = rgb[i] < lo ? rgb[i] : lo;
            }
            coloured += hi - lo >= 64;
        }
    double fraction = (double)differ / ((double)width * (double)height);
    int ok = fraction >= min_fraction && colours >= min_colours && coloured >= min_coloured;
    printf("png_nonblank: %s: %lux%lu, %.1f%% not background (#%02x%02x%02x), %lu colours, %lu "
           "coloured pixels: %s\n",
           file, width, height, 100 * fraction, bg[0], bg[1], bg[2], colours, coloured,
           ok ? "not blank" : "BLANK or nearly");
    free(seen);
    free(raw);
    free(idat);
    free(data);
    return ok ? 0 : 1;
}
