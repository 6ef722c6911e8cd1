// JPEG encoding over libjpeg-turbo into memory.
#include "CFrostCodecs.h"
#include "error.h"
#include "CFrostSystem.h"
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} error_manager;

typedef struct {
    struct jpeg_compress_struct cinfo;
    error_manager error;
    unsigned char *buffer;       // jpeg_mem_dest output
    unsigned long size;
    uint8_t *gray_row;
    int stopped;                 // ended by the stop flag, between rows
} encoder;

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    e->base.format_message(cinfo, e->message);
    longjmp(e->jump, 1);
}

frost_status frost_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_jpeg_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err) {
    // Heap state so the error path reads defined values after longjmp.
    encoder *e = calloc(1, sizeof *e);
    if (!e) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    cinfo->err = jpeg_std_error(&e->error.base);
    e->error.base.error_exit = on_error_exit;
    if (setjmp(e->error.jump)) {
        frost_status status = e->stopped ? FROST_ERR_STOPPED : FROST_ERR_ENCODE;
        frost_fail(err, status, "%s", e->error.message);
        jpeg_destroy_compress(cinfo);
        free(e->buffer);
        free(e->gray_row);
        free(e);
        return status;
    }
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, &e->buffer, &e->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    if (options->gray) {
        cinfo->input_components = 1;
        cinfo->in_color_space = JCS_GRAYSCALE;
        e->gray_row = malloc(width ? width : 1);
        if (!e->gray_row) { snprintf(e->error.message, sizeof e->error.message, "out of memory"); longjmp(e->error.jump, 1); }
    } else {
        cinfo->input_components = 4;
        cinfo->in_color_space = JCS_EXT_RGBA;
    }
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, options->quality, TRUE);
    if (!options->gray) {
        int h = options->subsample_420 ? 2 : 1;
        cinfo->comp_info[0].h_samp_factor = h;
        cinfo->comp_info[0].v_samp_factor = h;
        cinfo->comp_info[1].h_samp_factor = cinfo->comp_info[1].v_samp_factor = 1;
        cinfo->comp_info[2].h_samp_factor = cinfo->comp_info[2].v_samp_factor = 1;
    }
    if (options->progressive) jpeg_simple_progression(cinfo);
    if (options->restart_rows > 0) cinfo->restart_in_rows = options->restart_rows;
    jpeg_start_compress(cinfo, TRUE);
    if (options->icc && options->icc_length > 0) jpeg_write_icc_profile(cinfo, options->icc, options->icc_length);
    while (cinfo->next_scanline < height) {
        // Told to stop (CFrostSystem's stop flag): checked every 64 rows.
        if ((cinfo->next_scanline & 63) == 0 && frost_stopped()) {
            e->stopped = 1;
            snprintf(e->error.message, sizeof e->error.message, "stopped");
            longjmp(e->error.jump, 1);
        }
        const uint8_t *src = rgba + (size_t)cinfo->next_scanline * row_bytes;
        JSAMPROW row = (JSAMPROW)src;
        if (options->gray) {
            for (uint32_t x = 0; x < width; x++) e->gray_row[x] = src[4 * x];
            row = e->gray_row;
        }
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    jpeg_destroy_compress(cinfo);
    *out = e->buffer;
    *out_size = e->size;
    free(e->gray_row);
    free(e);
    return FROST_OK;
}
