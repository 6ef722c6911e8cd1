// HEIC (HEIF with HEVC) through libheif: read with libde265, which applies the file's crop (clap),
// rotation (irot) and mirror (imir) unless asked not to; written with x265.
#include "CFrostCodecs.h"
#include "error.h"
#include "lazy_library.h"
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEIF_CALLS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) X(heif_decode_image) X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) X(heif_image_get_height) X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) X(heif_image_handle_get_color_profile_type) X(heif_image_handle_get_height) \
    X(heif_image_handle_get_ispe_height) X(heif_image_handle_get_ispe_width) X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) X(heif_image_handle_get_metadata_content_type) X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_raw_color_profile) X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha) X(heif_image_handle_release) \
    X(heif_image_release) X(heif_init) X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_context_get_encoder_for_format) X(heif_encoder_release) X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_lossless) X(heif_encoder_set_parameter_string) X(heif_image_create) X(heif_image_add_plane) \
    X(heif_image_get_plane) X(heif_image_set_raw_color_profile) X(heif_image_set_nclx_color_profile) \
    X(heif_nclx_color_profile_alloc) X(heif_nclx_color_profile_free) X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) X(heif_context_encode_image) X(heif_context_add_exif_metadata) \
    X(heif_context_add_XMP_metadata) X(heif_context_write) X(heif_image_handle_get_nclx_color_profile)

LAZY_LIBRARY(heif, HEIF_CALLS)

struct frost_heic_decoder {
    struct heif_context *context;
    struct heif_image_handle *handle;
    int transform;
    uint32_t width, height;
    int has_alpha;
    uint8_t *icc, *exif, *xmp;    // copies: libheif hands metadata out by copying
};

static pthread_once_t heif_started = PTHREAD_ONCE_INIT;
// The soname of the libheif these headers are (Debian 12's libheif1); its plugins start with heif_init.
static void start_heif(void) {
    if ((heif_loaded = load_heif_calls("libheif.so.1", &heif))) heif.heif_init(NULL);
}

static frost_status heif_fail(frost_error *err, struct heif_error error, const char *what) {
    switch (error.code) {
    case heif_error_Memory_allocation_error: return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    case heif_error_Unsupported_feature: case heif_error_Unsupported_filetype:
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "%s (%s)", error.message, what);
    default:
        if (error.subcode == heif_suberror_End_of_data)
            return frost_fail(err, FROST_ERR_TRUNCATED, "file ends early (%s)", what);
        return frost_fail(err, FROST_ERR_CORRUPT, "%s (%s)", error.message, what);
    }
}

void frost_heic_free(frost_heic_decoder *d) {
    if (!d) return;
    if (d->handle) heif.heif_image_handle_release(d->handle);
    if (d->context) heif.heif_context_free(d->context);
    free(d->icc);
    free(d->exif);
    free(d->xmp);
    free(d);
}

// The first metadata block of `type` (and, when given, `content_type`) as a malloc'd copy.
static uint8_t *metadata_block(const struct heif_image_handle *handle, const char *type, const char *content_type,
                               size_t *length) {
    heif_item_id ids[16];
    int count = heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, type, ids, 16);
    for (int i = 0; i < count; i++) {
        if (content_type && strcmp(heif.heif_image_handle_get_metadata_content_type(handle, ids[i]), content_type) != 0) continue;
        size_t size = heif.heif_image_handle_get_metadata_size(handle, ids[i]);
        uint8_t *bytes = size ? malloc(size) : NULL;
        if (!bytes) return NULL;
        if (heif.heif_image_handle_get_metadata(handle, ids[i], bytes).code != heif_error_Ok) {
            free(bytes);
            return NULL;
        }
        *length = size;
        return bytes;
    }
    return NULL;
}

static frost_status need_heif(frost_error *err) {
    pthread_once(&heif_started, start_heif);
    return heif_loaded ? FROST_OK
                       : frost_fail(err, FROST_ERR_UNSUPPORTED, "HEIC needs libheif.so.1 (Debian: libheif1), which cannot be loaded");
}

