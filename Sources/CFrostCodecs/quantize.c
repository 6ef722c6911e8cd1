// Palettes through libimagequant (pngquant's library): one palette for all the pictures given (an
// animation's frames share it, so still parts keep their colours from frame to frame), then each
// picture remapped to it with Floyd–Steinberg dithering.
#include "CFrostCodecs.h"
#include "error.h"
#include <libimagequant.h>
#include <stdlib.h>
#include <string.h>

static frost_status liq_fail(frost_error *err, liq_error code) {
    switch (code) {
    case LIQ_OUT_OF_MEMORY: return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    case LIQ_QUALITY_TOO_LOW: return frost_fail(err, FROST_ERR_ENCODE, "libimagequant: the palette cannot reach the quality asked");
    case LIQ_VALUE_OUT_OF_RANGE: return frost_fail(err, FROST_ERR_ENCODE, "libimagequant: a setting out of range");
    default: return frost_fail(err, FROST_ERR_ENCODE, "libimagequant failed (error %d)", (int)code);
    }
}

struct frost_palette_builder {
    frost_quantize_options options;
    liq_attr *attr;
    liq_histogram *histogram;
    liq_result *result;
    uint8_t palette[1024];
    uint32_t count;
    int transparent;
    uint8_t *binary;           // one picture with its alpha made binary
    size_t binary_pixels;
};

void frost_palette_free(frost_palette_builder *builder) {
    if (!builder) return;
    if (builder->result) liq_result_destroy(builder->result);
    if (builder->histogram) liq_histogram_destroy(builder->histogram);
    if (builder->attr) liq_attr_destroy(builder->attr);
    free(builder->binary);
    free(builder);
}

frost_status frost_palette_create(const frost_quantize_options *options, frost_palette_builder **out, frost_error *err) {
    frost_palette_builder *builder = *out = calloc(1, sizeof *builder);
    if (!builder) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    builder->options = *options;
    builder->transparent = -1;
    builder->attr = liq_attr_create();
    builder->histogram = builder->attr ? liq_histogram_create(builder->attr) : NULL;
    if (!builder->histogram) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    liq_error code;
    if ((code = liq_set_max_colors(builder->attr, options->colors)) != LIQ_OK ||
        (code = liq_set_speed(builder->attr, options->speed)) != LIQ_OK) return liq_fail(err, code);
    return FROST_OK;
}

void frost_palette_reserve_transparent(frost_palette_builder *builder) { builder->options.reserve_transparent = 1; }

// The picture as libimagequant reads it: with binary alpha, alpha below 128 is one fully
// transparent colour (GIF's one transparent index, nothing between) and the rest opaque.
static const uint8_t *picture(frost_palette_builder *builder, const uint8_t *rgba, size_t pixels, frost_error *err) {
    if (!builder->options.binary_alpha) return rgba;
    if (builder->binary_pixels < pixels) {
        free(builder->binary);
        builder->binary_pixels = 0;
        if (!(builder->binary = malloc(pixels * 4))) { frost_fail(err, FROST_ERR_MEMORY, "out of memory"); return NULL; }
        builder->binary_pixels = pixels;
    }
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *p = rgba + 4 * i;
        uint8_t *q = builder->binary + 4 * i;
        if (p[3] < 128) memset(q, 0, 4);
        else { q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; q[3] = 255; }
    }
    return builder->binary;
}

frost_status frost_palette_add(frost_palette_builder *builder, const uint8_t *rgba, uint32_t width, uint32_t height, frost_error *err) {
    if (builder->result) return frost_fail(err, FROST_ERR_ENCODE, "the palette is already made");
    const uint8_t *source = picture(builder, rgba, (size_t)width * height, err);
    if (!source) return FROST_ERR_MEMORY;
    liq_image *image = liq_image_create_rgba(builder->attr, source, (int)width, (int)height, 0);
    if (!image) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    liq_error code = liq_histogram_add_image(builder->histogram, builder->attr, image);
    liq_image_destroy(image);
    return code == LIQ_OK ? FROST_OK : liq_fail(err, code);
}

frost_status frost_palette_finish(frost_palette_builder *builder, uint8_t *palette, uint32_t *palette_count, int *transparent,
                                  frost_error *err) {
    if (!builder->result) {
        liq_error code;
        liq_color clear = {0, 0, 0, 0};
        if (builder->options.reserve_transparent && (code = liq_histogram_add_fixed_color(builder->histogram, clear, 0)) != LIQ_OK)
            return liq_fail(err, code);
        if ((code = liq_histogram_quantize(builder->histogram, builder->attr, &builder->result)) != LIQ_OK) return liq_fail(err, code);
        liq_set_dithering_level(builder->result, builder->options.dither);
        const liq_palette *entries = liq_get_palette(builder->result);
        builder->count = entries->count;
        for (unsigned i = 0; i < entries->count; i++) {
            uint8_t *to = builder->palette + 4 * i;
            to[0] = entries->entries[i].r, to[1] = entries->entries[i].g, to[2] = entries->entries[i].b, to[3] = entries->entries[i].a;
            if (to[3] == 0 && builder->transparent < 0) builder->transparent = (int)i;
        }
    }
    memcpy(palette, builder->palette, 1024);
    *palette_count = builder->count;
    *transparent = builder->transparent;
    return FROST_OK;
}

frost_status frost_palette_remap(frost_palette_builder *builder, const uint8_t *rgba, uint32_t width, uint32_t height,
                                 uint8_t *indices, frost_error *err) {
    if (!builder->result) return frost_fail(err, FROST_ERR_ENCODE, "the palette is not made yet");
    size_t pixels = (size_t)width * height;
    const uint8_t *source = picture(builder, rgba, pixels, err);
    if (!source) return FROST_ERR_MEMORY;
    liq_image *image = liq_image_create_rgba(builder->attr, source, (int)width, (int)height, 0);
    if (!image) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    liq_error code = liq_write_remapped_image(builder->result, image, indices, pixels);
    liq_image_destroy(image);
    if (code != LIQ_OK) return liq_fail(err, code);
    if (builder->options.binary_alpha && builder->transparent >= 0) {
        // Every entry libimagequant made below half opacity shows as the transparent one.
        for (size_t i = 0; i < pixels; i++)
            if (builder->palette[4 * indices[i] + 3] < 128) indices[i] = (uint8_t)builder->transparent;
    }
    return FROST_OK;
}

frost_status frost_quantize(const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t count,
                            const frost_quantize_options *options, uint8_t *indices, uint8_t *palette,
                            uint32_t *palette_count, int *transparent, frost_error *err) {
    *palette_count = 0;
    *transparent = -1;
    size_t pixels = (size_t)width * height;
    frost_palette_builder *builder = NULL;
    frost_status status = frost_palette_create(options, &builder, err);
    for (uint32_t k = 0; k < count && status == FROST_OK; k++) status = frost_palette_add(builder, rgba + pixels * 4 * k, width, height, err);
    if (status == FROST_OK) status = frost_palette_finish(builder, palette, palette_count, transparent, err);
    for (uint32_t k = 0; k < count && status == FROST_OK; k++)
        status = frost_palette_remap(builder, rgba + pixels * 4 * k, width, height, indices + pixels * k, err);
    frost_palette_free(builder);
    return status;
}
