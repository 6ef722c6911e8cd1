// PNG encoding over libpng into a growing memory buffer.
//
// With one filter for every row (the default) the rows are filtered here and compressed in one
// call straight into the file after libpng's header chunks, as IDAT chunks made here. Level 1 is Frost's
// run-length deflate (deflate_runs.c: 2.0-3.2x libdeflate's level 1 speed on a 4096² cache
// level, within 4% of its size), the other levels libdeflate's (level 2 1.6-2.6x faster than
// zlib's level 2 and 2-9% smaller on the sample photos). Adaptive filtering (libpng picks a
// filter per row) stays with libpng and zlib.
#include "CFrostCodecs.h"
#include "CFrostSystem.h"
#include "deflate_runs.h"
#include "error.h"
#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int out_of_memory;
    char message[256];
    // The filtered rows (filter_rows) the sink's IDAT chunks are made of; NULL for libpng's rows.
    uint8_t *filtered;
} png_sink;

static void on_error(png_structp png, png_const_charp message) {
    png_sink *sink = png_get_error_ptr(png);
    snprintf(sink->message, sizeof sink->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

// Room for `length` more bytes in the sink; 0 when memory runs out.
static int reserve(png_sink *sink, size_t length) {
    if (length <= sink->capacity - sink->size) return 1;
    size_t capacity = sink->capacity ? sink->capacity : 65536;
    while (length > capacity - sink->size) capacity *= 2;
    uint8_t *grown = realloc(sink->data, capacity);
    if (!grown) return 0;
    sink->data = grown;
    sink->capacity = capacity;
    return 1;
}

static void out_of_memory(png_structp png, png_sink *sink) {
    sink->out_of_memory = 1;
    png_error(png, "out of memory");
}

static void write_memory(png_structp png, png_bytep bytes, size_t length) {
    png_sink *sink = png_get_io_ptr(png);
    if (!reserve(sink, length)) out_of_memory(png, sink);
    memcpy(sink->data + sink->size, bytes, length);
    sink->size += length;
}

static void flush_memory(png_structp png) { (void)png; }

// Picks the output channels from one RGBA8 row; returns the AND of the alpha bytes it drops
// (255 when it keeps them), so that dropping alpha is checked on the way, not by a pass of its own.
// Premultiplied colors are divided by their alpha where it is kept (gray + alpha through
// `scratch`, four bytes a pixel), so no straight copy of the image is made first.
static uint8_t pack_row(const uint8_t *rgba, uint8_t *out, uint32_t width, int channels, int premultiplied,
                        uint8_t *scratch) {
    // Row after row into a row buffer: forwards, as the blurs premultiply their rows (StreamOrder).
    if (premultiplied && channels == 4) {
        frost_unpremultiply(rgba, out, width, 1);
        return 255;
    }
    if (premultiplied && channels == 2) {
        frost_unpremultiply(rgba, scratch, width, 1);
        rgba = scratch;
    }
    uint8_t alpha = 255;
    switch (channels) {
    case 1:
        for (uint32_t x = 0; x < width; x++) { out[x] = rgba[4 * x]; alpha &= rgba[4 * x + 3]; }
        break;
    case 2:
        for (uint32_t x = 0; x < width; x++) { out[2 * x] = rgba[4 * x]; out[2 * x + 1] = rgba[4 * x + 3]; }
        break;
    case 3: {
        // Eight pixels a step where the build has AVX2 (a byte shuffle in each half, then the two
        // halves' 12 colors joined), else four (one byte shuffle); each step's store reaches past
        // its colors into what the next overwrites. 3 bytes at a time took 60% of the encoder (perf).
        uint32_t x = 0;
        frost_bytes16 all = (frost_bytes16)(uint8_t)255;
#if defined(__AVX2__)
        __m256i all8 = _mm256_set1_epi8(-1);
        const __m256i colors_of_halves = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
        for (; x + 11 <= width; x += 8) {
            __m256i pixels = _mm256_loadu_si256((const __m256i *)(rgba + 4 * x));
            all8 = _mm256_and_si256(all8, pixels);
            __m256i colors = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(pixels, colors_of_halves), _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7));
            _mm256_storeu_si256((__m256i *)(out + 3 * x), colors);
        }
        all = (frost_bytes16)_mm_and_si128(_mm256_castsi256_si128(all8), _mm256_extracti128_si256(all8, 1));
#endif
        for (; x + 6 <= width; x += 4) {
            frost_bytes16 pixels, colors;
            memcpy(&pixels, rgba + 4 * x, 16);
            all &= pixels;
            colors = frost_colors_of_rgba(pixels);
            memcpy(out + 3 * x, &colors, 16);
        }
        alpha = all[3] & all[7] & all[11] & all[15];
        for (; x < width; x++) { memcpy(out + 3 * x, rgba + 4 * x, 3); alpha &= rgba[4 * x + 3]; }
        break;
    }
    default: memcpy(out, rgba, (size_t)width * 4); break;
    }
    return alpha;
}