frost_status frost_heic_open(const uint8_t *data, size_t size, int transform, frost_heic_decoder **out,
                             frost_heif_info *info, frost_error *err) {
    frost_status loaded = need_heif(err);
    if (loaded != FROST_OK) return loaded;
    *out = NULL;
    memset(info, 0, sizeof *info);
    info->mirror = -1;
    frost_heic_decoder *d = calloc(1, sizeof *d);
    if (!d || !(d->context = heif.heif_context_alloc())) {
        free(d);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    struct heif_error error = heif.heif_context_read_from_memory_without_copy(d->context, data, size, NULL);
    if (error.code == heif_error_Ok) error = heif.heif_context_get_primary_image_handle(d->context, &d->handle);
    if (error.code != heif_error_Ok) {
        // The message lives in the context: copied out before the context goes.
        frost_status status = heif_fail(err, error, "header");
        frost_heic_free(d);
        return status;
    }
    d->transform = transform;
    int width = transform ? heif.heif_image_handle_get_width(d->handle) : heif.heif_image_handle_get_ispe_width(d->handle);
    int height = transform ? heif.heif_image_handle_get_height(d->handle) : heif.heif_image_handle_get_ispe_height(d->handle);
    if (width <= 0 || height <= 0) {
        frost_heic_free(d);
        return frost_fail(err, FROST_ERR_CORRUPT, "the primary image has no size");
    }
    info->width = d->width = (uint32_t)width;
    info->height = d->height = (uint32_t)height;
    int depth = heif.heif_image_handle_get_luma_bits_per_pixel(d->handle);
    info->depth = depth > 0 ? (uint32_t)depth : 8;
    info->has_alpha = d->has_alpha = heif.heif_image_handle_has_alpha_channel(d->handle);
    info->premultiplied = heif.heif_image_handle_is_premultiplied_alpha(d->handle);
    info->frames = 1;
    enum heif_color_profile_type profile = heif.heif_image_handle_get_color_profile_type(d->handle);
    struct heif_color_profile_nclx *nclx = NULL;
    // libheif can hand out a profile with an error (an nclx of unknown values): freed either way.
    if (heif.heif_image_handle_get_nclx_color_profile(d->handle, &nclx).code == heif_error_Ok && nclx) {
        info->cicp_primaries = nclx->color_primaries;
        info->cicp_transfer = nclx->transfer_characteristics;
        info->cicp_matrix = nclx->matrix_coefficients;
    }
    if (nclx) heif.heif_nclx_color_profile_free(nclx);
    if (profile == heif_color_profile_type_prof || profile == heif_color_profile_type_rICC) {
        size_t length = heif.heif_image_handle_get_raw_color_profile_size(d->handle);
        if (length && (d->icc = malloc(length)) &&
            heif.heif_image_handle_get_raw_color_profile(d->handle, d->icc).code == heif_error_Ok) {
            info->icc = d->icc;
            info->icc_length = length;
        }
    }
    // HEIF's EXIF item starts with a 4-byte offset to the TIFF header (ISO/IEC 23008-12, A.2.1).
    size_t length = 0;
    if ((d->exif = metadata_block(d->handle, "Exif", NULL, &length)) && length > 4) {
        size_t offset = 4 + ((size_t)d->exif[0] << 24 | (size_t)d->exif[1] << 16 | (size_t)d->exif[2] << 8 | d->exif[3]);
        if (offset < length) {
            info->exif = d->exif + offset;
            info->exif_length = length - offset;
            if (info->exif_length >= 6 && memcmp(info->exif, "Exif\0\0", 6) == 0) { info->exif += 6; info->exif_length -= 6; }
        }
    }
    length = 0;
    if ((d->xmp = metadata_block(d->handle, "mime", "application/rdf+xml", &length))) {
        info->xmp = d->xmp;
        info->xmp_length = length;
    }
    *out = d;
    return FROST_OK;
}

frost_status frost_heic_read_pixels(frost_heic_decoder *d, uint8_t *rgba, size_t row_bytes, frost_error *err) {
    struct heif_decoding_options *options = heif.heif_decoding_options_alloc();
    if (!options) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    options->ignore_transformations = !d->transform;
    options->convert_hdr_to_8bit = 1;     // 10-bit files read down to 8
    struct heif_image *image = NULL;
    struct heif_error error = heif.heif_decode_image(d->handle, &image, heif_colorspace_RGB,
                                                d->has_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                options);
    heif.heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) return heif_fail(err, error, "pixels");
    int stride = 0;
    const uint8_t *plane = heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int width = heif.heif_image_get_width(image, heif_channel_interleaved);
    int height = heif.heif_image_get_height(image, heif_channel_interleaved);
    if (!plane || width != (int)d->width || height != (int)d->height) {
        heif.heif_image_release(image);
        return frost_fail(err, FROST_ERR_CORRUPT, "the decoded picture is %dx%d, the header says %ux%u",
                          width, height, d->width, d->height);
    }
    for (uint32_t y = 0; y < d->height; y++) {
        const uint8_t *source = plane + (size_t)y * (size_t)stride;
        uint8_t *row = rgba + y * row_bytes;
        if (d->has_alpha) {
            memcpy(row, source, (size_t)d->width * 4);
        } else {
            for (uint32_t x = 0; x < d->width; x++) {
                row[4 * x] = source[3 * x];
                row[4 * x + 1] = source[3 * x + 1];
                row[4 * x + 2] = source[3 * x + 2];
                row[4 * x + 3] = 255;
            }
        }
    }
    heif.heif_image_release(image);
    return FROST_OK;
}

