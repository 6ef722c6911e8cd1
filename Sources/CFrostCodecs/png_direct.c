// The direct PNG read, for the files Frost meets most: 8-bit, non-interlaced gray, gray+alpha, RGB
// and RGBA without tRNS (photos, and every level a blur cache writes). IDAT is inflated by
// libdeflate in one call and the rows are unfiltered straight into RGBA. On a 4096² RGB photo
// libpng took 610 ms, 270 of them in zlib's inflate; libdeflate inflates the same IDAT in 90.
//
// It only decodes a file libpng would decode to the same pixels. Anything outside its scope or
// off in the file (a CRC after the header chunks, a zlib window other than 32 KiB, too much or
// too little data, a filter type above 4, a chunk libpng would question) returns 0, and libpng
// then decodes the file and reports any error in its own words (png_decode.c).
#include "png_direct.h"
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "png_direct.c builds RGBA words as little-endian"
#endif

// One pixel's four samples as bytes, and as 16-bit lanes for the predictors' arithmetic.
typedef uint8_t pixel_bytes __attribute__((ext_vector_type(4)));
typedef int16_t pixel_lanes __attribute__((ext_vector_type(4)));

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// The chunk at `chunk` (length, type, data, CRC) has the CRC of its type and data.
static int crc_matches(const uint8_t *chunk, uint32_t length) {
    return libdeflate_crc32(0, chunk + 4, (size_t)length + 4) == be32(chunk + 8 + length);
}

// The zlib stream in the IDAT chunks: a pointer into the file when there is one chunk, else a
// malloc'd copy in *copy. NULL unless the IDAT chunks are one run, followed by ancillary chunks
// and an empty IEND, every one of them with its CRC (libpng read the chunks before IDAT).
static const uint8_t *idat_stream(const uint8_t *data, size_t size, size_t *length, uint8_t **copy) {
    size_t at = 8, first = 0, total = 0, chunks = 0;
    for (;;) {
        if (size - at < 12) return NULL;
        uint32_t n = be32(data + at);
        const uint8_t *type = data + at + 4;
        if (n > size - at - 12) return NULL;
        if (!memcmp(type, "IDAT", 4)) {
            if ((chunks && first + 12 * chunks + total != at) || !crc_matches(data + at, n)) return NULL;
            if (chunks++ == 0) first = at;
            total += n;
        } else if (chunks) {
            if (!crc_matches(data + at, n)) return NULL;
            if (!memcmp(type, "IEND", 4)) break;
            if (!(type[0] & 0x20)) return NULL;  // a critical chunk after IDAT: libpng's call
        } else if (!memcmp(type, "IEND", 4)) {
            return NULL;
        }
        at += 12 + (size_t)n;
    }
    if (be32(data + at) != 0) return NULL;
    *length = total;
    if (chunks == 1) return data + first + 8;
    if (!(*copy = malloc(total ? total : 1))) return NULL;
    for (size_t from = first, to = 0; to < total; from += 12 + be32(data + from)) {
        memcpy(*copy + to, data + from + 8, be32(data + from));
        to += be32(data + from);
    }
    return *copy;
}

// Filtered pixel x of a row of `channels` samples, as RGBA lanes: gray is repeated into R, G and
// B, and alpha is garbage for files without it (store_pixel sets it). An RGB pixel is read as a
// 4-byte word, one byte past the row at its end.
static inline __attribute__((always_inline)) pixel_lanes filtered_pixel(const uint8_t *row, size_t x, int channels) {
    uint32_t word;
    switch (channels) {
    case 1: word = row[x] * 0x010101u; break;
    case 2: word = row[2 * x] * 0x010101u | (uint32_t)row[2 * x + 1] << 24; break;
    case 3: memcpy(&word, row + 3 * x, 4); break;
    default: memcpy(&word, row + 4 * x, 4); break;
    }
    pixel_bytes bytes;
    memcpy(&bytes, &word, 4);
    return __builtin_convertvector(bytes, pixel_lanes);
}

// Pixel x of an RGBA row already decoded (the row above).
static inline __attribute__((always_inline)) pixel_lanes decoded_pixel(const uint8_t *row, size_t x) {
    pixel_bytes bytes;
    memcpy(&bytes, row + 4 * x, 4);
    return __builtin_convertvector(bytes, pixel_lanes);
}

static inline __attribute__((always_inline)) void store_pixel(uint8_t *row, size_t x, pixel_lanes v, int channels) {
    pixel_bytes bytes = __builtin_convertvector(v, pixel_bytes);
    if (channels & 1) bytes.w = 255;  // gray and RGB: opaque
    memcpy(row + 4 * x, &bytes, 4);
}

// PNG's Paeth predictor (PNG specification §9.4) in every lane: whichever of left (a), up (b) and
// upper-left (c) is closest to a + b − c, ties in that order.
static inline __attribute__((always_inline)) pixel_lanes paeth(pixel_lanes a, pixel_lanes b, pixel_lanes c) {
    pixel_lanes left_step = a - c, up_step = b - c;  // up_step does not wait for a
    pixel_lanes pa = __builtin_elementwise_abs(up_step), pb = __builtin_elementwise_abs(left_step),
                pc = __builtin_elementwise_abs(left_step + up_step);
    pixel_lanes not_a = pa > __builtin_elementwise_min(pb, pc), c_not_b = pb > pc;
    pixel_lanes b_or_c = (c_not_b & c) | (~c_not_b & b);
    return (not_a & b_or_c) | (~not_a & a);
}