// PNG's Paeth predictor (PNG specification §9.4): whichever of left, up and upper-left is
// closest to left + up - upper-left, ties in that order.
static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Paeth residuals of row[from..<n) (from ≥ bpp), 32 bytes a step where the build has AVX2: the
// predictor's three distances compared in bytes, as fpnge does. pa = |b − c| and pb = |a − c|
// are exact; pc = |(b − c) + (a − c)| is pa + pb where the two differences share a sign
// (saturated at 255, which still compares as the true sum does against pa and pb, both ≤ 255),
// else |pa − pb|. The scalar loop below is the reference (and the tail).
static void paeth_residuals(const uint8_t *row, const uint8_t *prior, size_t from, size_t n, size_t bpp, uint8_t *out) {
    size_t i = from;
#if defined(__AVX2__)
    for (; i + 32 <= n; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(row + i)), a = _mm256_loadu_si256((const __m256i *)(row + i - bpp));
        __m256i b = _mm256_loadu_si256((const __m256i *)(prior + i)), c = _mm256_loadu_si256((const __m256i *)(prior + i - bpp));
        __m256i pa = _mm256_or_si256(_mm256_subs_epu8(b, c), _mm256_subs_epu8(c, b));
        __m256i pb = _mm256_or_si256(_mm256_subs_epu8(a, c), _mm256_subs_epu8(c, a));
        // 0xFF where b < c, where a < c; the same sign where they agree (a zero difference fits either).
        __m256i b_below = _mm256_cmpeq_epi8(_mm256_subs_epu8(c, b), pa), a_below = _mm256_cmpeq_epi8(_mm256_subs_epu8(c, a), pb);
        __m256i same = _mm256_cmpeq_epi8(b_below, a_below);
        __m256i apart = _mm256_or_si256(_mm256_subs_epu8(pa, pb), _mm256_subs_epu8(pb, pa));
        __m256i pc = _mm256_blendv_epi8(apart, _mm256_adds_epu8(pa, pb), same);
        __m256i pa_least = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(pa, pb), pa), _mm256_cmpeq_epi8(_mm256_min_epu8(pa, pc), pa));
        __m256i pb_least = _mm256_cmpeq_epi8(_mm256_min_epu8(pb, pc), pb);
        __m256i prediction = _mm256_blendv_epi8(_mm256_blendv_epi8(c, b, pb_least), a, pa_least);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_sub_epi8(x, prediction));
    }
#endif
    for (; i < n; i++) out[i] = (uint8_t)(row[i] - paeth(row[i - bpp], prior[i], prior[i - bpp]));
}

