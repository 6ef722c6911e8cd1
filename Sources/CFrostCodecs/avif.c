// AVIF through libavif: decoding with whatever AV1 decoder it prefers (dav1d here), encoding with
// aom. aom was chosen by measuring (docs/formats.md, "AVIF"): at the same quantizer it wrote the
// smallest files several times faster than rav1e and SVT-AV1 (which also takes 4:2:0 only).
#include "CFrostCodecs.h"
#include "error.h"
#include "lazy_library.h"
#include <avif/avif.h>
#include <stdlib.h>
#include <string.h>

#define AVIF_CALLS(X) \
    X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderNthImage) X(avifDecoderNthImageTiming) X(avifDecoderParse) X(avifDecoderSetIOMemory) \
    X(avifEncoderCreate) X(avifEncoderDestroy) X(avifEncoderWrite) X(avifImageCreate) X(avifImageDestroy) \
    X(avifImageRGBToYUV) X(avifImageSetMetadataExif) X(avifImageSetMetadataXMP) X(avifImageSetProfileICC) \
    X(avifImageYUVToRGB) X(avifRGBImageSetDefaults) X(avifRWDataFree) X(avifResultToString)

LAZY_LIBRARY(avif, AVIF_CALLS)
static pthread_once_t avif_once = PTHREAD_ONCE_INIT;
// The soname of the libavif these headers are (Debian 12's libavif15).
static void load_avif(void) { avif_loaded = load_avif_calls("libavif.so.15", &avif); }

static frost_status need_avif(frost_error *err) {
    pthread_once(&avif_once, load_avif);
    return avif_loaded ? FROST_OK
                       : frost_fail(err, FROST_ERR_UNSUPPORTED, "AVIF needs libavif.so.15 (Debian: libavif15), which cannot be loaded");
}

struct frost_avif_decoder {
    avifDecoder *decoder;
};

static frost_status avif_fail(frost_error *err, avifResult result, const char *what) {
    switch (result) {
    case AVIF_RESULT_OUT_OF_MEMORY: return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    case AVIF_RESULT_TRUNCATED_DATA: return frost_fail(err, FROST_ERR_TRUNCATED, "file ends early (%s)", what);
    case AVIF_RESULT_NO_CODEC_AVAILABLE: case AVIF_RESULT_NOT_IMPLEMENTED: case AVIF_RESULT_UNSUPPORTED_DEPTH:
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "%s (%s)", avif.avifResultToString(result), what);
    default: return frost_fail(err, FROST_ERR_CORRUPT, "%s (%s)", avif.avifResultToString(result), what);
    }
}

static int chroma_of(avifPixelFormat format) {
    switch (format) {
    case AVIF_PIXEL_FORMAT_YUV444: return 444;
    case AVIF_PIXEL_FORMAT_YUV422: return 422;
    case AVIF_PIXEL_FORMAT_YUV420: return 420;
    case AVIF_PIXEL_FORMAT_YUV400: return 400;
    default: return 0;
    }
}

