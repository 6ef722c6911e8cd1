// WebP through libwebp: still images, lossy (VP8, with or without ALPH) and lossless (VP8L), and
// animations (libwebpmux's encoder, libwebpdemux's decoder). The container's ICCP chunk is read
// through libwebpdemux and written through libwebpmux.
#include "CFrostCodecs.h"
#include "error.h"
#include "CFrostSystem.h"
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

static frost_status status_of(VP8StatusCode code, frost_error *err, const char *what) {
    switch (code) {
    case VP8_STATUS_OK: return FROST_OK;
    case VP8_STATUS_OUT_OF_MEMORY: return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    case VP8_STATUS_NOT_ENOUGH_DATA: return frost_fail(err, FROST_ERR_TRUNCATED, "file ends early (%s)", what);
    case VP8_STATUS_UNSUPPORTED_FEATURE: return frost_fail(err, FROST_ERR_UNSUPPORTED, "unsupported feature (%s)", what);
    default: return frost_fail(err, FROST_ERR_CORRUPT, "bad bitstream (%s)", what);
    }
}

frost_status frost_webp_read_header(const uint8_t *data, size_t size, frost_webp_info *info, frost_error *err) {
    memset(info, 0, sizeof *info);
    WebPBitstreamFeatures features;
    frost_status status = status_of(WebPGetFeatures(data, size, &features), err, "header");
    if (status != FROST_OK) return status;
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    info->has_alpha = features.has_alpha;
    info->animated = features.has_animation;
    info->lossless = features.format == 2;
    // The ICC profile and the EXIF block sit in chunks of their own in the extended (VP8X)
    // container; the demuxer points into `data` without copying. A file too short for the demuxer
    // simply has neither here: reading its pixels reports the truncation.
    WebPData whole = {data, size};
    WebPDemuxer *demux = WebPDemux(&whole);
    if (demux) {
        info->frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        info->loops = (int)WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT);
        WebPIterator frame;
        if (info->animated && WebPDemuxGetFrame(demux, 1, &frame)) {
            do info->duration_ms += (uint64_t)(frame.duration > 0 ? frame.duration : 0);
            while (WebPDemuxNextFrame(&frame));
            WebPDemuxReleaseIterator(&frame);
        }
        if (WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) {
            WebPChunkIterator chunk;
            if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
                info->icc = chunk.chunk.bytes;
                info->icc_length = (uint32_t)chunk.chunk.size;
                WebPDemuxReleaseChunkIterator(&chunk);
            }
        }
        if (WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG) {
            WebPChunkIterator chunk;
            if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
                const uint8_t *exif = chunk.chunk.bytes;
                size_t length = chunk.chunk.size;
                // The container holds TIFF data; some writers (exiftool among them) keep JPEG's prefix.
                if (length >= 6 && memcmp(exif, "Exif\0\0", 6) == 0) { exif += 6; length -= 6; }
                info->exif = exif;
                info->exif_length = (uint32_t)length;
                WebPDemuxReleaseChunkIterator(&chunk);
            }
        }
        WebPDemuxDelete(demux);
    }
    return FROST_OK;
}

frost_status frost_webp_read_pixels(const uint8_t *data, size_t size, uint8_t *rgba, size_t row_bytes,
                                    uint32_t width, uint32_t height, frost_error *err) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return frost_fail(err, FROST_ERR_UNSUPPORTED, "libwebp version mismatch");
    // A smaller size than the file's is libwebp's scaled decoding (its area-averaging rescaler).
    WebPBitstreamFeatures *features = &config.input;
    if (WebPGetFeatures(data, size, features) == VP8_STATUS_OK &&
        ((uint32_t)features->width != width || (uint32_t)features->height != height)) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)width;
        config.options.scaled_height = (int)height;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = rgba;
    config.output.u.RGBA.stride = (int)row_bytes;
    config.output.u.RGBA.size = row_bytes * height;
    VP8StatusCode code = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
    return status_of(code, err, "pixels");
}

static const char *picture_error(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY: case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "image too large for WebP (at most 16383 pixels a side)";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "partition overflow";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "file too big for WebP (4 GiB)";
    default: return "encoding failed";
    }
}

