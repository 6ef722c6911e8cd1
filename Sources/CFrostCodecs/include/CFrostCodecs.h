// CFrostCodecs: the only code in Frost that calls libpng, libjpeg(-turbo), libwebp, libavif, libheif, giflib
// and libimagequant.
//
// libpng and libjpeg report fatal errors by longjmp-ing out of their own frames. Every setjmp lives in
// the .c files next to this header, so Swift never sees a longjmp: each call returns a status and,
// on failure, the library's own message in a frost_error.
//
// Decoding is two-phase: *_read_header parses the header and metadata only, the caller checks the
// size against its limits and allocates, then the pixels are decoded into the caller's buffer
// (JPEG: frost_jpeg_start, frost_jpeg_read_rows, frost_jpeg_finish).
#ifndef CFROSTCODECS_H
#define CFROSTCODECS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

typedef enum {
    FROST_OK = 0,
    FROST_ERR_CORRUPT = 1,      // malformed or truncated data
    FROST_ERR_UNSUPPORTED = 2,  // valid file, but a feature Frost does not decode (12-bit, lossless JPEG)
    FROST_ERR_MEMORY = 3,       // allocation failed
    FROST_ERR_TRUNCATED = 4,    // JPEG ended before its last scan (libjpeg would only warn)
    FROST_ERR_ENCODE = 5,       // encoder failure
    FROST_ERR_TOO_LARGE = 6,    // dimensions beyond what the library decodes, or past a limit (JPEG scans)
    FROST_ERR_STOPPED = 7,      // the work was told to stop (CFrostSystem's stop flag)
} frost_status;

typedef struct {
    frost_status status;
    char message[256];
} frost_error;

// ---------------------------------------------------------------- PNG

typedef struct frost_png_decoder frost_png_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;          // 1, 2, 4, 8 or 16 as in IHDR
    int color_type;         // PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    int interlaced;         // Adam7
    int has_trns;           // tRNS chunk present (transparency without an alpha channel)
    const uint8_t *icc;     // iCCP profile, decompressed; valid until the decoder is destroyed
    uint32_t icc_length;
    const uint8_t *exif;    // eXIf payload (TIFF header onwards); valid until destroyed
    uint32_t exif_length;
    int srgb;               // an sRGB chunk
    uint32_t gamma;         // gAMA × 100000 (the encoding gamma: 45455 for 1/2.2); 0 without
    int has_chrm;           // a cHRM chunk: chrm holds white x, y, red x, y, green x, y, blue x, y
    double chrm[8];
} frost_png_info;

// `data` must stay alive until the decoder is destroyed. Returns NULL only when out of memory.
frost_png_decoder *frost_png_decoder_create(const uint8_t *data, size_t size,
                                            uint32_t max_width, uint32_t max_height);
frost_status frost_png_read_header(frost_png_decoder *d, frost_png_info *info, frost_error *err);
// Writes RGBA rows: 8 bits per sample, or native-endian 16 bits when the file is 16-bit.
// `row_bytes` is the caller's stride. Palette, low bit depths, gray and tRNS are expanded.
// 8-bit non-interlaced gray, gray+alpha, RGB and RGBA files without tRNS are inflated by libdeflate
// and unfiltered by Frost (png_direct.c), unless that finds anything off; libpng reads the rest.
// With `allow_truncated`, a file cut short (or corrupt) after its image data began keeps the rows
// read before it (transparent black after them, as libvips's fail=false) and *truncated says so.
frost_status frost_png_read_pixels(frost_png_decoder *d, void *pixels, size_t row_bytes,
                                   int allow_truncated, int *truncated, frost_error *err);
// Instead of read_pixels, for an 8-bit (or lower) file that is not interlaced: rows one strip at a
// time, expanded to RGBA8 as read_pixels expands them; after the `last` rows the file's end is
// checked (the zlib stream, the trailing chunks' CRCs and IEND).
frost_status frost_png_start_rows(frost_png_decoder *d, frost_error *err);
frost_status frost_png_read_rows(frost_png_decoder *d, uint8_t *const *rows, uint32_t count, int last, frost_error *err);
// Before read_pixels: libpng reads every file (tests compare the direct read with it).
void frost_png_decoder_use_libpng_only(frost_png_decoder *d);
// After read_pixels: 1 when the pixels came from the direct read.
int frost_png_decoder_read_direct(const frost_png_decoder *d);
void frost_png_decoder_destroy(frost_png_decoder *d);

