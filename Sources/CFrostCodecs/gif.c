// GIF read through giflib's record-level API (GIF89a, https://www.w3.org/Graphics/GIF/spec-gif89a.txt):
// a first walk counts the frames and reads their control blocks without decompressing anything; the
// second decompresses the frames asked for and composes each on the canvas as browsers show it.
#include "CFrostCodecs.h"
#include "error.h"
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, at;
} memory_reader;

static int read_memory(GifFileType *gif, GifByteType *out, int length) {
    memory_reader *reader = gif->UserData;
    size_t left = reader->size - reader->at;
    size_t n = length < 0 ? 0 : (size_t)length < left ? (size_t)length : left;
    memcpy(out, reader->data + reader->at, n);
    reader->at += n;
    return (int)n;
}

static frost_status gif_fail(frost_error *err, int code, const char *what) {
    switch (code) {
    case D_GIF_ERR_NOT_ENOUGH_MEM: return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    case D_GIF_ERR_READ_FAILED: case D_GIF_ERR_EOF_TOO_SOON:
        return frost_fail(err, FROST_ERR_TRUNCATED, "file ends early (%s)", what);
    default: {
        const char *message = GifErrorString(code);
        return frost_fail(err, FROST_ERR_CORRUPT, "%s (%s)", message ? message : "bad data", what);
    }
    }
}

static GifFileType *open_gif(memory_reader *reader, const uint8_t *data, size_t size, frost_error *err, frost_status *status) {
    *reader = (memory_reader){data, size, 0};
    int code = 0;
    GifFileType *gif = DGifOpen(reader, read_memory, &code);
    if (!gif) *status = gif_fail(err, reader->at >= reader->size ? D_GIF_ERR_EOF_TOO_SOON : code, "header");
    else if (gif->SWidth <= 0 || gif->SHeight <= 0) {
        DGifCloseFile(gif, &code);
        gif = NULL;
        *status = frost_fail(err, FROST_ERR_CORRUPT, "the canvas has no size");
    }
    return gif;
}

// Reads an extension record; a graphic control block updates *gcb, a NETSCAPE2.0 block *loops.
static int read_extension(GifFileType *gif, GraphicsControlBlock *gcb, int *loops) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return GIF_ERROR;
    int netscape = 0;
    if (block && code == GRAPHICS_EXT_FUNC_CODE && block[0] >= 4) DGifExtensionToGCB(block[0], block + 1, gcb);
    if (block && code == APPLICATION_EXT_FUNC_CODE && block[0] == 11 &&
        (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0)) netscape = 1;
    while (block) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
        if (block && netscape && block[0] >= 3 && block[1] == 1) {
            *loops = block[2] | block[3] << 8;
            netscape = 0;
        }
    }
    return GIF_OK;
}

// Browsers show a frame of 0 or 1 hundredths for 100 ms (Firefox and Chrome both); so does Frost.
static int delay_ms(const GraphicsControlBlock *gcb) {
    return gcb->DelayTime <= 1 ? 100 : gcb->DelayTime * 10;
}

frost_status frost_gif_read_header(const uint8_t *data, size_t size, uint32_t max_frames, frost_gif_info *info,
                                   frost_error *err) {
    memset(info, 0, sizeof *info);
    memory_reader reader;
    frost_status status = FROST_OK;
    GifFileType *gif = open_gif(&reader, data, size, err, &status);
    if (!gif) return status;
    info->width = (uint32_t)gif->SWidth;
    info->height = (uint32_t)gif->SHeight;
    info->loops = -1;
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    GifRecordType record;
    int code = 0;
    for (;;) {
        // A file that ends after a whole frame, without its trailer, is shown by every browser.
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) {
            if (info->frames > 0 && reader.at >= reader.size) break;
            status = gif_fail(err, gif->Error, "records");
            break;
        }
        if (record == TERMINATE_RECORD_TYPE) break;
        if (record == EXTENSION_RECORD_TYPE) {
            if (read_extension(gif, &gcb, &info->loops) == GIF_ERROR) { status = gif_fail(err, gif->Error, "extension"); break; }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) { status = gif_fail(err, gif->Error, "frame header"); break; }
        if (++info->frames > max_frames) {
            status = frost_fail(err, FROST_ERR_TOO_LARGE, "more than %u frames (see --max-frames)", max_frames);
            break;
        }
        if (!gif->Image.ColorMap && !gif->SColorMap) { status = frost_fail(err, FROST_ERR_CORRUPT, "a frame has no colour table"); break; }
        if (gcb.TransparentColor != NO_TRANSPARENT_COLOR) info->has_alpha = 1;
        if (gif->Image.Interlace) info->interlaced = 1;
        // A first frame that leaves part of the canvas uncovered shows it transparent.
        if (info->frames == 1 && (gif->Image.Left > 0 || gif->Image.Top > 0 || gif->Image.Left + gif->Image.Width < gif->SWidth ||
                                  gif->Image.Top + gif->Image.Height < gif->SHeight)) info->has_alpha = 1;
        info->duration_ms += (uint64_t)delay_ms(&gcb);
        gcb = (GraphicsControlBlock){DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        // Skip the compressed data without decompressing it.
        int code_size = 0;
        GifByteType *block = NULL;
        if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) { status = gif_fail(err, gif->Error, "frame data"); break; }
        while (block) {
            if (DGifGetCodeNext(gif, &block) == GIF_ERROR) { status = gif_fail(err, gif->Error, "frame data"); break; }
        }
        if (status != FROST_OK) break;
    }
    if (status == FROST_OK && info->frames == 0) status = frost_fail(err, FROST_ERR_CORRUPT, "no frames");
    DGifCloseFile(gif, &code);
    return status;
}