frost_status frost_avif_open(const uint8_t *data, size_t size, int threads, uint32_t max_pixels, uint32_t max_side,
                             frost_avif_decoder **out, frost_heif_info *info, frost_error *err) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    info->mirror = -1;
    frost_status loaded = need_avif(err);
    if (loaded != FROST_OK) return loaded;
    avifDecoder *decoder = avif.avifDecoderCreate();
    if (!decoder) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    decoder->maxThreads = threads > 0 ? threads : 1;
    // Files from encoders that leave out a `pixi` box or write an odd clean aperture are common;
    // browsers show them, and so does Frost.
    decoder->strictFlags = AVIF_STRICT_DISABLED;
    avifResult result = avif.avifDecoderSetIOMemory(decoder, data, size);
    if (result == AVIF_RESULT_OK) result = avif.avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        avif.avifDecoderDestroy(decoder);
        return avif_fail(err, result, "header");
    }
    // The AV1 decoder (dav1d, made at the first frame) refuses a frame past these whatever the
    // header says: an `ispe` box can claim 100×100 for a frame of 12000×12000, which was decoded
    // whole. Set after the header is read, which the caller checks against its limits in its words.
    if (max_pixels && max_pixels < decoder->imageSizeLimit) decoder->imageSizeLimit = max_pixels;
    if (max_side && (!decoder->imageDimensionLimit || max_side < decoder->imageDimensionLimit)) decoder->imageDimensionLimit = max_side;
    const avifImage *image = decoder->image;
    info->width = image->width;
    info->height = image->height;
    info->depth = image->depth;
    info->has_alpha = decoder->alphaPresent;
    info->chroma = chroma_of(image->yuvFormat);
    info->frames = decoder->imageCount > 0 ? (uint32_t)decoder->imageCount : 1;
    info->duration = decoder->imageCount > 1 ? decoder->duration : 0;
    if (image->transformFlags & AVIF_TRANSFORM_IROT) info->rotation = image->irot.angle & 3;
    if (image->transformFlags & AVIF_TRANSFORM_IMIR) info->mirror = image->imir.mode & 1;
    info->icc = image->icc.data;
    info->icc_length = image->icc.size;
    // libavif reports 2 (unspecified) for each field the file does not say.
    info->cicp_primaries = image->colorPrimaries;
    info->cicp_transfer = image->transferCharacteristics;
    info->cicp_matrix = image->matrixCoefficients;
    info->exif = image->exif.data;
    info->exif_length = image->exif.size;
    info->xmp = image->xmp.data;
    info->xmp_length = image->xmp.size;
    frost_avif_decoder *d = malloc(sizeof *d);
    if (!d) {
        avif.avifDecoderDestroy(decoder);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    d->decoder = decoder;
    *out = d;
    return FROST_OK;
}

frost_status frost_avif_read_pixels(frost_avif_decoder *d, uint32_t frame, uint8_t *rgba, size_t row_bytes,
                                    frost_error *err) {
    avifDecoder *decoder = d->decoder;
    uint32_t width = decoder->image->width, height = decoder->image->height;
    avifResult result = avif.avifDecoderNthImage(decoder, frame);
    if (result != AVIF_RESULT_OK) return avif_fail(err, result, "pixels");
    // The frame must be the size the header promised: that is what the caller allocated.
    if (decoder->image->width != width || decoder->image->height != height)
        return frost_fail(err, FROST_ERR_CORRUPT, "the picture is %ux%u, the header says %ux%u",
                          decoder->image->width, decoder->image->height, width, height);
    avifRGBImage rgb;
    avif.avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;                  // 10- and 12-bit files are read down to 8 by libavif
    rgb.alphaPremultiplied = 0;     // libavif un-premultiplies a premultiplied file
    rgb.pixels = rgba;
    rgb.rowBytes = (uint32_t)row_bytes;
    result = avif.avifImageYUVToRGB(decoder->image, &rgb);
    return result == AVIF_RESULT_OK ? FROST_OK : avif_fail(err, result, "colour conversion");
}

frost_status frost_avif_frame_duration(frost_avif_decoder *d, uint32_t frame, double *seconds, frost_error *err) {
    avifImageTiming timing;
    avifResult result = avif.avifDecoderNthImageTiming(d->decoder, frame, &timing);
    if (result != AVIF_RESULT_OK) return avif_fail(err, result, "frame timing");
    *seconds = timing.duration;
    return FROST_OK;
}

void frost_avif_free(frost_avif_decoder *d) {
    if (!d) return;
    avif.avifDecoderDestroy(d->decoder);
    free(d);
}