// One row filtered with `type` (PNG specification §9.2): out[0] is the type, then each byte minus
// its prediction from the byte bpp to the left (a), above (b) and above-left (c), zero outside.
static void filter_row(int type, const uint8_t *row, const uint8_t *prior, size_t n, size_t bpp, uint8_t *out) {
    *out++ = (uint8_t)type;
    switch (type) {
    case 0: memcpy(out, row, n); break;
    case 1:
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(row[i] - (i >= bpp ? row[i - bpp] : 0));
        break;
    case 2: for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(row[i] - prior[i]); break;
    case 3:
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(row[i] - (((i >= bpp ? row[i - bpp] : 0) + prior[i]) >> 1));
        break;
    default:
        // With nothing to the left (a = c = 0) Paeth predicts b.
        for (size_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(row[i] - prior[i]);
        if (n > bpp) paeth_residuals(row, prior, bpp, n, bpp, out);
        break;
    }
}

enum { ROWS_FAILED, ROWS_FILTERED, ROWS_TRANSPARENT };

// The image's rows, packed to `channels` and filtered with `type`, into *filtered (a row of
// width × channels + 1 bytes each). Returns ROWS_FILTERED, ROWS_FAILED when memory runs out, or,
// if `alpha_if_needed`, ROWS_TRANSPARENT (nothing kept) when the packing dropped an alpha below 255.
static int filter_rows(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                       const frost_png_write_options *options, int channels, int alpha_if_needed, uint8_t **filtered) {
    size_t n = (size_t)width * channels, stride = n + 1;
    // Two packed rows (the one above the first all zeros, from calloc) and pack_row's scratch.
    uint8_t *rows = calloc(2 * n + 4 * (size_t)width, 1);
    *filtered = rows ? malloc(stride * height) : NULL;
    if (!*filtered) {
        free(rows);
        return ROWS_FAILED;
    }
    uint8_t *prior = rows, *row = rows + n, alpha = 255;
    for (uint32_t y = 0; y < height; y++) {
        alpha &= pack_row(rgba + (size_t)y * row_bytes, row, width, channels, options->premultiplied, rows + 2 * n);
        filter_row(options->filter, row, prior, n, (size_t)channels, *filtered + (size_t)y * stride);
        uint8_t *swap = prior; prior = row; row = swap;
    }
    free(rows);
    if (alpha_if_needed && alpha != 255) {
        free(*filtered);
        *filtered = NULL;
        return ROWS_TRANSPARENT;
    }
    return ROWS_FILTERED;
}

// A chunk's length, type, data (already at out + 8) and CRC (PNG specification §5.3).
static size_t finish_chunk(uint8_t *out, const char type[4], size_t length) {
    out[0] = (uint8_t)(length >> 24); out[1] = (uint8_t)(length >> 16); out[2] = (uint8_t)(length >> 8); out[3] = (uint8_t)length;
    memcpy(out + 4, type, 4);
    uint32_t crc = frost_crc32(out + 4, length + 4);
    uint8_t *end = out + 8 + length;
    end[0] = (uint8_t)(crc >> 24); end[1] = (uint8_t)(crc >> 16); end[2] = (uint8_t)(crc >> 8); end[3] = (uint8_t)crc;
    return length + 12;
}

enum { IDAT_DATA = 1 << 20 };   // bytes of the zlib stream per IDAT chunk

// The filtered rows (`total` bytes) deflated straight into the sink, after its header chunks, as
// IDAT chunks of IDAT_DATA bytes and IEND: the stream is written 8 bytes past the sink's end,
// then its chunks are moved apart in place (last first) to make room for their length, type and
// CRC. Level 1 is Frost's run-length deflate, every other level libdeflate's. Fails through
// png_error.
static void write_image_data(png_structp png, png_sink *sink, const uint8_t *filtered, size_t total, int level, int threads) {
    struct libdeflate_compressor *compressor = level == 1 ? NULL : libdeflate_alloc_compressor(level);
    size_t bound = compressor ? libdeflate_zlib_compress_bound(compressor, total) : frost_deflate_runs_bound(total);
    if ((level != 1 && !compressor) || !reserve(sink, 12 * (bound / IDAT_DATA + 1) + bound + 12)) {
        libdeflate_free_compressor(compressor);
        out_of_memory(png, sink);
    }
    uint8_t *base = sink->data + sink->size;
    size_t size = compressor ? libdeflate_zlib_compress(compressor, filtered, total, base + 8, bound)
                             : frost_deflate_runs(filtered, total, base + 8, threads);
    libdeflate_free_compressor(compressor);
    if (size == 0) out_of_memory(png, sink);
    size_t chunks = size / IDAT_DATA + (size % IDAT_DATA != 0);
    for (size_t k = chunks; k-- > 1;)
        memmove(base + k * (IDAT_DATA + 12) + 8, base + 8 + k * IDAT_DATA, k + 1 == chunks ? size - k * IDAT_DATA : IDAT_DATA);
    size_t written = 0;
    for (size_t k = 0; k < chunks; k++)
        written += finish_chunk(base + written, "IDAT", k + 1 == chunks ? size - k * IDAT_DATA : IDAT_DATA);
    written += finish_chunk(base + written, "IEND", 0);
    sink->size += written;
}

// Whether some pixel's alpha is below 255 (for libpng's rows, which are packed as they are written).
static int has_transparency(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes) {
    uint8_t alpha = 255;
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) alpha &= rgba[(size_t)y * row_bytes + 4 * x + 3];
    return alpha != 255;
}