typedef struct {
    int channels;           // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (picked from the RGBA source)
    int alpha_if_needed;    // with 1 or 3 channels: write alpha after all (2 or 4) when some pixel's
                            // alpha is below 255, which the encoder sees as it packs the rows
    int premultiplied;      // the rows are premultiplied: colors are divided by their alpha (rounded,
                            // as frost_unpremultiply) where alpha is written, kept where it is not
    int compression_level;  // 0...9 (one filter: 1 Frost's run-length deflate, else libdeflate; adaptive: zlib)
    int filter;             // -1 adaptive (all filters), else one PNG filter 0...4
    int threads;            // level 1: threads for the deflate's segments (0 or 1: the calling thread)
    const uint8_t *icc;     // optional profile for iCCP
    uint32_t icc_length;
} frost_png_write_options;

// A PNG written as its rows are made (level 1: Paeth residuals and Frost's run-length deflate), for
// opaque images: the header (signature, IHDR, iCCP) first, then each strip of rows as one IDAT chunk
// holding its piece of the zlib stream, then frost_png_stream_end's checksum and IEND. `channels`
// 1 (gray: the R bytes) or 3.
frost_status frost_png_stream_header(uint32_t width, uint32_t height, int channels, const uint8_t *icc, uint32_t icc_length,
                                     uint8_t **out, size_t *out_size, frost_error *err);
// Rows [0, rows) of a strip: packed, filtered (the image's first row Paeth over zeros, as
// frost_png_encode; a later strip's first row Sub, the row above being another strip's), deflated,
// with the zlib header when `first` and the final block when `last`; into *out (malloc'd) as one
// IDAT chunk. *adler and *filtered_size: the Adler-32 and the count of the filtered bytes.
frost_status frost_png_stream_strip(const uint8_t *rgba, uint32_t width, uint32_t rows, size_t row_bytes, int channels,
                                    int first, int last, uint8_t **out, size_t *out_size, uint32_t *adler,
                                    size_t *filtered_size, frost_error *err);
// The strips' checksums in order, combined: the stream's Adler-32 in an IDAT chunk, then IEND (28 bytes).
void frost_png_stream_end(const uint32_t *adlers, const size_t *filtered_sizes, size_t strips, uint8_t out[28]);

// Encodes RGBA8 rows (straight alpha) to a malloc'd PNG; the caller frees *out with frost_free.
frost_status frost_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                              const frost_png_write_options *options, uint8_t **out, size_t *out_size,
                              frost_error *err);
// Encodes palette indices (a byte a pixel, rows packed) as a palette PNG (colour type 3) of the
// fewest bits a pixel that hold `count` entries (1, 2, 4 or 8), PLTE and, where an entry is not
// opaque, tRNS; libpng's adaptive filters at zlib level `compression_level`. *out: frost_free.
frost_status frost_png_encode_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette,
                                      uint32_t count, int compression_level, const uint8_t *icc, uint32_t icc_length,
                                      uint8_t **out, size_t *out_size, frost_error *err);
// Encodes RGBA16 samples (native-endian, straight alpha, rows packed) as a 16-bit PNG of `channels`
// (1 gray from R, 2 gray and alpha, 3 RGB, 4 RGBA), libpng's adaptive filters at zlib level
// `compression_level`; the caller frees *out with frost_free.
frost_status frost_png_encode16(const uint16_t *rgba, uint32_t width, uint32_t height, int channels, int compression_level,
                                const uint8_t *icc, uint32_t icc_length, uint8_t **out, size_t *out_size, frost_error *err);

// ---------------------------------------------------------------- JPEG

typedef struct frost_jpeg_decoder frost_jpeg_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int components;         // 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK
    int color_space;        // libjpeg J_COLOR_SPACE of the file
    int progressive;
    int arithmetic;
    int saw_adobe;          // APP14 Adobe marker (CMYK stored inverted)
    const uint8_t *icc;     // reassembled APP2 ICC profile; valid until destroyed
    uint32_t icc_length;
    const uint8_t *exif;    // APP1 Exif payload after "Exif\0\0"; valid until destroyed
    uint32_t exif_length;
} frost_jpeg_info;

