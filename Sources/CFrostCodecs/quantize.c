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

frost_status frost_quantize(const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t count,
                            const frost_quantize_options *options, uint8_t *indices, uint8_t *palette,
                            uint32_t *palette_count, int *transparent, frost_error *err) {
    *palette_count = 0;
    *transparent = -1;
    size_t pixels = (size_t)width * height;
    const uint8_t *source = rgba;
    uint8_t *binary = NULL;
    if (options->binary_alpha) {
        // GIF has one transparent index and nothing between: alpha below 128 is that, the rest opaque.
        if (!(binary = malloc(pixels * 4 * count))) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
        for (size_t i = 0; i < pixels * count; i++) {
            const uint8_t *p = rgba + 4 * i;
            uint8_t *q = binary + 4 * i;
            if (p[3] < 128) memset(q, 0, 4);
            else { q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; q[3] = 255; }
        }
        source = binary;
    }
    liq_attr *attr = liq_attr_create();
    liq_histogram *histogram = attr ? liq_histogram_create(attr) : NULL;
    liq_image **images = calloc(count, sizeof *images);
    liq_result *result = NULL;
    frost_status status = FROST_OK;
    liq_error code = LIQ_OK;
    if (!attr || !histogram || !images) { status = frost_fail(err, FROST_ERR_MEMORY, "out of memory"); goto done; }
    if ((code = liq_set_max_colors(attr, options->colors)) != LIQ_OK ||
        (code = liq_set_speed(attr, options->speed)) != LIQ_OK) { status = liq_fail(err, code); goto done; }
    if (options->reserve_transparent) {
        liq_color clear = {0, 0, 0, 0};
        if ((code = liq_histogram_add_fixed_color(histogram, clear, 0)) != LIQ_OK) { status = liq_fail(err, code); goto done; }
    }
    for (uint32_t k = 0; k < count; k++) {
        images[k] = liq_image_create_rgba(attr, source + pixels * 4 * k, (int)width, (int)height, 0);
        if (!images[k]) { status = frost_fail(err, FROST_ERR_MEMORY, "out of memory"); goto done; }
        if ((code = liq_histogram_add_image(histogram, attr, images[k])) != LIQ_OK) { status = liq_fail(err, code); goto done; }
    }
    if ((code = liq_histogram_quantize(histogram, attr, &result)) != LIQ_OK) { status = liq_fail(err, code); goto done; }
    liq_set_dithering_level(result, options->dither);
    for (uint32_t k = 0; k < count; k++) {
        if ((code = liq_write_remapped_image(result, images[k], indices + pixels * k, pixels)) != LIQ_OK) {
            status = liq_fail(err, code);
            goto done;
        }
    }
    const liq_palette *entries = liq_get_palette(result);
    *palette_count = entries->count;
    for (unsigned i = 0; i < entries->count; i++) {
        palette[4 * i] = entries->entries[i].r;
        palette[4 * i + 1] = entries->entries[i].g;
        palette[4 * i + 2] = entries->entries[i].b;
        palette[4 * i + 3] = entries->entries[i].a;
        if (entries->entries[i].a == 0 && *transparent < 0) *transparent = (int)i;
    }
    if (options->binary_alpha && *transparent >= 0) {
        // Every entry libimagequant made below half opacity shows as the transparent one.
        for (size_t i = 0; i < pixels * count; i++)
            if (palette[4 * indices[i] + 3] < 128) indices[i] = (uint8_t)*transparent;
    }
done:
    if (result) liq_result_destroy(result);
    for (uint32_t k = 0; images && k < count; k++) if (images[k]) liq_image_destroy(images[k]);
    free(images);
    if (histogram) liq_histogram_destroy(histogram);
    if (attr) liq_attr_destroy(attr);
    free(binary);
    return status;
}
