// JPEG decoding over libjpeg-turbo, from a memory buffer or a file. See CFrostCodecs.h.
#include "CFrostCodecs.h"
#include "error.h"
#include "CFrostSystem.h"
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int abort_on_eof;   // turn missing or corrupt entropy data into an error (no --allow-truncated)
    int hit_eof;
    char message[JMSG_LENGTH_MAX];
} error_manager;

// A progressive JPEG may repeat a refinement scan any number of times, each pass over every
// coefficient: 57 KB holding 2000 scans of a 2048² picture took 6 s of CPU, 345 KB with 20000 a
// minute. Encoders write about 10 (libjpeg's default progression; mozjpeg's tuned ones stay under
// 30), so past this many the file is refused, as djpeg's -maxscans and TurboJPEG's
// TJPARAM_SCANLIMIT do. libjpeg's progress monitor sees the scan number as each scan is read.
#define FROST_JPEG_MAX_SCANS 100

struct frost_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_progress_mgr progress;
    error_manager error;
    const uint8_t *data;
    size_t size;
    FILE *file;          // read as it decodes, instead of data
    uint8_t *icc;        // from jpeg_read_icc_profile (malloc'd)
    int started;
};

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    int parameter = e->base.msg_parm.i[0];
    if (e->base.msg_code == JERR_BAD_PRECISION) {
        snprintf(e->message, sizeof e->message, "%d-bit JPEG is not supported (8-bit samples only)", parameter);
    } else if (e->base.msg_code == JERR_SOF_UNSUPPORTED && (parameter & 3) == 3) {
        snprintf(e->message, sizeof e->message, "lossless JPEG (SOF%d) is not supported", parameter - 0xc0);
    } else {
        e->base.format_message(cinfo, e->message);
    }
    longjmp(e->jump, 1);
}

// The warnings after which libjpeg fills the rest of a scan with gray or decodes garbage: the data
// ends early, with or without an EOI marker (a cut upload, a progressive file missing its last
// scans, a header announcing more rows than the data holds), or the entropy-coded data is broken
// (a bad Huffman or arithmetic code, a lost restart marker), as libvips's fail=true and sharp's
// default failOn 'warning' refuse them (Pillow decodes past them). Warnings that lose no pixels
// (extraneous bytes before a marker, an unknown JFIF revision, a bad ICC chunk) are accepted.
static int loses_pixels(int code) {
    return code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER || code == JWRN_MUST_RESYNC ||
           code == JWRN_HUFF_BAD_CODE || code == JWRN_ARITH_BAD_CODE;
}

static void on_message(j_common_ptr cinfo, int level) {
    error_manager *e = (error_manager *)cinfo->err;
    if (level >= 0) return;  // trace messages
    int code = e->base.msg_code;
    if (code == JWRN_JPEG_EOF) e->hit_eof = 1;
    if (loses_pixels(code) && e->abort_on_eof) {
        if (code == JWRN_JPEG_EOF) {
            snprintf(e->message, sizeof e->message, "truncated JPEG data (premature end of file)");
        } else {
            char text[JMSG_LENGTH_MAX];
            e->base.format_message(cinfo, text);
            const char *prefix = "Corrupt JPEG data: ";
            const char *detail = strncmp(text, prefix, strlen(prefix)) == 0 ? text + strlen(prefix) : text;
            snprintf(e->message, sizeof e->message, "truncated or corrupt JPEG data (%s)", detail);
        }
        longjmp(e->jump, 2);
    }
    e->base.num_warnings++;
}

// Called by libjpeg between scans and rows (jdapistd.c, jdapimin.c): refuses a file past the scan
// limit, and ends the decode when the work was told to stop (CFrostSystem's stop flag).
static void on_progress(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > FROST_JPEG_MAX_SCANS) {
        snprintf(e->message, sizeof e->message, "more than %d scans (encoders write about 10)", FROST_JPEG_MAX_SCANS);
        longjmp(e->jump, 3);
    }
    if (frost_stopped()) {
        snprintf(e->message, sizeof e->message, "stopped");
        longjmp(e->jump, 4);
    }
}

static frost_status status_for(const error_manager *e, int jump_code) {
    if (jump_code == 2) return FROST_ERR_TRUNCATED;
    if (jump_code == 3) return FROST_ERR_TOO_LARGE;
    if (jump_code == 4) return FROST_ERR_STOPPED;
    switch (e->base.msg_code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED: return FROST_ERR_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY: return FROST_ERR_MEMORY;
    case JERR_IMAGE_TOO_BIG: return FROST_ERR_TOO_LARGE;
    default: return FROST_ERR_CORRUPT;
    }
}