// The encoder settings `options` ask for: lossless at an effort preset 0...9 (libwebp's -z), with
// `exact` keeping the color under transparent pixels so straight RGBA comes back bit for bit; or
// lossy at a quality with the method 0...6 (libwebp's -m: 0 fastest … 6 smallest).
static frost_status configure(WebPConfig *config, const frost_webp_write_options *options, frost_error *err) {
    if (!WebPConfigInit(config)) return frost_fail(err, FROST_ERR_ENCODE, "libwebp version mismatch");
    if (options->quality < 0) {
        WebPConfigLosslessPreset(config, options->effort);
        config->exact = 1;
    } else {
        config->quality = (float)options->quality;
        config->method = options->effort < 6 ? options->effort : 6;
    }
    return FROST_OK;
}

// RGBA8 rows (straight alpha; the alpha bytes ignored without `has_alpha`) as a picture to encode.
// libwebp's progress hook: 0 aborts the encode, when the work was told to stop (CFrostSystem's
// stop flag: a server's request past its deadline).
static int keep_going(int percent, const WebPPicture *picture) {
    (void)percent;
    (void)picture;
    return !frost_stopped();
}

static frost_status import_picture(WebPPicture *picture, const uint8_t *rgba, uint32_t width, uint32_t height,
                                   size_t row_bytes, int has_alpha, int use_argb, frost_error *err) {
    if (!WebPPictureInit(picture)) return frost_fail(err, FROST_ERR_ENCODE, "libwebp version mismatch");
    picture->width = (int)width;
    picture->height = (int)height;
    picture->use_argb = use_argb;
    int imported = has_alpha ? WebPPictureImportRGBA(picture, rgba, (int)row_bytes)
                             : WebPPictureImportRGBX(picture, rgba, (int)row_bytes);
    if (!imported) {
        WebPPictureFree(picture);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    return FROST_OK;
}

// `in` with an ICCP chunk (the mux rewrites a simple container as VP8X, the chunk before the
// bitstream or the animation); 0 if the mux fails (`out` then empty).
static int with_icc(const WebPData *in, const uint8_t *icc, size_t length, WebPData *out) {
    WebPDataInit(out);
    WebPMux *mux = WebPMuxCreate(in, 0);
    WebPData profile = {icc, length};
    int ok = mux && WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK && WebPMuxAssemble(mux, out) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    if (!ok) WebPDataClear(out);
    return ok;
}

frost_status frost_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_webp_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err) {
    *out = NULL;
    *out_size = 0;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION)
        return frost_fail(err, FROST_ERR_ENCODE, "%ux%u is too large for WebP (at most %d pixels a side)",
                          width, height, WEBP_MAX_DIMENSION);
    WebPConfig config;
    frost_status status = configure(&config, options, err);
    if (status != FROST_OK) return status;
    WebPPicture picture;
    status = import_picture(&picture, rgba, width, height, row_bytes, options->has_alpha, config.lossless, err);
    if (status != FROST_OK) return status;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    picture.progress_hook = keep_going;
    int encoded = WebPEncode(&config, &picture);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        if (code == VP8_ENC_ERROR_USER_ABORT) return frost_fail(err, FROST_ERR_STOPPED, "stopped");
        return frost_fail(err, FROST_ERR_ENCODE, "%s", picture_error(code));
    }
    WebPData result = {writer.mem, writer.size};
    WebPData assembled = {NULL, 0};
    if (options->icc && options->icc_length > 0) {
        if (!with_icc(&result, options->icc, options->icc_length, &assembled)) {
            WebPMemoryWriterClear(&writer);
            return frost_fail(err, FROST_ERR_ENCODE, "cannot add the ICC profile");
        }
        result = assembled;
    }
    // Copied so the caller frees every codec's output alike (frost_free).
    *out = malloc(result.size ? result.size : 1);
    if (*out) {
        memcpy(*out, result.bytes, result.size);
        *out_size = result.size;
    }
    WebPMemoryWriterClear(&writer);
    WebPDataClear(&assembled);
    return *out ? FROST_OK : frost_fail(err, FROST_ERR_MEMORY, "out of memory");
}

struct frost_webp_animation {
    WebPAnimEncoder *encoder;
    WebPConfig config;
    uint32_t width, height;
    int has_alpha;
    int loops;
    int frames, last_start_ms;   // frames added, and when the last one starts
    uint8_t *icc;                // a copy of the profile the file carries, or NULL
    size_t icc_length;
};