frost_jpeg_decoder *frost_jpeg_decoder_create(const uint8_t *data, size_t size);
// Reads from an open file (from its current position) as it decodes, instead of from memory;
// the caller closes it after frost_jpeg_decoder_destroy.
frost_jpeg_decoder *frost_jpeg_decoder_create_file(FILE *file);
frost_status frost_jpeg_read_header(frost_jpeg_decoder *d, frost_jpeg_info *info, frost_error *err);
// The header's APP0, APP1, APP2 and APP13 segments in file order (after read_header): 1 and the
// marker and payload of segment `index`, or 0 past the last. Valid until destroyed.
int frost_jpeg_saved_marker(const frost_jpeg_decoder *d, int index, int *marker, const uint8_t **data, uint32_t *length);
// Decoding RGBA8 rows (alpha 255; CMYK/YCCK converted to RGB) as they are needed: start (the
// image reduced 1/scale_denom by libjpeg's DCT scaling, 1, 2, 4 or 8; *width and *height are the
// output's), then rows in order, `count` at a time, then finish.
frost_status frost_jpeg_start(frost_jpeg_decoder *d, int scale_denom, int allow_truncated,
                              uint32_t *width, uint32_t *height, frost_error *err);
frost_status frost_jpeg_read_rows(frost_jpeg_decoder *d, uint8_t *const *rows, uint32_t count, frost_error *err);
frost_status frost_jpeg_finish(frost_jpeg_decoder *d, frost_error *err);
void frost_jpeg_decoder_destroy(frost_jpeg_decoder *d);

typedef struct {
    int quality;            // 1...100
    int progressive;
    int gray;               // write one gray component (from R)
    int subsample_420;      // 4:2:0 chroma, else 4:4:4
    int restart_rows;       // a restart marker every this many MCU rows (0: none)
    const uint8_t *icc;
    uint32_t icc_length;
} frost_jpeg_write_options;

frost_status frost_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_jpeg_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err);

// ---------------------------------------------------------------- WebP
typedef struct {
    uint32_t width, height;
    int has_alpha;
    int animated;
    int lossless;              // VP8L; else VP8 (lossy), with or without an ALPH chunk
    uint32_t frames;           // an animation's frame count (1 for a still; 0 when the container is cut short)
    uint64_t duration_ms;      // an animation's frames' durations added up
    int loops;                 // an animation's ANIM loop count (0: forever)
    const uint8_t *icc;        // points into the file's bytes
    uint32_t icc_length;
    const uint8_t *exif;       // the EXIF chunk's TIFF data ("Exif\0\0" skipped when a writer put it there)
    uint32_t exif_length;
} frost_webp_info;

frost_status frost_webp_read_header(const uint8_t *data, size_t size, frost_webp_info *info, frost_error *err);
// Decodes into `height` RGBA8 rows of `width` pixels (straight alpha; 255 where the file has
// none): the file's size, or smaller through libwebp's scaled decoding.
frost_status frost_webp_read_pixels(const uint8_t *data, size_t size, uint8_t *rgba, size_t row_bytes,
                                    uint32_t width, uint32_t height, frost_error *err);

typedef struct {
    int quality;            // 0...100 lossy; below 0 lossless
    int effort;             // 0 (fastest) ... 9 (smallest): the lossless preset, or the lossy method (-m, up to 6)
    int has_alpha;          // else the alpha bytes are ignored
    const uint8_t *icc;
    uint32_t icc_length;
    int loops;              // an animation's plays (ANIM's loop count; 0: forever)
} frost_webp_write_options;

// Encodes RGBA8 rows (straight alpha) to a malloc'd WebP; the caller frees *out with frost_free.
frost_status frost_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_webp_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err);

// Animated WebP (libwebpmux's WebPAnimEncoder): whole RGBA8 frames (straight alpha) added in order
// with their start times; the encoder stores each as the rectangle that changed, lossless (exact)
// or lossy as `options` say, played `options->loops` times (0: forever).
typedef struct frost_webp_animation frost_webp_animation;
frost_status frost_webp_animation_new(uint32_t width, uint32_t height, const frost_webp_write_options *options,
                                      frost_webp_animation **out, frost_error *err);