static frost_jpeg_decoder *create(const uint8_t *data, size_t size, FILE *file) {
    frost_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = size;
    d->file = file;
    d->cinfo.err = jpeg_std_error(&d->error.base);
    d->error.base.error_exit = on_error_exit;
    d->error.base.emit_message = on_message;
    if (setjmp(d->error.jump)) { free(d); return NULL; }
    jpeg_create_decompress(&d->cinfo);
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    return d;
}

frost_jpeg_decoder *frost_jpeg_decoder_create(const uint8_t *data, size_t size) { return create(data, size, NULL); }

frost_jpeg_decoder *frost_jpeg_decoder_create_file(FILE *file) { return create(NULL, 0, file); }

// Finds the first APP1 "Exif\0\0" marker among the saved ones.
static void find_exif(frost_jpeg_decoder *d, frost_jpeg_info *info) {
    for (jpeg_saved_marker_ptr m = d->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            info->exif = m->data + 6;
            info->exif_length = m->data_length - 6;
            return;
        }
    }
}

frost_status frost_jpeg_read_header(frost_jpeg_decoder *d, frost_jpeg_info *info, frost_error *err) {
    int code = setjmp(d->error.jump);
    if (code) return frost_fail(err, status_for(&d->error, code), "%s", d->error.message);
    if (d->file) {
        jpeg_stdio_src(&d->cinfo, d->file);
    } else {
        if (d->size == 0) return frost_fail(err, FROST_ERR_CORRUPT, "empty file");
        jpeg_mem_src(&d->cinfo, d->data, (unsigned long)d->size);
    }
    jpeg_save_markers(&d->cinfo, JPEG_APP0, 0xFFFF);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 13, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);

    memset(info, 0, sizeof *info);
    info->width = d->cinfo.image_width;
    info->height = d->cinfo.image_height;
    info->components = d->cinfo.num_components;
    info->color_space = d->cinfo.jpeg_color_space;
    info->progressive = d->cinfo.progressive_mode;
    info->arithmetic = d->cinfo.arith_code;
    info->saw_adobe = d->cinfo.saw_Adobe_marker;
    unsigned int icc_length = 0;
    // Returns FALSE for missing, out-of-order-numbered or inconsistent chunk sets: the profile is dropped.
    if (jpeg_read_icc_profile(&d->cinfo, &d->icc, &icc_length)) {
        info->icc = d->icc;
        info->icc_length = icc_length;
    }
    find_exif(d, info);
    return FROST_OK;
}

int frost_jpeg_saved_marker(const frost_jpeg_decoder *d, int index, int *marker, const uint8_t **data, uint32_t *length) {
    jpeg_saved_marker_ptr m = d->cinfo.marker_list;
    for (int i = 0; m && i < index; i++) m = m->next;
    if (!m) return 0;
    *marker = m->marker;
    *data = m->data;
    *length = m->data_length;
    return 1;
}

frost_status frost_jpeg_start(frost_jpeg_decoder *d, int scale_denom, int allow_truncated,
                              uint32_t *width, uint32_t *height, frost_error *err) {
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    d->error.abort_on_eof = !allow_truncated;
    int code = setjmp(d->error.jump);
    if (code) return frost_fail(err, status_for(&d->error, code), "%s", d->error.message);
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "JPEG scale 1/%d is not 1, 1/2, 1/4 or 1/8", scale_denom);
    }
    // CMYK and YCCK come out as CMYK samples (four a pixel, like RGBA): their profile converts them.
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scale_denom;
    jpeg_start_decompress(cinfo);
    d->started = 1;
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return FROST_OK;
}

frost_status frost_jpeg_read_rows(frost_jpeg_decoder *d, uint8_t *const *rows, uint32_t count, frost_error *err) {
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    int code = setjmp(d->error.jump);
    if (code) return frost_fail(err, status_for(&d->error, code), "%s", d->error.message);
    for (uint32_t i = 0; i < count && cinfo->output_scanline < cinfo->output_height; i++) {
        JSAMPROW target = rows[i];
        jpeg_read_scanlines(cinfo, &target, 1);
    }
    return FROST_OK;
}

frost_status frost_jpeg_finish(frost_jpeg_decoder *d, frost_error *err) {
    int code = setjmp(d->error.jump);
    if (code) return frost_fail(err, status_for(&d->error, code), "%s", d->error.message);
    jpeg_finish_decompress(&d->cinfo);
    d->started = 0;
    return FROST_OK;
}

void frost_jpeg_decoder_destroy(frost_jpeg_decoder *d) {
    if (!d) return;
    if (setjmp(d->error.jump) == 0) jpeg_destroy_decompress(&d->cinfo);
    free(d->icc);
    free(d);
}
