// GIF read through giflib's record-level API (GIF89a, https://www.w3.org/Graphics/GIF/spec-gif89a.txt):
// a first walk counts the frames and reads their control blocks without decompressing anything; the
// second decompresses the frames asked for and composes each on the canvas as browsers show it.
#include "CFrostCodecs.h"
#include "error.h"
#include "CFrostSystem.h"
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
    uint32_t complete = 0;          // frames whose data was read to its end
    uint64_t complete_ms = 0;
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
        if ((uint64_t)gif->Image.Width * (uint64_t)gif->Image.Height > (uint64_t)info->largest_width * info->largest_height) {
            info->largest_width = (uint32_t)gif->Image.Width;
            info->largest_height = (uint32_t)gif->Image.Height;
        }
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
        complete = info->frames;
        complete_ms = info->duration_ms;
    }
    if (status != FROST_OK && status != FROST_ERR_TOO_LARGE && complete > 0) {
        info->broken = 1;
        info->frames = complete;
        info->duration_ms = complete_ms;
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

frost_status frost_gif_decode(const uint8_t *data, size_t size, uint32_t first, uint32_t count, uint64_t max_drawn,
                              uint8_t *rgba, int *delays_ms, frost_error *err) {
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
    uint64_t drawn = 0;
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
        // A frame's whole rectangle is decompressed, on the canvas or off it.
        drawn += (uint64_t)gif->Image.Width * (uint64_t)gif->Image.Height;
        if (drawn > max_drawn) {
            status = frost_fail(err, FROST_ERR_TOO_LARGE, "the frames' rectangles hold more than %llu pixels together (see --max-pixels)",
                                (unsigned long long)max_drawn);
            break;
        }
        if (frost_stopped()) { status = frost_fail(err, FROST_ERR_STOPPED, "stopped"); break; }
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

// ---------------------------------------------------------------- writing

typedef struct {
    uint8_t *data;
    size_t size, capacity;
} memory_writer;

static int write_memory(GifFileType *gif, const GifByteType *bytes, int length) {
    memory_writer *writer = gif->UserData;
    if ((size_t)length > writer->capacity - writer->size) {
        size_t capacity = writer->capacity ? writer->capacity : 65536;
        while ((size_t)length > capacity - writer->size) capacity *= 2;
        uint8_t *grown = realloc(writer->data, capacity);
        if (!grown) return 0;
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, bytes, (size_t)length);
    writer->size += (size_t)length;
    return length;
}

struct frost_gif_writer {
    uint32_t width, height;
    int animated, optimize, transparent;
    int transparent_content;   // some sampled pixel's alpha is below 128
    frost_gif_write_options options;
    frost_palette_builder *palette;
    GifFileType *gif;
    ColorMapObject *map;
    memory_writer writer;
    uint8_t *indices;          // the frame being added, remapped
    uint8_t *canvas;           // the indices shown after the frames written so far
    uint8_t *pending;          // the frame held back: the frames after it that change nothing add to its delay
    uint32_t pending_rect[4];  // x, y, w, h
    int pending_delay, has_pending;
    int emitted, last_delay;   // frames written out; the delay the last frame added came with
    uint8_t *previous;         // the last frame's pixels (RGBA8)
    uint32_t frames;
    int closed;                // finished: nothing more is taken
};

void frost_gif_writer_free(frost_gif_writer *writer) {
    if (!writer) return;
    int code = 0;
    if (writer->gif) EGifCloseFile(writer->gif, &code);
    GifFreeMapObject(writer->map);
    frost_palette_free(writer->palette);
    free(writer->writer.data);
    free(writer->indices);
    free(writer->canvas);
    free(writer->pending);
    free(writer->previous);
    free(writer);
}

frost_status frost_gif_writer_create(uint32_t width, uint32_t height, int animated, const frost_gif_write_options *options,
                                     frost_gif_writer **out, frost_error *err) {
    *out = NULL;
    if (width > 65535 || height > 65535)
        return frost_fail(err, FROST_ERR_ENCODE, "%ux%u is too large for GIF (at most 65535 pixels a side)", width, height);
    frost_gif_writer *writer = *out = calloc(1, sizeof *writer);
    if (!writer) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    size_t pixels = (size_t)width * height;
    writer->width = width;
    writer->height = height;
    writer->animated = animated;
    writer->options = *options;
    writer->transparent = -1;
    frost_quantize_options quantize = {options->colors, options->dither, options->speed, 1, 0};
    if (!(writer->indices = malloc(pixels ? pixels : 1)) || !(writer->canvas = malloc(pixels ? pixels : 1)) ||
        !(writer->pending = malloc(pixels ? pixels : 1)) || !(writer->previous = malloc(pixels ? 4 * pixels : 1)))
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    return frost_palette_create(&quantize, &writer->palette, err);
}

frost_status frost_gif_writer_sample(frost_gif_writer *writer, const uint8_t *rgba, frost_error *err) {
    if (writer->gif || writer->closed) return frost_fail(err, FROST_ERR_ENCODE, "frames are sampled before any is added");
    size_t pixels = (size_t)writer->width * writer->height;
    for (size_t i = 0; i < pixels && !writer->transparent_content; i++) writer->transparent_content = rgba[4 * i + 3] < 128;
    return frost_palette_add(writer->palette, rgba, writer->width, writer->height, err);
}

static frost_status gif_write_failed(frost_gif_writer *writer, frost_error *err) {
    return frost_fail(err, FROST_ERR_ENCODE, "%s", GifErrorString(writer->gif ? writer->gif->Error : E_GIF_ERR_WRITE_FAILED));
}

// The palette made from the frames sampled, the screen and the loop written: before the first frame.
static frost_status begin_writing(frost_gif_writer *writer, frost_error *err) {
    // Opaque animations store each frame as the rectangle that changed, its unchanged pixels
    // transparent over the frame before (disposal "do not"); with transparency every frame is whole
    // and cleared after showing (disposal "background"), since a pixel can turn transparent. Either
    // needs a transparent entry.
    writer->optimize = writer->animated && !writer->transparent_content;
    if (writer->animated || writer->transparent_content) frost_palette_reserve_transparent(writer->palette);
    uint8_t palette[1024];
    uint32_t count = 0;
    frost_status status = frost_palette_finish(writer->palette, palette, &count, &writer->transparent, err);
    if (status != FROST_OK) return status;
    if (writer->transparent < 0) writer->optimize = 0;
    int bits = 1;
    while ((1u << bits) < count) bits++;
    GifColorType colors[256] = {{0}};
    for (uint32_t i = 0; i < count; i++) colors[i] = (GifColorType){palette[4 * i], palette[4 * i + 1], palette[4 * i + 2]};
    int code = 0;
    if (!(writer->map = GifMakeMapObject(1 << bits, colors)) || !(writer->gif = EGifOpen(&writer->writer, write_memory, &code)))
        return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    EGifSetGifVersion(writer->gif, true);
    if (EGifPutScreenDesc(writer->gif, (int)writer->width, (int)writer->height, 8, writer->transparent >= 0 ? writer->transparent : 0,
                          writer->map) == GIF_ERROR) return gif_write_failed(writer, err);
    if (writer->animated && writer->options.loops != 1) {
        // NETSCAPE2.0: loop `loops` times (0: forever); a GIF played once has none.
        int loops = writer->options.loops;
        GifByteType loop[3] = {1, (GifByteType)(loops & 0xFF), (GifByteType)((loops >> 8) & 0xFF)};
        if (EGifPutExtensionLeader(writer->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(writer->gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(writer->gif, 3, loop) == GIF_ERROR ||
            EGifPutExtensionTrailer(writer->gif) == GIF_ERROR) return gif_write_failed(writer, err);
    }
    return FROST_OK;
}

// The frame held back, with the delays of the empty frames after it.
static frost_status write_pending(frost_gif_writer *writer, frost_error *err) {
    if (!writer->has_pending) return FROST_OK;
    writer->has_pending = 0;
    writer->emitted++;
    const uint32_t *rect = writer->pending_rect;
    int delay = writer->pending_delay;
    GraphicsControlBlock gcb = {writer->optimize ? DISPOSE_DO_NOT : writer->animated ? DISPOSE_BACKGROUND : DISPOSAL_UNSPECIFIED, false,
                                delay > 65535 ? 65535 : delay, writer->transparent};
    GifByteType extension[4];
    size_t length = EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(writer->gif, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR ||
        EGifPutImageDesc(writer->gif, (int)rect[0], (int)rect[1], (int)rect[2], (int)rect[3], false, NULL) == GIF_ERROR)
        return gif_write_failed(writer, err);
    for (uint32_t y = rect[1]; y < rect[1] + rect[3]; y++)
        if (EGifPutLine(writer->gif, writer->pending + (size_t)y * writer->width + rect[0], (int)rect[2]) == GIF_ERROR)
            return gif_write_failed(writer, err);
    return FROST_OK;
}

// What a frame must change on the canvas (an opaque animation after its first frame): a pixel whose
// source is the frame before's keeps the index shown (the dithering of the frame that drew it, so
// still parts do not shimmer), a pixel whose index is already shown becomes the transparent index
// (runs that LZW packs), and the rectangle holding the rest goes to `rect` (empty: nothing changed).
// `emit` is rewritten in place.
static void plan_change(const frost_gif_writer *writer, const uint8_t *rgba, uint8_t *emit, uint8_t *canvas, uint32_t *rect) {
    const uint32_t width = writer->width, height = writer->height;
    const uint32_t *now = (const uint32_t *)rgba, *then = (const uint32_t *)writer->previous;
    const uint8_t transparent = (uint8_t)writer->transparent;
    uint32_t x0 = width, y0 = height, x1 = 0, y1 = 0;
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++) {
            size_t p = (size_t)y * width + x;
            uint32_t a, b;
            __builtin_memcpy(&a, now + p, 4);
            __builtin_memcpy(&b, then + p, 4);
            uint8_t want = a == b ? canvas[p] : emit[p];
            if (want == canvas[p]) { emit[p] = transparent; continue; }
            emit[p] = canvas[p] = want;
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
        }
    }
    if (x0 == width) { rect[0] = rect[1] = rect[2] = rect[3] = 0; return; }
    rect[0] = x0; rect[1] = y0; rect[2] = x1 - x0 + 1; rect[3] = y1 - y0 + 1;
}

frost_status frost_gif_writer_add(frost_gif_writer *writer, const uint8_t *rgba, int delay_cs, frost_error *err) {
    if (writer->closed) return frost_fail(err, FROST_ERR_ENCODE, "the GIF is already finished");
    frost_status status;
    if (!writer->gif && (status = begin_writing(writer, err)) != FROST_OK) return status;
    size_t pixels = (size_t)writer->width * writer->height;
    if ((status = frost_palette_remap(writer->palette, rgba, writer->width, writer->height, writer->indices, err)) != FROST_OK) return status;
    uint32_t rect[4] = {0, 0, writer->width, writer->height};
    if (writer->optimize && writer->frames > 0) plan_change(writer, rgba, writer->indices, writer->canvas, rect);
    else if (writer->optimize) memcpy(writer->canvas, writer->indices, pixels);
    if (writer->optimize) memcpy(writer->previous, rgba, 4 * pixels);
    writer->frames++;
    writer->last_delay = delay_cs;
    if (rect[2] == 0 && writer->has_pending) {
        writer->pending_delay += delay_cs;
        return FROST_OK;
    }
    if ((status = write_pending(writer, err)) != FROST_OK) return status;
    // The held-back frame's buffer takes this one (swapped: no copy).
    uint8_t *held = writer->pending;
    writer->pending = writer->indices;
    writer->indices = held;
    memcpy(writer->pending_rect, rect, sizeof rect);
    writer->pending_delay = delay_cs;
    writer->has_pending = 1;
    return FROST_OK;
}

frost_status frost_gif_writer_finish(frost_gif_writer *writer, uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    if (writer->closed) return frost_fail(err, FROST_ERR_ENCODE, "the GIF is already finished");
    if (!writer->frames) return frost_fail(err, FROST_ERR_ENCODE, "no frames");
    writer->closed = 1;
    // Every frame folded into the first: an animation of equal frames stays an animation (a
    // reader would take one frame for a still), its last frame a pixel that changes nothing.
    int split = writer->animated && writer->emitted == 0 && writer->frames > 1 && writer->pending_delay > writer->last_delay;
    if (split) writer->pending_delay -= writer->last_delay;
    frost_status status = write_pending(writer, err);
    if (status != FROST_OK) return status;
    if (split) {
        writer->pending[0] = (uint8_t)writer->transparent;
        uint32_t pixel[4] = {0, 0, 1, 1};
        memcpy(writer->pending_rect, pixel, sizeof pixel);
        writer->pending_delay = writer->last_delay;
        writer->has_pending = 1;
        if ((status = write_pending(writer, err)) != FROST_OK) return status;
    }
    int code = 0;
    GifFileType *gif = writer->gif;
    writer->gif = NULL;
    if (EGifCloseFile(gif, &code) == GIF_ERROR) return frost_fail(err, FROST_ERR_ENCODE, "%s", GifErrorString(code));
    *out = writer->writer.data;
    *out_size = writer->writer.size;
    writer->writer.data = NULL;
    return FROST_OK;
}
