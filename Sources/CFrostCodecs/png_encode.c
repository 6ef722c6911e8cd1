// PNG encoding over libpng into a growing memory buffer.
#include "CFrostCodecs.h"
#include "error.h"
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
} png_sink;

static void on_error(png_structp png, png_const_charp message) {
    png_sink *sink = png_get_error_ptr(png);
    snprintf(sink->message, sizeof sink->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void write_memory(png_structp png, png_bytep bytes, size_t length) {
    png_sink *sink = png_get_io_ptr(png);
    if (length > sink->capacity - sink->size) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (length > capacity - sink->size) capacity *= 2;
        uint8_t *grown = realloc(sink->data, capacity);
        if (!grown) { sink->out_of_memory = 1; png_error(png, "out of memory"); }
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, length);
    sink->size += length;
}

static void flush_memory(png_structp png) { (void)png; }

// Picks the output channels from one RGBA8 row.
static void pack_row(const uint8_t *rgba, uint8_t *out, uint32_t width, int channels) {
    switch (channels) {
    case 1: for (uint32_t x = 0; x < width; x++) out[x] = rgba[4 * x]; break;
    case 2:
        for (uint32_t x = 0; x < width; x++) { out[2 * x] = rgba[4 * x]; out[2 * x + 1] = rgba[4 * x + 3]; }
        break;
    case 3:
        for (uint32_t x = 0; x < width; x++) memcpy(out + 3 * x, rgba + 4 * x, 3);
        break;
    default: memcpy(out, rgba, (size_t)width * 4); break;
    }
}

frost_status frost_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                              const frost_png_write_options *options, uint8_t **out, size_t *out_size,
                              frost_error *err) {
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                       PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    int channels = options->channels;
    if (channels < 1 || channels > 4) return frost_fail(err, FROST_ERR_ENCODE, "bad channel count %d", channels);

    // Everything the error path reads lives on the heap: locals changed between setjmp and
    // longjmp are indeterminate afterwards (C11 7.13.2.1).
    png_sink *sink = calloc(1, sizeof *sink);
    uint8_t *row = malloc((size_t)width * channels + 1);
    png_structp png = sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_error, on_warning) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || !row) {
        png_destroy_write_struct(&png, NULL);
        free(row);
        free(sink);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        frost_status status = sink->out_of_memory ? FROST_ERR_MEMORY : FROST_ERR_ENCODE;
        frost_fail(err, status, "%s", sink->message);
        free(sink->data);
        free(sink);
        return status;
    }
    png_set_write_fn(png, sink, write_memory, flush_memory);
    png_set_compression_level(png, options->compression_level);
    png_set_compression_strategy(png, options->strategy);
    if (options->filter >= 0) png_set_filter(png, 0, PNG_FILTER_NONE << options->filter);
    else png_set_filter(png, 0, PNG_ALL_FILTERS);
    png_set_IHDR(png, info, width, height, 8, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (options->icc && options->icc_length > 0) {
        // libpng checks the profile; a profile it rejects is dropped with a warning, never fatal.
        png_set_benign_errors(png, 1);
        png_set_iCCP(png, info, "ICC Profile", 0, options->icc, options->icc_length);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        pack_row(rgba + (size_t)y * row_bytes, row, width, channels);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = sink->data;
    *out_size = sink->size;
    free(sink);
    return FROST_OK;
}