// ---------------------------------------------------------------- writing

static frost_status encode_fail(frost_error *err, struct heif_error error, const char *what) {
    if (error.code == heif_error_Memory_allocation_error) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    return frost_fail(err, FROST_ERR_ENCODE, "%s (%s)", error.message, what);
}

// x265's presets, fastest first: effort 0...9.
static const char *const presets[] = {"ultrafast", "superfast", "veryfast", "faster", "fast",
                                      "medium", "slow", "slower", "veryslow", "placebo"};

typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
} heic_output;

static struct heif_error append(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    heic_output *o = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    if (o->size + size > o->capacity) {
        size_t capacity = o->capacity ? o->capacity : 1 << 16;
        while (capacity < o->size + size) capacity *= 2;
        uint8_t *grown = realloc(o->bytes, capacity);
        if (!grown) {
            struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
            return error;
        }
        o->bytes = grown;
        o->capacity = capacity;
    }
    memcpy(o->bytes + o->size, data, size);
    o->size += size;
    return ok;
}

// The picture as libheif takes it. Lossy: interleaved RGB(A), which libheif turns into YCbCr by
// `nclx`'s matrix (BT.601, full range). Lossless: planes G, B, R (and A) given as Y, Cb, Cr under
// the identity matrix (GBR), so that no conversion rounds: the pixels come back bit for bit.
static struct heif_error make_picture(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes, int alpha,
                                      int lossless, struct heif_image **out) {
    struct heif_image *image = NULL;
    struct heif_error error;
    int w = (int)width, h = (int)height;
    if (lossless) {
        error = heif.heif_image_create(w, h, heif_colorspace_YCbCr, heif_chroma_444, &image);
        const enum heif_channel channels[4] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr, heif_channel_Alpha};
        const int source[4] = {1, 2, 0, 3};   // G, B, R, A
        for (int c = 0; c < 3 + alpha && error.code == heif_error_Ok; c++) {
            error = heif.heif_image_add_plane(image, channels[c], w, h, 8);
            if (error.code != heif_error_Ok) break;
            int stride = 0;
            uint8_t *plane = heif.heif_image_get_plane(image, channels[c], &stride);
            for (uint32_t y = 0; y < height; y++) {
                const uint8_t *row = rgba + y * row_bytes;
                uint8_t *to = plane + (size_t)y * (size_t)stride;
                for (uint32_t x = 0; x < width; x++) to[x] = row[4 * x + source[c]];
            }
        }
    } else {
        error = heif.heif_image_create(w, h, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
        if (error.code == heif_error_Ok) error = heif.heif_image_add_plane(image, heif_channel_interleaved, w, h, 8);
        if (error.code == heif_error_Ok) {
            int stride = 0;
            uint8_t *plane = heif.heif_image_get_plane(image, heif_channel_interleaved, &stride);
            for (uint32_t y = 0; y < height; y++) {
                const uint8_t *row = rgba + y * row_bytes;
                uint8_t *to = plane + (size_t)y * (size_t)stride;
                if (alpha) {
                    memcpy(to, row, (size_t)width * 4);
                } else {
                    for (uint32_t x = 0; x < width; x++) memcpy(to + 3 * x, row + 4 * x, 3);
                }
            }
        }
    }
    if (error.code != heif_error_Ok && image) {
        heif.heif_image_release(image);
        image = NULL;
    }
    *out = image;
    return error;
}