// Draws a frame's rows (decompressed one at a time, in interlaced order when the frame is) onto
// the canvas: transparent indices leave the canvas as it is, the rest are the colour table's.
static int draw_frame(GifFileType *gif, uint8_t *canvas, uint32_t width, uint32_t height, int transparent,
                      GifPixelType *line) {
    const GifImageDesc *d = &gif->Image;
    const ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    int passes = d->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = d->Interlace ? starts[pass] : 0, step = d->Interlace ? steps[pass] : 1;
        for (int row = start; row < d->Height; row += step) {
            if (DGifGetLine(gif, line, d->Width) == GIF_ERROR) return GIF_ERROR;
            long y = (long)d->Top + row;
            if (y < 0 || y >= (long)height) continue;
            uint8_t *out = canvas + (size_t)y * width * 4;
            for (int i = 0; i < d->Width; i++) {
                long x = (long)d->Left + i;
                int index = line[i];
                // Indices past the table are left transparent, as browsers show them.
                if (x < 0 || x >= (long)width || index == transparent || index >= map->ColorCount) continue;
                const GifColorType *c = &map->Colors[index];
                uint8_t *p = out + x * 4;
                p[0] = c->Red;
                p[1] = c->Green;
                p[2] = c->Blue;
                p[3] = 255;
            }
        }
    }
    return GIF_OK;
}

// The part of the canvas a frame covers, clipped, set transparent (disposal 2: "restore to background";
// browsers clear to transparent, not to the background colour).
static void clear_rect(uint8_t *canvas, uint32_t width, uint32_t height, const GifImageDesc *d) {
    long x0 = d->Left < 0 ? 0 : d->Left, y0 = d->Top < 0 ? 0 : d->Top;
    long x1 = (long)d->Left + d->Width, y1 = (long)d->Top + d->Height;
    if (x1 > (long)width) x1 = width;
    if (y1 > (long)height) y1 = height;
    for (long y = y0; y < y1; y++)
        if (x1 > x0) memset(canvas + ((size_t)y * width + x0) * 4, 0, (size_t)(x1 - x0) * 4);
}

frost_status frost_gif_decode(const uint8_t *data, size_t size, uint32_t first, uint32_t count, uint8_t *rgba,
                              int *delays_ms, frost_error *err) {
    memory_reader reader;
    frost_status status = FROST_OK;
    GifFileType *gif = open_gif(&reader, data, size, err, &status);
    if (!gif) return status;
    uint32_t width = (uint32_t)gif->SWidth, height = (uint32_t)gif->SHeight;
    size_t frame_bytes = (size_t)width * height * 4;
    uint8_t *canvas = calloc(frame_bytes, 1), *saved = NULL;
    GifPixelType *line = malloc((size_t)65536);   // a frame's row: GIF sizes are 16-bit
    int code = 0;
    if (!canvas || !line) {
        free(canvas);
        free(line);
        DGifCloseFile(gif, &code);
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    }
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    int previous_disposal = DISPOSAL_UNSPECIFIED, loops = -1;
    GifImageDesc previous_rect = {0};
    uint32_t frame = 0;
    GifRecordType record;
    while (frame < first + count) {
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) {
            status = frame > 0 && reader.at >= reader.size ? frost_fail(err, FROST_ERR_CORRUPT, "fewer frames than the header walk found")
                                                           : gif_fail(err, gif->Error, "records");
            break;
        }
        if (record == TERMINATE_RECORD_TYPE) { status = frost_fail(err, FROST_ERR_CORRUPT, "fewer frames than asked for"); break; }
        if (record == EXTENSION_RECORD_TYPE) {
            if (read_extension(gif, &gcb, &loops) == GIF_ERROR) { status = gif_fail(err, gif->Error, "extension"); break; }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) { status = gif_fail(err, gif->Error, "frame header"); break; }
        if (!gif->Image.ColorMap && !gif->SColorMap) { status = frost_fail(err, FROST_ERR_CORRUPT, "a frame has no colour table"); break; }
        // The previous frame's disposal, then this one drawn (its canvas kept first if it is to be restored).
        if (previous_disposal == DISPOSE_BACKGROUND) clear_rect(canvas, width, height, &previous_rect);
        if (previous_disposal == DISPOSE_PREVIOUS && saved) memcpy(canvas, saved, frame_bytes);
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
            if (!saved && !(saved = malloc(frame_bytes))) { status = frost_fail(err, FROST_ERR_MEMORY, "out of memory"); break; }
            memcpy(saved, canvas, frame_bytes);
        }
        if (draw_frame(gif, canvas, width, height, gcb.TransparentColor, line) == GIF_ERROR) {
            status = gif_fail(err, gif->Error, "frame data");
            break;
        }
        if (frame >= first) {
            memcpy(rgba + (size_t)(frame - first) * frame_bytes, canvas, frame_bytes);
            delays_ms[frame - first] = delay_ms(&gcb);
        }
        previous_disposal = gcb.DisposalMode;
        previous_rect = gif->Image;
        gcb = (GraphicsControlBlock){DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        frame++;
    }
    free(canvas);
    free(saved);
    free(line);
    DGifCloseFile(gif, &code);
    return status;
}