frost_status frost_webp_animation_add(frost_webp_animation *animation, const uint8_t *rgba, size_t row_bytes,
                                      int timestamp_ms, frost_error *err);
// The file, once every frame is in; `end_ms` is when the last frame stops showing. *out is freed with frost_free.
frost_status frost_webp_animation_assemble(frost_webp_animation *animation, int end_ms, uint8_t **out,
                                           size_t *out_size, frost_error *err);
void frost_webp_animation_free(frost_webp_animation *animation);

// Reads an animated (or still) WebP through libwebpdemux's WebPAnimDecoder: frames `first` to
// first+count−1 (count 0: to the end) composed on the canvas, RGBA8 straight, frame after frame in
// one malloc'd buffer (*rgba, frost_free), and how long each shows in ms (*delays_ms, frost_free).
// More than `max_pixels` pixels over the frames kept is refused before any pixel memory is taken.
frost_status frost_webp_animation_decode(const uint8_t *data, size_t size, uint64_t max_pixels, uint32_t first,
                                         uint32_t count, uint32_t *width, uint32_t *height, uint32_t *frames,
                                         uint8_t **rgba, int **delays_ms, frost_error *err);

// ---------------------------------------------------------------- AVIF and HEIC (HEIF containers)
// AVIF through libavif (dav1d decodes, aom encodes), HEIC through libheif (libde265 decodes). Both
// are two-phase like the others: *_open parses the container (no pixel memory), the caller checks
// the size against its limits, *_read_pixels decodes the primary image (an AVIF sequence's first
// frame) into RGBA8 rows, straight alpha (255 where the file has none); *_free releases the decoder
// and with it every pointer in the info.
typedef struct {
    uint32_t width, height;    // the picture's size: AVIF as stored (before irot/imir), HEIC as libheif shows it
    uint32_t depth;            // bits per sample in the file: 8, 10 or 12 (read down to 8)
    int has_alpha;
    int premultiplied;         // the alpha plane says its colour is premultiplied
    int chroma;                // 444, 422, 420 or 400 (monochrome); 0 when not known
    uint32_t frames;           // an AVIF sequence's frame count; 1 for a still
    double duration;           // an AVIF sequence's seconds; 0 for a still
    int rotation;              // AVIF irot: quarter turns anticlockwise 0...3 (HEIC: libheif applies it)
    int mirror;                // AVIF imir: -1 none, 0 top and bottom exchanged, 1 left and right
    const uint8_t *icc;
    size_t icc_length;
    int cicp_primaries;        // the nclx box's CICP (ITU-T H.273): colour primaries, transfer and matrix;
    int cicp_transfer;         // 0 when the file has no nclx box
    int cicp_matrix;
    const uint8_t *exif;       // TIFF data (HEIF's offset prefix and "Exif\0\0" skipped)
    size_t exif_length;
    const uint8_t *xmp;
    size_t xmp_length;
} frost_heif_info;

typedef struct frost_avif_decoder frost_avif_decoder;
// `threads`: how many threads dav1d may use. `max_pixels`, `max_side`: the largest frame it decodes
// (0: libavif's defaults, 16384² pixels and a side of 32768).
frost_status frost_avif_open(const uint8_t *data, size_t size, int threads, uint32_t max_pixels, uint32_t max_side,
                             frost_avif_decoder **out, frost_heif_info *info, frost_error *err);
// `frame`: which of a sequence's frames (0 for a still).
frost_status frost_avif_read_pixels(frost_avif_decoder *decoder, uint32_t frame, uint8_t *rgba, size_t row_bytes,
                                    frost_error *err);
// How long frame `frame` of a sequence shows, in seconds, from the container (nothing decoded).
frost_status frost_avif_frame_duration(frost_avif_decoder *decoder, uint32_t frame, double *seconds, frost_error *err);
void frost_avif_free(frost_avif_decoder *decoder);