frost_status frost_heic_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_heif_write_options *options, uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    frost_status loaded = need_heif(err);
    if (loaded != FROST_OK) return loaded;
    if (width == 0 || height == 0) return frost_fail(err, FROST_ERR_ENCODE, "cannot write an empty image");
    if (options->quality < 1 || options->quality > 100 || options->effort < 0 || options->effort > 9)
        return frost_fail(err, FROST_ERR_ENCODE, "HEIC quality %d or effort %d out of range", options->quality, options->effort);
    const int lossless = options->quality == 100, alpha = options->has_alpha != 0;
    struct heif_context *context = heif.heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_encoding_options *encoding = heif.heif_encoding_options_alloc();
    struct heif_color_profile_nclx *nclx = heif.heif_nclx_color_profile_alloc();
    heic_output output = {0};
    frost_status status = FROST_OK;
    if (!context || !encoding || !nclx) {
        status = frost_fail(err, FROST_ERR_MEMORY, "out of memory");
        goto done;
    }
    struct heif_error error = heif.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder);
    if (error.code != heif_error_Ok) {
        status = frost_fail(err, FROST_ERR_UNSUPPORTED, "this libheif has no HEVC encoder (x265): %s", error.message);
        goto done;
    }
    error = lossless ? heif.heif_encoder_set_lossless(encoder, 1) : heif.heif_encoder_set_lossy_quality(encoder, options->quality);
    // Colour at full resolution from quality 90 up (and lossless), at half below, as for AVIF and JPEG.
    if (error.code == heif_error_Ok)
        error = heif.heif_encoder_set_parameter_string(encoder, "chroma", lossless || options->quality >= 90 ? "444" : "420");
    if (error.code == heif_error_Ok) error = heif.heif_encoder_set_parameter_string(encoder, "preset", presets[options->effort]);
    if (error.code == heif_error_Ok && options->threads > 0) {
        // x265's thread pool: as many workers as the caller was granted (x265 would take every core).
        char pools[16];
        snprintf(pools, sizeof pools, "%d", options->threads);
        error = heif.heif_encoder_set_parameter_string(encoder, "x265:pools", pools);
    }
    // sRGB said in the nclx: BT.709 primaries, the sRGB transfer, BT.601's matrix (GBR's identity
    // for lossless), full range, as Frost's AVIF says in its CICP.
    // With an ICC profile the nclx (written for its matrix) leaves the colours unspecified: one signal.
    // A picture whose colours CICP said keeps saying them that way, without the ICC profile.
    int cicp = options->cicp_primaries > 0, icc = options->icc_length && !cicp;
    nclx->color_primaries = cicp ? (enum heif_color_primaries)options->cicp_primaries
        : icc ? heif_color_primaries_unspecified : heif_color_primaries_ITU_R_BT_709_5;
    nclx->transfer_characteristics = cicp ? (enum heif_transfer_characteristics)options->cicp_transfer
        : icc ? heif_transfer_characteristic_unspecified : heif_transfer_characteristic_IEC_61966_2_1;
    nclx->matrix_coefficients = lossless ? heif_matrix_coefficients_RGB_GBR : heif_matrix_coefficients_ITU_R_BT_601_6;
    nclx->full_range_flag = 1;
    if (error.code == heif_error_Ok) error = make_picture(rgba, width, height, row_bytes, alpha, lossless, &image);
    // libheif writes the primaries and transfer of the image's own nclx, not of output_nclx_profile.
    if (error.code == heif_error_Ok && (lossless || cicp)) error = heif.heif_image_set_nclx_color_profile(image, nclx);
    if (error.code == heif_error_Ok && icc)
        error = heif.heif_image_set_raw_color_profile(image, "prof", options->icc, options->icc_length);
    if (error.code != heif_error_Ok) {
        status = encode_fail(err, error, "encoder set-up");
        goto done;
    }
    encoding->save_alpha_channel = (uint8_t)alpha;
    encoding->output_nclx_profile = nclx;
    // libheif leaves the nclx box out by default (old macOS showed such files wrong); colours said by
    // CICP alone need it.
    if (cicp) encoding->macOS_compatibility_workaround_no_nclx_profile = 0;
    // Both colr boxes where there is an ICC profile: the nclx carries the matrix the decoder needs.
    encoding->save_two_colr_boxes_when_ICC_and_nclx_available = 1;
    struct heif_image_handle *handle = NULL;
    error = heif.heif_context_encode_image(context, image, encoder, encoding, &handle);
    if (error.code == heif_error_Ok && options->exif_length)
        error = heif.heif_context_add_exif_metadata(context, handle, options->exif, (int)options->exif_length);
    if (error.code == heif_error_Ok && options->xmp_length)
        error = heif.heif_context_add_XMP_metadata(context, handle, options->xmp, (int)options->xmp_length);
    if (handle) heif.heif_image_handle_release(handle);
    if (error.code == heif_error_Ok) {
        struct heif_writer writer = {.writer_api_version = 1, .write = append};
        error = heif.heif_context_write(context, &writer, &output);
    }
    if (error.code != heif_error_Ok) {
        status = encode_fail(err, error, "encoding");
        free(output.bytes);
        goto done;
    }
    *out = output.bytes;
    *out_size = output.size;
done:
    if (nclx) heif.heif_nclx_color_profile_free(nclx);
    if (encoding) heif.heif_encoding_options_free(encoding);
    if (image) heif.heif_image_release(image);
    if (encoder) heif.heif_encoder_release(encoder);
    if (context) heif.heif_context_free(context);
    return status;
}