// After libpng's error jump: everything freed, the sink's message reported.
static frost_status write_failed(png_structp png, png_infop info, uint8_t *row, png_sink *sink, frost_error *err) {
    png_destroy_write_struct(&png, &info);
    free(row);
    frost_status status = sink->out_of_memory ? FROST_ERR_MEMORY : FROST_ERR_ENCODE;
    frost_fail(err, status, "%s", sink->message);
    free(sink->filtered);
    free(sink->data);
    free(sink);
    return status;
}

// A libpng writer for libpng's own rows (adaptive filters, zlib `level`) into a new sink, with a row
// buffer of `row_size` bytes; what the error path reads lives on the heap (as in frost_png_encode).
static frost_status open_writer(size_t row_size, int level, png_sink **sink, uint8_t **row, png_structp *png,
                                png_infop *info, frost_error *err) {
    *sink = calloc(1, sizeof **sink);
    *row = malloc(row_size);
    *png = *sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, *sink, on_error, on_warning) : NULL;
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (!*info || !*row) {
        png_destroy_write_struct(png, info);
        free(*row);
        free(*sink);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    png_set_write_fn(*png, *sink, write_memory, flush_memory);
    png_set_compression_level(*png, level);
    png_set_filter(*png, 0, PNG_ALL_FILTERS);
    return FROST_OK;
}

// libpng checks an ICC profile; one it rejects is dropped with a warning, never fatal.
static void set_profile(png_structp png, png_infop info, const uint8_t *icc, uint32_t icc_length) {
    if (!icc || icc_length == 0) return;
    png_set_benign_errors(png, 1);
    png_set_iCCP(png, info, "ICC Profile", 0, icc, icc_length);
}

// After the last row: the file handed over, everything else freed.
static frost_status finish_writer(png_structp png, png_infop info, uint8_t *row, png_sink *sink, uint8_t **out, size_t *out_size) {
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = sink->data;
    *out_size = sink->size;
    free(sink);
    return FROST_OK;
}

frost_status frost_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                              const frost_png_write_options *options, uint8_t **out, size_t *out_size,
                              frost_error *err) {
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                       PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    int channels = options->channels;
    if (channels < 1 || channels > 4) return frost_fail(err, FROST_ERR_ENCODE, "bad channel count %d", channels);
    int alpha_if_needed = options->alpha_if_needed && channels % 2 == 1;

    // Everything the error path reads lives on the heap: locals changed between setjmp and
    // longjmp are indeterminate afterwards (C11 7.13.2.1).
    // One filter for every row: deflate_rows compresses the filtered rows; else libpng packs,
    // filters and compresses row by row.
    int deflated = options->filter >= 0;
    if (!deflated && alpha_if_needed && has_transparency(rgba, width, height, row_bytes)) channels++;
    png_sink *sink = calloc(1, sizeof *sink);
    // libpng's rows: one packed row and pack_row's scratch.
    uint8_t *row = deflated ? NULL : malloc((size_t)width * channels + 1 + 4 * (size_t)width);
    png_structp png = sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_error, on_warning) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rows = ROWS_FILTERED;
    if (info && deflated) {
        rows = filter_rows(rgba, width, height, row_bytes, options, channels, alpha_if_needed, &sink->filtered);
        if (rows == ROWS_TRANSPARENT) {
            channels++;
            rows = filter_rows(rgba, width, height, row_bytes, options, channels, 0, &sink->filtered);
        }
    }
    if (!info || rows == ROWS_FAILED || (!deflated && !row)) {
        png_destroy_write_struct(&png, &info);
        free(row);
        if (sink) free(sink->filtered);
        free(sink);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) return write_failed(png, info, row, sink, err);
    png_set_write_fn(png, sink, write_memory, flush_memory);
    if (!deflated) {
        // libpng's own rows only: the filtered rows are deflated and written here.
        png_set_compression_level(png, options->compression_level);
        png_set_filter(png, 0, PNG_ALL_FILTERS);
    }
    png_set_IHDR(png, info, width, height, 8, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    set_profile(png, info, options->icc, options->icc_length);
    png_write_info(png, info);
    if (deflated) {
        write_image_data(png, sink, sink->filtered, ((size_t)width * channels + 1) * height, options->compression_level, options->threads);
    } else {
        for (uint32_t y = 0; y < height; y++) {
            pack_row(rgba + (size_t)y * row_bytes, row, width, channels, options->premultiplied, row + (size_t)width * channels + 1);
            png_write_row(png, row);
        }
        png_write_end(png, info);
    }
    png_destroy_write_struct(&png, &info);
    free(sink->filtered);
    free(row);
    *out = sink->data;
    *out_size = sink->size;
    free(sink);
    return FROST_OK;
}