// What the AVIF and HEIC encoders take besides the pixels.
typedef struct {
    int quality;               // 1...100; 100 is lossless. AVIF: the quantizer (libavif's mapping); HEIC: libheif's scale
    int effort;                // 0 (fastest) ... 9 (smallest): aom's speed 10 - effort; x265's presets ultrafast ... placebo
    int has_alpha;             // else the alpha bytes are ignored
    int threads;               // AVIF: aom's; HEIC: x265's thread pool (0: every core)
    int rotation, mirror;      // AVIF: irot and imir to store, as in frost_heif_info (0, -1: none); HEIC: unused
    const uint8_t *icc;
    size_t icc_length;
    int cicp_primaries;        // > 0: the colours said by these CICP code points in the nclx, instead
    int cicp_transfer;         // of an ICC profile (icc is then not written)
    const uint8_t *exif;       // TIFF data
    size_t exif_length;
    const uint8_t *xmp;
    size_t xmp_length;
} frost_heif_write_options;

// Encodes RGBA8 rows (straight alpha) to a malloc'd AVIF (8-bit; 4:4:4 from quality 90 up, 4:2:0
// below); the caller frees *out with frost_free.
frost_status frost_avif_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_heif_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err);

typedef struct frost_heic_decoder frost_heic_decoder;
// `transform`: apply the file's crop, rotation and mirror (the info's size is then the shown one).
frost_status frost_heic_open(const uint8_t *data, size_t size, int transform, frost_heic_decoder **out,
                             frost_heif_info *info, frost_error *err);
frost_status frost_heic_read_pixels(frost_heic_decoder *decoder, uint8_t *rgba, size_t row_bytes, frost_error *err);
void frost_heic_free(frost_heic_decoder *decoder);

// Encodes RGBA8 rows (straight alpha) to a malloc'd HEIC with x265 (8-bit; 4:4:4 from quality 90
// up, 4:2:0 below; no irot/imir: the caller turns the pixels upright); the caller frees *out with frost_free.
frost_status frost_heic_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               const frost_heif_write_options *options, uint8_t **out, size_t *out_size,
                               frost_error *err);

// ---------------------------------------------------------------- GIF
// giflib. The header walk reads every record but decompresses nothing: the canvas, the frame count
// (more than `max_frames` is refused there), the total duration. Decoding composes frames 0…first+count−1
// on the canvas (disposal, transparency, interlace, as browsers show them) and keeps the last `count`
// as RGBA8 (straight; transparent where nothing was drawn), one after another in `rgba`, with each
// frame's delay in ms (0 and 1 hundredths shown as 100 ms, as browsers do).
typedef struct {
    uint32_t width, height;    // the canvas
    uint32_t frames;
    int has_alpha;             // a transparent index, or a first frame smaller than the canvas
    int interlaced;            // some frame is
    int loops;                 // NETSCAPE2.0's count (0: forever); -1 when absent (shown once)
    uint64_t duration_ms;
    uint32_t largest_width, largest_height;   // the frame rectangle of most pixels (LZW decodes all of it, even off the canvas)
    int broken;                // the walk failed after whole frames: `frames` (and the duration) count those, and the
                               // error is still returned (a caller may take the frames before the break)
} frost_gif_info;

frost_status frost_gif_read_header(const uint8_t *data, size_t size, uint32_t max_frames, frost_gif_info *info,
                                   frost_error *err);
// Frames first ..< first + count composed on the canvas, `frame_bytes` apart in `rgba`. The frames
// decompressed on the way (every frame up to the last asked for, each whole rectangle, on the
// canvas or off it) hold at most `max_drawn` pixels together: FROST_ERR_TOO_LARGE past it, before
// that frame is decompressed. FROST_ERR_STOPPED when CFrostSystem's stop flag is raised.
frost_status frost_gif_decode(const uint8_t *data, size_t size, uint32_t first, uint32_t count, uint64_t max_drawn,
                              uint8_t *rgba, int *delays_ms, frost_error *err);

typedef struct {
    int colors;                // 2...256
    float dither;              // Floyd–Steinberg strength, 0 (none) ... 1 (full)
    int speed;                 // libimagequant's 1 (slowest, best) ... 10
    int loops;                 // NETSCAPE2.0's count, 0: forever (animations only; 1, played once, writes no NETSCAPE2.0 block)
} frost_gif_write_options;

