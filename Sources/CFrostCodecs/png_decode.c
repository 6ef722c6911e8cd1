// PNG decoding over libpng, from a memory buffer. See CFrostCodecs.h for the two-phase contract.
// libpng reads the header chunks; the pixels of the common files come from png_direct.c.
#include "CFrostCodecs.h"
#include "error.h"
#include "png_direct.h"
#include "CFrostSystem.h"
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct frost_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    png_bytep *rows;            // row pointers for png_read_image, freed in destroy
    int libpng_only;            // frost_png_decoder_use_libpng_only
    int read_direct;            // the pixels came from png_direct.c
    int reading_image;          // png_read_image has begun: rows before an error are whole
    int stopped;                // ended by the stop flag (on_row)
    char message[256];          // libpng's last error text
};

// Ancillary chunks Frost never uses: skipping them avoids decompressing text bombs (zTXt/iTXt) and
// allocating for absurd lengths. tRNS, iCCP, eXIf and the colour chunks (sRGB, gAMA, cHRM) are kept.
static const png_byte ignored_chunks[] =
    "bKGD\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sTER\0tEXt\0tIME\0zTXt";

static void on_error(png_structp png, png_const_charp message) {
    frost_png_decoder *d = png_get_error_ptr(png);
    snprintf(d->message, sizeof d->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;  // libpng warnings (bad ancillary CRCs, unknown sRGB profiles) are not failures
}

// After each row libpng reads (each pass's, interlaced): the work ends when told to stop
// (CFrostSystem's stop flag: a server's request past its deadline).
static void on_row(png_structp png, png_uint_32 row, int pass) {
    (void)row;
    (void)pass;
    if (!frost_stopped()) return;
    frost_png_decoder *d = png_get_error_ptr(png);
    d->stopped = 1;
    png_error(png, "stopped");
}

static void read_memory(png_structp png, png_bytep out, size_t length) {
    frost_png_decoder *d = png_get_io_ptr(png);
    if (length > d->size - d->offset) png_error(png, "unexpected end of file");
    memcpy(out, d->data + d->offset, length);
    d->offset += length;
}

frost_png_decoder *frost_png_decoder_create(const uint8_t *data, size_t size,
                                            uint32_t max_width, uint32_t max_height) {
    frost_png_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = size;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning);
    if (!d->png) { free(d); return NULL; }
    d->info = png_create_info_struct(d->png);
    if (!d->info) { png_destroy_read_struct(&d->png, NULL, NULL); free(d); return NULL; }
    png_set_read_fn(d->png, d, read_memory);
    png_set_read_status_fn(d->png, on_row);
    // A broken ICC profile is dropped with a warning (libpng's default for benign errors); the
    // sRGB-profile blacklist check is skipped because it flags real, usable profiles. Structural
    // chunk errors are caught before libpng runs (PNGStructure.swift).
    png_set_option(d->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_set_user_limits(d->png, max_width, max_height);
    png_set_chunk_cache_max(d->png, 1000);
    png_set_chunk_malloc_max(d->png, 16u << 20);  // iCCP/eXIf larger than 16 MiB are refused
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks,
                                (int)(sizeof ignored_chunks / 5));
    return d;
}

frost_status frost_png_read_header(frost_png_decoder *d, frost_png_info *info, frost_error *err) {
    if (setjmp(png_jmpbuf(d->png))) return frost_fail(err, FROST_ERR_CORRUPT, "%s", d->message);
    png_read_info(d->png, d->info);
    memset(info, 0, sizeof *info);
    info->width = png_get_image_width(d->png, d->info);
    info->height = png_get_image_height(d->png, d->info);
    info->bit_depth = png_get_bit_depth(d->png, d->info);
    info->color_type = png_get_color_type(d->png, d->info);
    info->interlaced = png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE;
    info->has_trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0;

    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (png_get_iCCP(d->png, d->info, &name, &compression, &profile, &profile_length)) {
        info->icc = profile;
        info->icc_length = profile_length;
    }
    // Colour without a profile (PNG 1.2, 11.3.3): sRGB, else gAMA and cHRM. Read only; libpng
    // corrects no gamma unless asked, so the samples stay as stored.
    int intent;
    info->srgb = png_get_sRGB(d->png, d->info, &intent) != 0;
    png_fixed_point gamma;
    if (png_get_gAMA_fixed(d->png, d->info, &gamma)) info->gamma = (uint32_t)gamma;
    double c[8];
    if (png_get_cHRM(d->png, d->info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])) {
        info->has_chrm = 1;
        memcpy(info->chrm, c, sizeof c);
    }
    png_bytep exif;
    png_uint_32 exif_length;
    if (png_get_eXIf_1(d->png, d->info, &exif_length, &exif)) {
        info->exif = exif;
        info->exif_length = exif_length;
    }
    return FROST_OK;
}