frost_status frost_png_encode16(const uint16_t *rgba, uint32_t width, uint32_t height, int channels, int compression_level,
                                const uint8_t *icc, uint32_t icc_length, uint8_t **out, size_t *out_size, frost_error *err) {
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                       PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4) return frost_fail(err, FROST_ERR_ENCODE, "bad channel count %d", channels);
    png_sink *sink;
    uint8_t *row;
    png_structp png;
    png_infop info;
    if (open_writer((size_t)width * channels * 2, compression_level, &sink, &row, &png, &info, err) != FROST_OK) return FROST_ERR_MEMORY;
    if (setjmp(png_jmpbuf(png))) return write_failed(png, info, row, sink, err);
    png_set_IHDR(png, info, width, height, 16, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    set_profile(png, info, icc, icc_length);
    png_write_info(png, info);
    // Gray is R, gray with alpha R and A; samples big-endian, as PNG stores them.
    static const int picks[5][4] = {{0}, {0}, {0, 3}, {0, 1, 2}, {0, 1, 2, 3}};
    for (uint32_t y = 0; y < height; y++) {
        const uint16_t *source = rgba + (size_t)y * width * 4;
        uint8_t *target = row;
        for (uint32_t x = 0; x < width; x++) {
            for (int c = 0; c < channels; c++) {
                uint16_t v = source[4 * x + picks[channels][c]];
                *target++ = (uint8_t)(v >> 8);
                *target++ = (uint8_t)(v & 0xFF);
            }
        }
        png_write_row(png, row);
    }
    return finish_writer(png, info, row, sink, out, out_size);
}

frost_status frost_png_encode_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette,
                                      uint32_t count, int compression_level, const uint8_t *icc, uint32_t icc_length,
                                      uint8_t **out, size_t *out_size, frost_error *err) {
    if (count < 1 || count > 256) return frost_fail(err, FROST_ERR_ENCODE, "a palette of %u entries", count);
    int bits = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8;
    png_sink *sink;
    uint8_t *row;
    png_structp png;
    png_infop info;
    if (open_writer(((size_t)width * bits + 7) / 8 + 1, compression_level, &sink, &row, &png, &info, err) != FROST_OK) return FROST_ERR_MEMORY;
    if (setjmp(png_jmpbuf(png))) return write_failed(png, info, row, sink, err);
    png_set_IHDR(png, info, width, height, bits, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color colors[256];
    png_byte alphas[256];
    int last_translucent = -1;
    for (uint32_t i = 0; i < count; i++) {
        colors[i] = (png_color){palette[4 * i], palette[4 * i + 1], palette[4 * i + 2]};
        alphas[i] = palette[4 * i + 3];
        if (alphas[i] < 255) last_translucent = (int)i;
    }
    png_set_PLTE(png, info, colors, (int)count);
    // tRNS lists alphas up to the last entry that is not opaque; the rest are opaque.
    if (last_translucent >= 0) png_set_tRNS(png, info, alphas, last_translucent + 1, NULL);
    set_profile(png, info, icc, icc_length);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = indices + (size_t)y * width;
        if (bits == 8) {
            memcpy(row, source, width);
        } else {
            // Pixels packed from the high bits of each byte (PNG, 7.2).
            memset(row, 0, ((size_t)width * bits + 7) / 8);
            for (uint32_t x = 0; x < width; x++)
                row[(size_t)x * bits / 8] |= (uint8_t)(source[x] << (8 - bits - (int)((size_t)x * bits % 8)));
        }
        png_write_row(png, row);
    }
    return finish_writer(png, info, row, sink, out, out_size);
}