frost_status frost_webp_animation_new(uint32_t width, uint32_t height, const frost_webp_write_options *options,
                                      frost_webp_animation **out, frost_error *err) {
    *out = NULL;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION)
        return frost_fail(err, FROST_ERR_ENCODE, "%ux%u is too large for WebP (at most %d pixels a side)",
                          width, height, WEBP_MAX_DIMENSION);
    frost_webp_animation *a = calloc(1, sizeof *a);
    if (!a) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    WebPAnimEncoderOptions anim;
    if (configure(&a->config, options, err) != FROST_OK || !WebPAnimEncoderOptionsInit(&anim)) {
        free(a);
        return frost_fail(err, FROST_ERR_ENCODE, "libwebp version mismatch");
    }
    // Frames go in one at a time (each is diffed against the one before): libwebp's own second
    // thread (lossy analysis and filtering) is the parallelism there is.
    a->config.thread_level = 1;
    anim.anim_params.loop_count = options->loops;
    a->width = width;
    a->height = height;
    a->has_alpha = options->has_alpha;
    a->loops = options->loops;
    a->encoder = WebPAnimEncoderNew((int)width, (int)height, &anim);
    if (options->icc && options->icc_length > 0 && (a->icc = malloc(options->icc_length))) {
        memcpy(a->icc, options->icc, options->icc_length);
        a->icc_length = options->icc_length;
    }
    if (!a->encoder || (options->icc && options->icc_length > 0 && !a->icc)) {
        WebPAnimEncoderDelete(a->encoder);
        free(a->icc);
        free(a);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    *out = a;
    return FROST_OK;
}

frost_status frost_webp_animation_add(frost_webp_animation *a, const uint8_t *rgba, size_t row_bytes,
                                      int timestamp_ms, frost_error *err) {
    WebPPicture picture;   // ARGB: the animation encoder works on ARGB canvases
    frost_status status = import_picture(&picture, rgba, a->width, a->height, row_bytes, a->has_alpha, 1, err);
    if (status != FROST_OK) return status;
    int added = WebPAnimEncoderAdd(a->encoder, &picture, timestamp_ms, &a->config);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!added) {
        const char *message = WebPAnimEncoderGetError(a->encoder);
        return frost_fail(err, FROST_ERR_ENCODE, "%s", message && *message ? message : picture_error(code));
    }
    a->frames++;
    a->last_start_ms = timestamp_ms;
    return FROST_OK;
}

// libwebp's encoder merges a frame equal to the one before into it, so an animation of equal frames
// comes out as a still image: remuxed here as two frames of that one image (the last frame's
// duration, and the rest before it), so that it stays an animation of its duration and loop count.
static int remux_as_animation(const frost_webp_animation *a, int end_ms, WebPData *data) {
    WebPMux *still = WebPMuxCreate(data, 1), *animation = WebPMuxNew();
    WebPMuxFrameInfo image;
    memset(&image, 0, sizeof image);
    WebPData rebuilt = {NULL, 0};
    int last = end_ms - a->last_start_ms > 0 ? end_ms - a->last_start_ms : 1;
    WebPMuxAnimParams params = {0, a->loops};
    int ok = still && animation && WebPMuxGetFrame(still, 1, &image) == WEBP_MUX_OK &&
             WebPMuxSetAnimationParams(animation, &params) == WEBP_MUX_OK && end_ms > last;
    image.id = WEBP_CHUNK_ANMF;
    image.x_offset = image.y_offset = 0;
    image.dispose_method = WEBP_MUX_DISPOSE_NONE;
    image.blend_method = WEBP_MUX_NO_BLEND;
    if (ok) {
        image.duration = end_ms - last;
        ok = WebPMuxPushFrame(animation, &image, 1) == WEBP_MUX_OK;
    }
    if (ok) {
        image.duration = last;
        ok = WebPMuxPushFrame(animation, &image, 1) == WEBP_MUX_OK && WebPMuxAssemble(animation, &rebuilt) == WEBP_MUX_OK;
    }
    WebPDataClear(&image.bitstream);
    WebPMuxDelete(still);
    WebPMuxDelete(animation);
    if (!ok) return 0;
    WebPDataClear(data);
    *data = rebuilt;
    return 1;
}