// Pixel x of a row decoded: its filtered samples plus `prediction`, modulo 256 (PNG specification §9.2).
static inline __attribute__((always_inline)) pixel_lanes decode_pixel(const uint8_t *in, uint8_t *out, size_t x,
                                                                      pixel_lanes prediction, int channels) {
    pixel_lanes v = (filtered_pixel(in, x, channels) + prediction) & 255;
    store_pixel(out, x, v, channels);
    return v;
}

// One row, each sample predicted from the pixel to the left (a), above (b) and above-left (c),
// zero outside the image; `up` is the decoded row above, or zeros for the first.
static inline __attribute__((always_inline)) void unfilter_row(int filter, const uint8_t *in, const uint8_t *up,
                                                               uint8_t *out, size_t width, int channels) {
    pixel_lanes a = 0, c = 0;
    switch (filter) {
    case 0:
        for (size_t x = 0; x < width; x++) decode_pixel(in, out, x, 0, channels);
        break;
    case 1:
        for (size_t x = 0; x < width; x++) a = decode_pixel(in, out, x, a, channels);
        break;
    case 2:
        for (size_t x = 0; x < width; x++) decode_pixel(in, out, x, decoded_pixel(up, x), channels);
        break;
    case 3:
        for (size_t x = 0; x < width; x++) a = decode_pixel(in, out, x, (a + decoded_pixel(up, x)) >> 1, channels);
        break;
    default:
        for (size_t x = 0; x < width; x++) {
            pixel_lanes b = decoded_pixel(up, x);
            a = decode_pixel(in, out, x, paeth(a, b, c), channels);
            c = b;
        }
        break;
    }
}

// Two Paeth rows at once, the second one pixel behind the first. Each pixel's predictor waits on
// the pixel to its left, a chain of ~15 cycles per pixel (perf), so one row at a time left the
// core idle; the two rows' chains overlap. The second row's above and above-left pixels are the
// first row's, taken from registers. Photos are nearly all Paeth rows (libpng's and Pillow's
// choice per row).
static inline __attribute__((always_inline)) void unpaeth_two_rows(const uint8_t *in, const uint8_t *next_in,
                                                                   const uint8_t *up, uint8_t *out,
                                                                   uint8_t *next_out, size_t width, int channels) {
    pixel_lanes b = decoded_pixel(up, 0), a = decode_pixel(in, out, 0, paeth(0, b, 0), channels);
    pixel_lanes c = b, next_a = 0, next_c = 0;
    for (size_t x = 1; x < width; x++) {
        pixel_lanes left = a;
        b = decoded_pixel(up, x);
        a = decode_pixel(in, out, x, paeth(a, b, c), channels);
        c = b;
        next_a = decode_pixel(next_in, next_out, x - 1, paeth(next_a, left, next_c), channels);
        next_c = left;
    }
    decode_pixel(next_in, next_out, width - 1, paeth(next_a, a, next_c), channels);
}

// Every row of the inflated stream; 0 at a filter type above 4.
static inline __attribute__((always_inline)) int unfilter_rows(const uint8_t *filtered, size_t width, uint32_t height,
                                                               int channels, const uint8_t *zeros, uint8_t *pixels,
                                                               size_t row_bytes) {
    size_t stride = width * channels + 1;
    const uint8_t *up = zeros;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = filtered + y * stride;
        uint8_t *out = pixels + y * row_bytes;
        if (row[0] > 4) return 0;
        if (row[0] == 4 && y + 1 < height && row[stride] == 4) {
            unpaeth_two_rows(row + 1, row + stride + 1, up, out, out + row_bytes, width, channels);
            up = out + row_bytes;
            y++;
            continue;
        }
        unfilter_row(row[0], row + 1, up, out, width, channels);
        up = out;
    }
    return 1;
}

// The rows with a constant channel count, so that each count gets loops of its own.
static int unfilter_image(const uint8_t *filtered, size_t width, uint32_t height, int channels,
                          const uint8_t *zeros, uint8_t *pixels, size_t row_bytes) {
    switch (channels) {
    case 1: return unfilter_rows(filtered, width, height, 1, zeros, pixels, row_bytes);
    case 2: return unfilter_rows(filtered, width, height, 2, zeros, pixels, row_bytes);
    case 3: return unfilter_rows(filtered, width, height, 3, zeros, pixels, row_bytes);
    default: return unfilter_rows(filtered, width, height, 4, zeros, pixels, row_bytes);
    }
}

int frost_png_read_direct(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int channels,
                          uint8_t *pixels, size_t row_bytes) {
    if (channels < 1 || channels > 4 || width == 0 || height == 0 || size < 8) return 0;
    uint8_t *copy = NULL;
    size_t stream_size = 0;
    const uint8_t *stream = idat_stream(data, size, &stream_size, &copy);
    size_t filtered_size = ((size_t)width * channels + 1) * height;
    // 4 bytes of slack: the last pixel of a gray or RGB row is read as a 4-byte word.
    uint8_t *filtered = stream ? malloc(filtered_size + 4) : NULL;
    uint8_t *zeros = filtered ? calloc(width, 4) : NULL;
    struct libdeflate_decompressor *inflater = zeros ? libdeflate_alloc_decompressor() : NULL;
    int done = 0;
    // 0x78: deflate with a 32 KiB window. A smaller declared window is libpng's to check
    // (zlib refuses distances beyond it; libdeflate does not look).
    if (inflater && stream_size >= 2 && stream[0] == 0x78) {
        size_t used, written;
        done = libdeflate_zlib_decompress_ex(inflater, stream, stream_size, filtered, filtered_size, &used,
                                             &written) == LIBDEFLATE_SUCCESS
               && used == stream_size && written == filtered_size
               && unfilter_image(filtered, width, height, channels, zeros, pixels, row_bytes);
    }
    libdeflate_free_decompressor(inflater);
    free(zeros);
    free(filtered);
    free(copy);
    return done;
}