// A GIF written frame by frame in two passes over the frames, so that an animation need not be held
// in memory: every frame `sample`d (one palette for all, frost_palette_*), then every frame `add`ed
// in order with its delay in hundredths, then `finish` for the malloc'd GIF (frost_free). Alpha below
// 128 is transparent. `animated`: more than one frame will come (a NETSCAPE2.0 loop, forever with
// loops 0). An opaque animation stores each frame as the rectangle that changed, its unchanged
// pixels transparent, and folds a frame like the one before into that one's delay; one with
// transparency stores every frame whole, cleared after showing. Free with frost_gif_writer_free
// (NULL is fine).
typedef struct frost_gif_writer frost_gif_writer;
frost_status frost_gif_writer_create(uint32_t width, uint32_t height, int animated, const frost_gif_write_options *options,
                                     frost_gif_writer **out, frost_error *err);
frost_status frost_gif_writer_sample(frost_gif_writer *writer, const uint8_t *rgba, frost_error *err);
frost_status frost_gif_writer_add(frost_gif_writer *writer, const uint8_t *rgba, int delay_cs, frost_error *err);
frost_status frost_gif_writer_finish(frost_gif_writer *writer, uint8_t **out, size_t *out_size, frost_error *err);
void frost_gif_writer_free(frost_gif_writer *writer);

// ---------------------------------------------------------------- Palettes (libimagequant)
typedef struct {
    int colors;                // 2...256
    float dither;              // Floyd–Steinberg strength, 0 ... 1
    int speed;                 // 1 ... 10
    int binary_alpha;          // alpha below 128 is one fully transparent entry, the rest opaque (GIF)
    int reserve_transparent;   // a fully transparent entry whether the pictures need it or not
} frost_quantize_options;

// One palette of at most `colors` entries for `count` RGBA8 pictures of width × height (straight
// alpha, one after another), and each remapped to it (dithered) into `indices` (count × width ×
// height bytes). `palette` takes 256 RGBA entries; *transparent is the first entry of alpha 0, or −1.
frost_status frost_quantize(const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t count,
                            const frost_quantize_options *options, uint8_t *indices, uint8_t *palette,
                            uint32_t *palette_count, int *transparent, frost_error *err);

// The same in steps, for pictures that do not fit in memory together (an animation rendered
// twice): every picture added, then the palette made (`finish`, which may be asked again), then
// each picture remapped to it; `reserve_transparent` may also be asked for until the palette is
// made. Free with frost_palette_free (NULL is fine).
typedef struct frost_palette_builder frost_palette_builder;
frost_status frost_palette_create(const frost_quantize_options *options, frost_palette_builder **out, frost_error *err);
void frost_palette_reserve_transparent(frost_palette_builder *builder);
frost_status frost_palette_add(frost_palette_builder *builder, const uint8_t *rgba, uint32_t width, uint32_t height, frost_error *err);
frost_status frost_palette_finish(frost_palette_builder *builder, uint8_t *palette, uint32_t *palette_count, int *transparent,
                                  frost_error *err);
frost_status frost_palette_remap(frost_palette_builder *builder, const uint8_t *rgba, uint32_t width, uint32_t height,
                                 uint8_t *indices, frost_error *err);
void frost_palette_free(frost_palette_builder *builder);

// CRC-32 (ISO 3309, as PNG chunks carry it) of `length` bytes, through libdeflate.
uint32_t frost_crc32(const uint8_t *data, size_t length);

void frost_free(void *p);


// ---------------------------------------------------------------- Colour (lcms2, opened on first use)
// Profiles are ICC bytes. A transform converts rows of 8-bit pixels from a source profile (NULL:
// sRGB) in `layout` to RGBA8 in the target space: sRGB, Display P3 (DCI-P3 primaries, D65, the
// sRGB curve) or the given RGB profile, with an ICC rendering intent (0 perceptual, 1 relative
// colorimetric, 2 saturation, 3 absolute colorimetric). RGBA rows keep their alpha; CMYK rows
// (4 bytes a pixel; Adobe's inverted samples with CMYK_INVERTED) and gray rows (RGBA8 whose red is
// the gray) come out opaque, gray rows keeping their alpha.
enum { FROST_COLOUR_SRGB = 0, FROST_COLOUR_P3 = 1, FROST_COLOUR_GIVEN = 2 };
enum { FROST_COLOUR_RGBA = 0, FROST_COLOUR_CMYK = 1, FROST_COLOUR_CMYK_INVERTED = 2, FROST_COLOUR_GRAY = 3 };