frost_status frost_avif_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_heif_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err) {
    *out = NULL;
    *out_size = 0;
    frost_status loaded = need_avif(err);
    if (loaded != FROST_OK) return loaded;
    int lossless = options->quality >= 100;
    avifPixelFormat format = lossless || options->quality >= 90 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420;
    avifImage *image = avif.avifImageCreate(width, height, 8, format);
    if (!image) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    // sRGB, said in the CICP fields as avifenc does (BT.709 primaries, sRGB transfer, BT.601
    // matrix) so that a decoder does not have to guess; with an ICC profile the profile says the
    // colours and the CICP leaves them unspecified (one signal, never two that disagree). Lossless
    // needs every sample kept: RGB stored as it is (the identity matrix). Full range either way.
    // A picture whose colours CICP said keeps saying them that way.
    int cicp = options->cicp_primaries > 0;
    image->colorPrimaries = cicp ? (avifColorPrimaries)options->cicp_primaries
        : options->icc_length ? AVIF_COLOR_PRIMARIES_UNSPECIFIED : AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = cicp ? (avifTransferCharacteristics)options->cicp_transfer
        : options->icc_length ? AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED : AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601;
    image->yuvRange = AVIF_RANGE_FULL;
    if (options->icc_length && !cicp) avif.avifImageSetProfileICC(image, options->icc, options->icc_length);
    if (options->exif_length) avif.avifImageSetMetadataExif(image, options->exif, options->exif_length);
    if (options->xmp_length) avif.avifImageSetMetadataXMP(image, options->xmp, options->xmp_length);
    if (options->rotation & 3) {
        image->transformFlags |= AVIF_TRANSFORM_IROT;
        image->irot.angle = (uint8_t)(options->rotation & 3);
    }
    if (options->mirror >= 0) {
        image->transformFlags |= AVIF_TRANSFORM_IMIR;
        image->imir.mode = (uint8_t)(options->mirror & 1);
    }
    avifRGBImage rgb;
    avif.avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.ignoreAlpha = !options->has_alpha;   // no alpha plane for an opaque picture
    rgb.depth = 8;
    rgb.pixels = (uint8_t *)rgba;
    rgb.rowBytes = (uint32_t)row_bytes;
    avifResult result = avif.avifImageRGBToYUV(image, &rgb);
    if (result != AVIF_RESULT_OK) {
        avif.avifImageDestroy(image);
        return frost_fail(err, FROST_ERR_ENCODE, "%s", avif.avifResultToString(result));
    }
    avifEncoder *encoder = avif.avifEncoderCreate();
    if (!encoder) {
        avif.avifImageDestroy(image);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
    encoder->maxThreads = options->threads > 0 ? options->threads : 1;
    int effort = options->effort < 0 ? 0 : options->effort > 9 ? 9 : options->effort;
    encoder->speed = 10 - effort;
    // libavif 1.0's quality scale, which avifenc, libvips and sharp share: quantizer
    // (100 − q)·63/100, rounded; 0 is lossless.
    int quantizer = lossless ? AVIF_QUANTIZER_LOSSLESS : ((100 - options->quality) * 63 + 50) / 100;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    avifRWData output = AVIF_DATA_EMPTY;
    result = avif.avifEncoderWrite(encoder, image, &output);
    avif.avifEncoderDestroy(encoder);
    avif.avifImageDestroy(image);
    if (result != AVIF_RESULT_OK) {
        avif.avifRWDataFree(&output);
        return result == AVIF_RESULT_OUT_OF_MEMORY ? frost_fail(err, FROST_ERR_MEMORY, "out of memory")
                                                   : frost_fail(err, FROST_ERR_ENCODE, "%s", avif.avifResultToString(result));
    }
    // The caller frees with frost_free (free): a buffer of our own, not libavif's allocator's.
    *out = malloc(output.size);
    if (!*out) {
        avif.avifRWDataFree(&output);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    memcpy(*out, output.data, output.size);
    *out_size = output.size;
    avif.avifRWDataFree(&output);
    return FROST_OK;
}