frost_status frost_webp_animation_assemble(frost_webp_animation *a, int end_ms, uint8_t **out, size_t *out_size,
                                           frost_error *err) {
    *out = NULL;
    *out_size = 0;
    WebPData data = {NULL, 0};
    // A NULL frame at the end time closes the last frame's duration.
    if (!WebPAnimEncoderAdd(a->encoder, NULL, end_ms, NULL) || !WebPAnimEncoderAssemble(a->encoder, &data)) {
        const char *message = WebPAnimEncoderGetError(a->encoder);
        return frost_fail(err, FROST_ERR_ENCODE, "%s", message && *message ? message : "cannot assemble the animation");
    }
    WebPBitstreamFeatures features;
    if (a->frames > 1 && WebPGetFeatures(data.bytes, data.size, &features) == VP8_STATUS_OK && !features.has_animation &&
        !remux_as_animation(a, end_ms, &data)) {
        WebPDataClear(&data);
        return frost_fail(err, FROST_ERR_ENCODE, "cannot write an animation of equal frames");
    }
    if (a->icc) {
        WebPData tagged;
        const int ok = with_icc(&data, a->icc, a->icc_length, &tagged);
        WebPDataClear(&data);
        if (!ok) return frost_fail(err, FROST_ERR_ENCODE, "cannot add the ICC profile");
        data = tagged;
    }
    *out = malloc(data.size ? data.size : 1);
    if (*out) {
        memcpy(*out, data.bytes, data.size);
        *out_size = data.size;
    }
    WebPDataClear(&data);
    return *out ? FROST_OK : frost_fail(err, FROST_ERR_MEMORY, "out of memory");
}

void frost_webp_animation_free(frost_webp_animation *a) {
    if (!a) return;
    WebPAnimEncoderDelete(a->encoder);
    free(a->icc);
    free(a);
}

frost_status frost_webp_animation_decode(const uint8_t *data, size_t size, uint64_t max_pixels, uint32_t first,
                                         uint32_t count, uint32_t *width, uint32_t *height, uint32_t *frames,
                                         uint8_t **rgba, int **delays_ms, frost_error *err) {
    *rgba = NULL;
    *delays_ms = NULL;
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return frost_fail(err, FROST_ERR_UNSUPPORTED, "libwebp version mismatch");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {data, size};
    // The decoder allocates two canvases as it is made: a canvas larger than the budget is refused
    // from the container's header first (a 16383² canvas over one small frame asked for 4.3 GB).
    WebPDemuxer *demux = WebPDemux(&whole);
    if (!demux) return frost_fail(err, FROST_ERR_CORRUPT, "not a WebP animation libwebp can read");
    const uint32_t canvas_width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH), canvas_height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    WebPDemuxDelete(demux);
    if ((uint64_t)canvas_width * canvas_height > max_pixels)
        return frost_fail(err, FROST_ERR_TOO_LARGE, "a canvas of %ux%u is more than %llu pixels", canvas_width, canvas_height,
                          (unsigned long long)max_pixels);
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (!decoder) return frost_fail(err, FROST_ERR_CORRUPT, "not a WebP animation libwebp can read");
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(decoder, &info) || info.frame_count == 0) {
        WebPAnimDecoderDelete(decoder);
        return frost_fail(err, FROST_ERR_CORRUPT, "no frames");
    }
    if (first >= info.frame_count) {
        WebPAnimDecoderDelete(decoder);
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "there is no frame %u: the file has %u (--frame counts from 0)", first, info.frame_count);
    }
    if (count == 0 || count > info.frame_count - first) count = info.frame_count - first;
    uint64_t pixels = (uint64_t)info.canvas_width * info.canvas_height * count;
    if (pixels > max_pixels) {
        WebPAnimDecoderDelete(decoder);
        return frost_fail(err, FROST_ERR_TOO_LARGE, "%u frames of %ux%u are more than %llu pixels", count,
                          info.canvas_width, info.canvas_height, (unsigned long long)max_pixels);
    }
    size_t frame_bytes = (size_t)info.canvas_width * info.canvas_height * 4;
    *rgba = malloc(frame_bytes * count);
    *delays_ms = malloc(sizeof(int) * count);
    if (!*rgba || !*delays_ms) {
        WebPAnimDecoderDelete(decoder);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    // Frames before `first` are decoded onto the canvas and passed over; each frame shows from the
    // previous one's timestamp to its own.
    uint32_t n = 0, decoded = 0;
    int previous = 0;
    while (n < count && WebPAnimDecoderHasMoreFrames(decoder)) {
        uint8_t *canvas;
        int timestamp;
        if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp)) break;
        if (decoded++ >= first) {
            memcpy(*rgba + frame_bytes * n, canvas, frame_bytes);
            (*delays_ms)[n++] = timestamp - previous;
        }
        previous = timestamp;
    }
    WebPAnimDecoderDelete(decoder);
    *width = info.canvas_width;
    *height = info.canvas_height;
    *frames = n;
    return n == count ? FROST_OK : frost_fail(err, FROST_ERR_CORRUPT, "frame %u of %u cannot be decoded", first + n, info.frame_count);
}