typedef struct {
    char description[256];     // the profile's description tag (ASCII, English), or empty
    uint32_t colour_space;     // its data colour space signature: 'RGB ', 'GRAY', 'CMYK', 'Lab '…
    uint32_t device_class;     // its profile class: 'mntr', 'scnr', 'prtr', 'spac', 'link', 'abst', 'nmcl'
    int is_srgb;               // an RGB profile whose every probe colour converts to sRGB unchanged (±1), relative colorimetric
    uint32_t srgb_intents;     // bit i: the same for ICC intent i (a LUT profile's perceptual table may differ)
    int converts;              // lcms2 makes a transform from it to sRGB (RGB, Gray and CMYK profiles)
} frost_colour_info;

// `probe`: an RGB profile's sRGB probes made too (`is_srgb`, `srgb_intents`: a few optimised
// transforms, 4 ms each); without, only whether lcms2 links it to sRGB (`converts`, 1 ms).
frost_status frost_colour_describe(const uint8_t *icc, size_t size, int probe, frost_colour_info *info, frost_error *err);
// A built-in target's profile (sRGB, P3) as malloc'd ICC bytes (frost_free), to tag what was converted.
frost_status frost_colour_profile_bytes(int target, uint8_t **out, size_t *out_size, frost_error *err);
// The RGB profile a CICP pair says (ITU-T H.273 colour primaries 1 BT.709, 9 BT.2020, 11 DCI-P3,
// 12 Display P3; transfer 1, 6, 14, 15 BT.709's curve, 13 sRGB, 4 gamma 2.2, 5 gamma 2.8, 8 linear),
// as malloc'd ICC bytes; FROST_ERR_UNSUPPORTED for any other (PQ and HLG among them). With `gray`,
// the Gray profile of that white point and curve (a gray PNG's cICP).
frost_status frost_colour_profile_for_cicp(int primaries, int transfer, int gray, uint8_t **out, size_t *out_size, frost_error *err);
// The RGB profile of chromaticities (white x, y, then red, green and blue x, y) and a pure power
// curve of `gamma` (the decoding exponent: 2.2 for PNG's gAMA 45455), named `description`; with
// `gray`, the Gray profile of that white and curve (the primaries unused).
frost_status frost_colour_profile_for_chromaticities(const double *xy, double gamma, int gray, const char *description,
                                                     uint8_t **out, size_t *out_size, frost_error *err);

typedef struct frost_colour_transform frost_colour_transform;
frost_status frost_colour_transform_create(const uint8_t *source, size_t source_size, int layout, int target,
                                           const uint8_t *target_bytes, size_t target_size, int intent,
                                           frost_colour_transform **out, frost_error *err);
// `rows` rows of `width` pixels; `in` and `out` may be the same rows for RGBA and gray.
frost_status frost_colour_transform_rows(frost_colour_transform *t, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                                         size_t in_stride, size_t out_stride, frost_error *err);
void frost_colour_transform_free(frost_colour_transform *t);
// A gray transform whose every gray comes out neutral (R = G = B): its pixels can stay gray.
int frost_colour_transform_keeps_gray(const frost_colour_transform *t);

// The fast path for RGBA rows between two matrix/TRC RGB profiles (every common RGB profile), any
// intent but absolute: curves, a matrix and inverse curves in floats, eight pixels a step with AVX2
// (release builds); NULL where it is not exactly what lcms2 does (a LUT lcms2 would read for the
// intent, black point compensation that moves the black, a link or abstract profile): lcms2's
// transform then. `_scalar` is the reference the vector kernel must equal byte for byte.
typedef struct frost_colour_fast frost_colour_fast;
frost_colour_fast *frost_colour_fast_create(const uint8_t *source, size_t source_size, int target, const uint8_t *target_bytes,
                                            size_t target_size, int intent);
void frost_colour_fast_rows(const frost_colour_fast *f, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                            size_t in_stride, size_t out_stride);
void frost_colour_fast_rows_scalar(const frost_colour_fast *f, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                                   size_t in_stride, size_t out_stride);
void frost_colour_fast_free(frost_colour_fast *f);

#endif