frost_status frost_png_stream_header(uint32_t width, uint32_t height, int channels, const uint8_t *icc, uint32_t icc_length,
                                     uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    if (channels != 1 && channels != 3) return frost_fail(err, FROST_ERR_ENCODE, "a streamed PNG has 1 or 3 channels, not %d", channels);
    png_sink *sink;
    uint8_t *row;
    png_structp png;
    png_infop info;
    if (open_writer(1, 1, &sink, &row, &png, &info, err) != FROST_OK) return FROST_ERR_MEMORY;
    if (setjmp(png_jmpbuf(png))) return write_failed(png, info, row, sink, err);
    png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    set_profile(png, info, icc, icc_length);
    png_write_info(png, info);
    // The rows and IEND are the caller's: libpng's writer is dropped after the header.
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = sink->data;
    *out_size = sink->size;
    free(sink);
    return FROST_OK;
}

frost_status frost_png_stream_strip(const uint8_t *rgba, uint32_t width, uint32_t rows, size_t row_bytes, int channels,
                                    int first, int last, uint8_t **out, size_t *out_size, uint32_t *adler,
                                    size_t *filtered_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    size_t n = (size_t)width * (size_t)channels, stride = n + 1, total = stride * rows;
    uint8_t *filtered = malloc(total), *packed = calloc(2 * n + 4 * (size_t)width, 1);
    uint8_t *chunk = filtered && packed ? malloc(8 + 2 + frost_deflate_runs_bound(total) + 4) : NULL;
    if (!chunk) {
        free(filtered);
        free(packed);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    uint8_t *prior = packed, *row = packed + n;   // the row above the image's first: zeros
    for (uint32_t y = 0; y < rows; y++) {
        pack_row(rgba + (size_t)y * row_bytes, row, width, channels, 0, packed + 2 * n);
        filter_row(y == 0 && !first ? 1 : 4, row, prior, n, (size_t)channels, filtered + (size_t)y * stride);
        uint8_t *swap = prior; prior = row; row = swap;
    }
    uint8_t *data = chunk + 8;
    size_t length = 0;
    if (first) {
        data[0] = 0x78;   // deflate, 32 KiB window
        data[1] = 0x01;   // fastest, as frost_deflate_runs
        length = 2;
    }
    size_t piece = frost_deflate_runs_piece(filtered, total, last, data + length);
    *adler = (uint32_t)libdeflate_adler32(1, filtered, total);
    *filtered_size = total;
    free(filtered);
    free(packed);
    if (piece == 0) {
        free(chunk);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    *out_size = finish_chunk(chunk, "IDAT", length + piece);
    *out = chunk;
    return FROST_OK;
}

void frost_png_stream_end(const uint32_t *adlers, const size_t *filtered_sizes, size_t strips, uint8_t out[28]) {
    uint32_t adler = 1;
    for (size_t k = 0; k < strips; k++) adler = frost_adler32_combine(adler, adlers[k], filtered_sizes[k]);
    uint8_t *data = out + 8;
    data[0] = (uint8_t)(adler >> 24); data[1] = (uint8_t)(adler >> 16); data[2] = (uint8_t)(adler >> 8); data[3] = (uint8_t)adler;
    size_t idat = finish_chunk(out, "IDAT", 4);
    finish_chunk(out + idat, "IEND", 0);
}