// libpng's transforms to RGBA at 8 or 16 bits; no gamma or sBIT handling (raw samples).
static void expand_to_rgba(png_structp png, png_infop info) {
    int color_type = png_get_color_type(png, info), bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, bit_depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
    if (bit_depth == 16) {
        const uint16_t probe = 1;
        if (*(const uint8_t *)&probe == 1) png_set_swap(png);  // little-endian host
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

frost_status frost_png_start_rows(frost_png_decoder *d, frost_error *err) {
    if (setjmp(png_jmpbuf(d->png))) return frost_fail(err, FROST_ERR_CORRUPT, "%s", d->message);
    if (png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE || png_get_bit_depth(d->png, d->info) > 8)
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "only 8-bit rows that are not interlaced are read one at a time");
    expand_to_rgba(d->png, d->info);
    return FROST_OK;
}

frost_status frost_png_read_rows(frost_png_decoder *d, uint8_t *const *rows, uint32_t count, int last, frost_error *err) {
    if (setjmp(png_jmpbuf(d->png))) return frost_fail(err, d->stopped ? FROST_ERR_STOPPED : FROST_ERR_CORRUPT, "%s", d->message);
    png_read_rows(d->png, (png_bytepp)rows, NULL, count);
    if (last) png_read_end(d->png, NULL);
    return FROST_OK;
}

frost_status frost_png_read_pixels(frost_png_decoder *d, void *pixels, size_t row_bytes,
                                   int allow_truncated, int *truncated, frost_error *err) {
    png_structp png = d->png;
    png_infop info = d->info;
    *truncated = 0;
    if (setjmp(png_jmpbuf(png))) {
        if (d->stopped) return frost_fail(err, FROST_ERR_STOPPED, "stopped");
        if (allow_truncated && d->reading_image) {
            *truncated = 1;
            return FROST_OK;
        }
        return frost_fail(err, FROST_ERR_CORRUPT, "%s", d->message);
    }

    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    uint32_t height = png_get_image_height(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    static const int channels_of_type[7] = {1, 0, 3, 0, 2, 0, 4};
    if (!d->libpng_only && bit_depth == 8 && color_type != PNG_COLOR_TYPE_PALETTE && !has_trns
        && png_get_interlace_type(png, info) == PNG_INTERLACE_NONE
        && frost_png_read_direct(d->data, d->size, png_get_image_width(png, info), height,
                                 channels_of_type[color_type], pixels, row_bytes)) {
        d->read_direct = 1;
        return FROST_OK;
    }

    expand_to_rgba(png, info);
    d->rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!d->rows) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    for (uint32_t y = 0; y < height; y++) d->rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    // What a cut file leaves unread is transparent black (the direct read may have written some).
    if (allow_truncated) memset(pixels, 0, (size_t)height * row_bytes);
    d->reading_image = 1;
    png_read_image(png, d->rows);
    png_read_end(png, NULL);  // checks the zlib stream's end, the trailing chunks' CRCs and IEND
    return FROST_OK;
}

void frost_png_decoder_use_libpng_only(frost_png_decoder *d) { d->libpng_only = 1; }

int frost_png_decoder_read_direct(const frost_png_decoder *d) { return d->read_direct; }

void frost_png_decoder_destroy(frost_png_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->rows);
    free(d);
}
