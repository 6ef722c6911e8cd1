// What Swift cannot say: process-wide allocator policy for programs that handle many large
// images, and the few vector operations its SIMD types lack.
#ifndef CFROSTSYSTEM_H
#define CFROSTSYSTEM_H
#include <stddef.h>
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

// glibc serves every allocation above 32 MiB with a fresh mmap and unmaps it on free, so each
// new 4096x4096 RGBA result (64 MiB) is paid for again in page faults: measured here, filling a
// fresh 64 MiB buffer takes 65 ms against 9 ms for a reused one (transparent huge pages only bring
// it to 40 ms). This keeps large blocks in the heap and up to `retained_bytes` of freed memory for
// reuse. The frost tool and the benchmarks opt in at start-up; the libraries never do it for you.
void frost_keep_freed_buffers(size_t retained_bytes);

// Swaps two paths atomically (renameat2 with RENAME_EXCHANGE): a cache rebuilt beside the one
// being served takes its place with no moment when neither is there. 0, or -1 with errno
// (EINVAL or ENOSYS where the file system or kernel cannot: NFS, most FUSE mounts).
int frost_rename_exchange(const char *a, const char *b);

// A new file made from `name_template` (ending in XXXXXX, replaced by its name) as mkstemp(3)
// makes one, its descriptor closed on exec from the start: a child started meanwhile by another
// thread (ffmpeg for a video) never inherits it, as it could between mkstemp and fcntl.
// The descriptor, or -1 with errno.
int frost_make_temporary(char *name_template);

// A buffer that one thread fills first on a critical path (the streaming ring the decoder writes
// into): mapped 2 MiB-aligned with transparent huge pages asked for (MADV_HUGEPAGE), so that its
// first touch takes a fault per 2 MiB instead of one per 4 KiB (a 4096-wide JPEG's ring: 2150
// faults, 3-4 ms of the decoder's 40). Where the kernel gives no huge pages it is ordinary
// memory. NULL when the mapping fails; free with frost_unmap_buffer and the same size.
void *frost_map_buffer(size_t bytes);
void frost_unmap_buffer(void *buffer, size_t bytes);

// Transparent huge pages asked for (MADV_HUGEPAGE) on the 2 MiB-aligned part of a large buffer not
// yet touched (a decoded image, before the decoder writes it): the kernels that read it then
// cross a page boundary, and the prefetchers restart, every 2 MiB instead of every 4 KiB.
void frost_advise_huge_pages(void *buffer, size_t bytes);

// Whether the calling thread already holds one of the compute budget's threads (ComputeBudget):
// a kernel called on it asks the budget only for helpers. Thread-local, so nested calls (a
// batch's item, an async job) never count their own thread twice.
extern _Thread_local int frost_budget_thread_held;
static inline int frost_budget_held(void) { return frost_budget_thread_held; }
static inline void frost_set_budget_held(int held) { frost_budget_thread_held = held; }

// The stop flag of the work the calling thread does (a server request whose deadline passed or
// whose client went away; FrostCore's StopFlag): decoders, encoders and the row-band scheduler
// check it between rows, scans or bands and end early, so abandoned work gives its thread back
// within a fraction of a second. NULL (the command line): nothing is checked. Thread-local: the
// scheduler hands it to the helper threads of a call.
extern _Thread_local const int *frost_stop_flag;
static inline const int *frost_stop_flag_get(void) { return frost_stop_flag; }
static inline void frost_stop_flag_set(const int *flag) { frost_stop_flag = flag; }
static inline int frost_stop_raised(const int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }
static inline void frost_stop_raise(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
static inline int frost_stopped(void) { const int *f = frost_stop_flag; return f && frost_stop_raised(f); }

// SHA-256 with the x86 SHA extensions: 1 when this CPU has them (and SSSE3, SSE4.1), and the
// compression of `blocks` 64-byte blocks into `state` (FIPS 180-4 §6.2.2), only when it does.
int frost_has_sha_extensions(void);
void frost_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);
// SHA-256's 64 round constants K.
const uint32_t *frost_sha256_constants(void);

// Eight 32-bit lanes (Swift sees SIMD8<UInt32>).
typedef unsigned int frost_words8 __attribute__((ext_vector_type(8)));

// A streaming (non-temporal) store of 32 bytes: the line is written without being read first.
// Swift has no way to ask for one; a kernel that writes a large new image with ordinary stores
// pays a read of every output line (write-allocate). Measured on the blend kernel, 64 MiB:
// 17.1 -> 14.7 ms. Call frost_store_fence() after the last one, before the data is shared.
static inline void frost_stream_store(void *p, frost_words8 v) { __builtin_nontemporal_store(v, (frost_words8 *)p); }
static inline void frost_store_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// Asks for the line `lead` bytes from p (prefetcht0; a negative lead for a loop that walks
// backwards: StreamOrder), for a loop streaming an image in from DRAM: the hardware prefetchers
// alone left most of such loops' time on their loads (blend, premultiply, box reduction, color
// kernel). Swift has no prefetch. A hint: the address may lie beyond the buffer (no fault).
static inline void frost_prefetch_at(const void *p, ptrdiff_t lead) { __builtin_prefetch((const char *)p + lead, 0, 3); }
// How far ahead: 1 KiB gained less than 4 KiB; 8 KiB gained 1.1-1.2x over 4 KiB in the color
// kernel and was neutral to 1.1x elsewhere; 16 KiB lost.
#define FROST_PREFETCH_LEAD 8192
// `frost_prefetch_at` that lead ahead of a loop walking forwards.
static inline void frost_prefetch_ahead(const void *p) { frost_prefetch_at(p, FROST_PREFETCH_LEAD); }

// Sixteen 16-bit lanes (Swift sees SIMD16<UInt16>) and their 32-bit widening.
typedef unsigned short frost_halves16 __attribute__((ext_vector_type(16)));
typedef unsigned int frost_words16 __attribute__((ext_vector_type(16)));

// The high half of each lane's 32-bit product, (a * b) >> 16: one pmulhuw (x86). Swift's SIMD
// types have no widening multiply and their generic widening and narrowing initialisers compile
// to out-of-line calls (checked); a lane loop in Swift was not vectorised. Static inline, so it is
// inlined into the Swift kernels. With AVX2 it is the intrinsic: LLVM matches pmulhuw from the
// widening multiply below too, but once inlined where an operand is a plain load it widened the
// load first and multiplied in 32-bit lanes, half the width (the enlargement's lerps, checked).
static inline frost_halves16 frost_high_products(frost_halves16 a, frost_halves16 b) {
#if defined(__AVX2__)
    return (frost_halves16)_mm256_mulhi_epu16((__m256i)a, (__m256i)b);
#else
    frost_words16 product = __builtin_convertvector(a, frost_words16) * __builtin_convertvector(b, frost_words16);
    return __builtin_convertvector(product >> 16, frost_halves16);
#endif
}

// Divides R, G, B of `count` premultiplied RGBA8 pixels by A / 255, rounded and clamped to 255,
// from `source` into `target` (they may be the same): exactly min(255, ⌊(255c + ⌊a/2⌋) / a⌋), 0
// where a = 0 (`unpremultiplyScalar` in FrostCore is the reference). In C so that the PNG writer
// can un-premultiply rows as it packs them, and Swift's `unpremultiply` is this same loop.
// `forwards` 0 walks the pixels from the last (StreamOrder in FrostCore says when).
void frost_unpremultiply(const uint8_t *source, uint8_t *target, size_t count, int forwards);

// Eight 32-bit floats (Swift sees SIMD8<Float>).
typedef float frost_floats8 __attribute__((ext_vector_type(8)));

// Eight words below 2^31 as floats: one vcvtdq2ps, read as signed words. Swift's SIMD8 initialiser
// is generic, and whether it is inlined is the optimiser's choice at each caller: in the color
// kernel it once was, then was not (an out-of-line call per lane: adjust 5x slower); the or with
// 2^23 and subtraction that avoid it cost adjust 1.2x.
typedef int frost_signed_words8 __attribute__((ext_vector_type(8)));
static inline frost_floats8 frost_floats_of_words(frost_words8 v) {
    return __builtin_convertvector((frost_signed_words8)v, frost_floats8);
}

// Eight RGBA pixels from three color channels in 0...255 units (floats within +-2^31) and the
// alpha as 32-bit integers (signed): each color rounded to nearest, ties to even, every channel
// clamped to 0...255; then the colors limited by their pixel's alpha byte as the two forms below
// say. Rounding is monotone and the bounds are integers, so these are the bytes of clamping in
// float first. With AVX2: three vcvtps2dq, saturating packs, two vpshufb and one integer op; the
// float clamps and 2^23-trick roundings they replace were 9-12 of the ~30-40 operations per eight
// pixels that only ports 0 and 1 run (the color kernel's bottleneck). An alpha the kernel does
// not change is passed as the words it was read as (no conversion to float and back).
// Baseline (non-AVX) builds warn that the generic helpers below pass 256-bit vectors to one
// another under a different ABI (-Wpsabi): they are static inline and always inlined, so no
// such call survives; the 240 warnings per build only buried real ones.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
#if defined(__AVX2__)
// Interleaved bytes and, in each pixel's four lanes, its alpha byte.
static inline void frost_rgba_and_alpha(frost_floats8 r, frost_floats8 g, frost_floats8 b, frost_words8 a,
                                        __m256i *rgba, __m256i *alpha) {
    __m256i rg = _mm256_packs_epi32(_mm256_cvtps_epi32((__m256)r), _mm256_cvtps_epi32((__m256)g));
    __m256i ba = _mm256_packs_epi32(_mm256_cvtps_epi32((__m256)b), (__m256i)a);
    // Per 128-bit lane (four pixels): r0-3 g0-3 b0-3 a0-3, each clamped to 0...255.
    __m256i planar = _mm256_packus_epi16(rg, ba);
    const __m256i interleave = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i alphaEverywhere = _mm256_setr_epi8(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15,
                                                     3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
    *rgba = _mm256_shuffle_epi8(planar, interleave);
    *alpha = _mm256_shuffle_epi8(*rgba, alphaEverywhere);
}
#else
// A color channel of the eight pixels as bytes in 0...255.
static inline frost_words8 frost_color_byte(frost_floats8 v) {
    frost_floats8 zero = 0, top = 255;
    frost_floats8 rounded = __builtin_elementwise_roundeven(__builtin_elementwise_min(__builtin_elementwise_max(v, zero), top));
    return __builtin_convertvector(rounded, frost_words8);
}

// Signed alpha words clamped to 0...255.
static inline frost_words8 frost_alpha_byte(frost_words8 a) {
    typedef int frost_ints8 __attribute__((ext_vector_type(8)));
    frost_ints8 zero = 0, top = 255;
    return (frost_words8)__builtin_elementwise_min(__builtin_elementwise_max((frost_ints8)a, zero), top);
}
#endif

// A channel the kernel computes in float as words for the alpha argument below (vcvtps2dq:
// rounded to nearest, ties to even).
static inline frost_words8 frost_rounded_words(frost_floats8 v) {
#if defined(__AVX2__)
    return (frost_words8)_mm256_cvtps_epi32((__m256)v);
#else
    frost_floats8 low = -1, high = 256;
    frost_floats8 clamped = __builtin_elementwise_min(__builtin_elementwise_max(v, low), high);
    typedef int frost_ints8 __attribute__((ext_vector_type(8)));
    return (frost_words8)__builtin_convertvector(__builtin_elementwise_roundeven(clamped), frost_ints8);
#endif
}

// Premultiplied: the colors clamped to 0...their alpha. Scalar reference:
// LaneConversion.premultipliedBytes (FrostCore).
static inline frost_words8 frost_premultiplied_rgba(frost_floats8 r, frost_floats8 g, frost_floats8 b, frost_words8 a) {
#if defined(__AVX2__)
    __m256i rgba, alpha;
    frost_rgba_and_alpha(r, g, b, a, &rgba, &alpha);
    return (frost_words8)_mm256_min_epu8(rgba, alpha);
#else
    frost_words8 alpha = frost_alpha_byte(a);
    return alpha << 24 | __builtin_elementwise_min(frost_color_byte(r), alpha) | __builtin_elementwise_min(frost_color_byte(g), alpha) << 8
        | __builtin_elementwise_min(frost_color_byte(b), alpha) << 16;
#endif
}

// Straight alpha: the colors kept where alpha > 0 and 0 where it is 0 (a transparent pixel is
// transparent black, as premultiplied data would say). Scalar reference: LaneConversion.straightBytes.
static inline frost_words8 frost_straight_rgba(frost_floats8 r, frost_floats8 g, frost_floats8 b, frost_words8 a) {
#if defined(__AVX2__)
    __m256i rgba, alpha;
    frost_rgba_and_alpha(r, g, b, a, &rgba, &alpha);
    return (frost_words8)_mm256_andnot_si256(_mm256_cmpeq_epi8(alpha, _mm256_setzero_si256()), rgba);
#else
    frost_words8 alpha = frost_alpha_byte(a);
    frost_words8 colors = frost_color_byte(r) | frost_color_byte(g) << 8 | frost_color_byte(b) << 16;
    return alpha << 24 | (colors & (frost_words8)(alpha != 0));
#endif
}
#pragma clang diagnostic pop

// An opaque image's blurs leave its alpha out: its rows enter the kernels as three color samples
// a pixel and leave with alpha put back, four pixels at a time: one vpshufb each way. Swift has
// no shuffle of its SIMD types, and a lane-by-lane initialiser is left to the vectoriser's mood.
typedef unsigned char frost_bytes16 __attribute__((ext_vector_type(16)));

// A streaming store of 16 bytes to a 16-byte aligned address (frost_stream_store for kernels whose
// steps make 16 bytes: the box blur's means).
static inline void frost_stream_store16(void *p, frost_bytes16 v) { __builtin_nontemporal_store(v, (frost_bytes16 *)p); }

// Eight 16-bit lanes (Swift sees SIMD8<UInt16>) widened to 32 bits: one 256-bit vpmovzxwd, with
// the load folded in. Swift's widening of the two halves stayed two 128-bit ones (checked).
typedef unsigned short frost_halves8 __attribute__((ext_vector_type(8)));
static inline frost_words8 frost_widened_halves8(frost_halves8 v) { return __builtin_convertvector(v, frost_words8); }

// Sixteen window sums s < 2^23 (as two halves) -> their means, each the low byte of the bits of
// fma(s, reciprocal, 2^23) (FrostEffects' ReciprocalRounding says why that is round(s / d)). With
// AVX2: one vcvtdq2ps per eight sums, where Swift's unsigned conversion made an or with 2^23 and a
// subtraction, and the masked words narrowed by two packs and three shuffles where Swift's took
// four (the box blur's means, a fifth of its time: r = 40, 4096^2 RGBA, 1.04x).
static inline frost_bytes16 frost_rounded_means16(frost_words8 low, frost_words8 high, float reciprocal) {
#if defined(__AVX2__)
    const __m256 r = _mm256_set1_ps(reciprocal), magic = _mm256_set1_ps(8388608.0f);
    const __m256i byte = _mm256_set1_epi32(0xFF);
    __m256i a = _mm256_and_si256(_mm256_castps_si256(_mm256_fmadd_ps(_mm256_cvtepi32_ps((__m256i)low), r, magic)), byte);
    __m256i b = _mm256_and_si256(_mm256_castps_si256(_mm256_fmadd_ps(_mm256_cvtepi32_ps((__m256i)high), r, magic)), byte);
    // Per 128-bit lane: a0-3 b0-3 | a4-7 b4-7 (words), then the same as bytes twice over.
    __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_setzero_si256());
    return (frost_bytes16)_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0)));
#else
    typedef int frost_ints8 __attribute__((ext_vector_type(8)));
    frost_floats8 r = reciprocal, magic = 8388608.0f;
    frost_words8 a = (frost_words8)__builtin_elementwise_fma(__builtin_convertvector((frost_ints8)low, frost_floats8), r, magic) & 0xFF;
    frost_words8 b = (frost_words8)__builtin_elementwise_fma(__builtin_convertvector((frost_ints8)high, frost_floats8), r, magic) & 0xFF;
    typedef unsigned char frost_bytes8 __attribute__((ext_vector_type(8)));
    return __builtin_shufflevector(__builtin_convertvector(a, frost_bytes8), __builtin_convertvector(b, frost_bytes8),
                                   0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#endif
}

// Four RGBA pixels -> their twelve colors R G B R G B ..., lanes 12-15 zero.
static inline frost_bytes16 frost_colors_of_rgba(frost_bytes16 rgba) {
    frost_bytes16 zero = 0;
    return __builtin_shufflevector(rgba, zero, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 16, 16, 16);
}

// Twelve colors (lanes 12-15 ignored) -> four RGBA pixels with alpha `alpha`.
static inline frost_bytes16 frost_rgba_of_colors(frost_bytes16 rgb, unsigned char alpha) {
    frost_bytes16 full = alpha;
    return __builtin_shufflevector(rgb, full, 0, 1, 2, 16, 3, 4, 5, 16, 6, 7, 8, 16, 9, 10, 11, 16);
}

// The fixed-point resampler's passes (resample.c; FrostEffects, ResamplePlan). Horizontal, on
// `nrows` rows of RGBA8: out[r][4o+c] = clamp((2^(shift-1) + sum_k weights[o*taps+k] *
// rows[r][4*(first[o]+k)+c]) >> shift, 0, FROST_RESAMPLE_TOP) for o < count (8.7 fixed point).
// Vertical, on 8.7 rows: out[i] = clamp((2^(shift-1) + sum_k w_k * rows[k][i]) >> shift, 0, 255)
// for i < samples, the weights packed two to a word (tap 2j in the low half of pairs[j], 2j+1
// in the high half, 0 past the last). The _scalar forms are the references (the vertical one
// from sample `start`); the others are AVX2 where the build has it, AVX512-VNNI where the CPU has it.
#define FROST_RESAMPLE_TOP 32640
void frost_resample_horizontal(const uint8_t *const *rows, int nrows, const int32_t *first, const int16_t *weights,
                               const int8_t *split, const int32_t *groups, int base, int clamps, int taps, int shift, size_t count,
                               uint16_t *const *out);
void frost_resample_horizontal_scalar(const uint8_t *row, const int32_t *first, const int16_t *weights, int taps, int shift,
                                      size_t count, uint16_t *out);
void frost_resample_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                             size_t samples, uint8_t *out);
void frost_resample_vertical_scalar(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                                    size_t start, size_t samples, uint8_t *out);
// Two output rows over the same `taps` rows (the union of their windows), each with its own
// weights: the same as frost_resample_vertical for each, the rows read once for both.
void frost_resample_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                                 size_t samples, uint8_t *out, uint8_t *out2);
// The horizontal weights for the VNNI pass (`split`, or NULL, with the `base` that
// frost_resample_split_weights returned): each tap w = 2^base·high + low, both signed bytes, the
// base `shift` (the pass's) where every weight allows, else 7 with low in 0…127, so every w must lie
// in [-16384, 16383] and `taps` be a multiple of 4; per output o, 2·taps bytes, per four taps their
// four highs then their four lows; and `groups`, per output o the number of groups of four taps up
// to its last nonzero weight (the pass sums only those). `clamps` = 0 promises no negative weight
// (the samples cannot leave 0…FROST_RESAMPLE_TOP, so they are not clamped).
int frost_resample_split_weights(const int16_t *weights, size_t count, int taps, int shift, int8_t *split, int32_t *groups);
// Whether the passes use AVX512-VNNI (asked of the CPU once); use_vnni(0) turns it off, use_vnni(1)
// back on where the CPU has it (the tests run both forms).
int frost_resample_vnni(void);
void frost_resample_use_vnni(int on);
// What the horizontal taps are padded to: 4 where the VNNI pass runs (groups of four taps), else 2
// (the AVX2 pass's pairs).
int frost_resample_tap_multiple(void);

// Linear light (linear_light.c; FrostEffects, LinearLight). Decode: RGBA8 sRGB pixels to linear 8.7
// samples (0…32640), colors through the sRGB transfer (rounded) and, with `straight_alpha`, times alpha/255
// (premultiplied in linear light), alpha·128; without, alpha 32640 whatever the byte. Vertical:
// v[i] = clamp((2^(shift-1) + sum_k w_k * rows[k][i]) >> shift, 0, 32640), the weights two to a
// word as frost_resample_vertical takes them, stored with the pixels paired: v[4p+c] at
// out[8(p/2) + 2c + p%2] (pixel pair m is r(2m) r(2m+1) g g b b a a; an odd last pixel's partner
// 0, so `out` holds the pixels rounded up to even). Horizontal, on such paired rows: out[4o+c] =
// the same over taps k of pixel first[o]+k, channel c, output o's weight pairs at
// o*((taps+1)/2), and `laid` those weights as frost_linear_horizontal_weights lays them for the
// vector form (frost_linear_horizontal_steps(taps) steps of 8 words per output); the rows are read
// up to two pixels past first[o]+taps. The _scalar forms are the references (from sample or output
// `start`); the others are AVX2 where the build has it (the decode of opaque pixels AVX-512 where
// frost_resample_vnni() says the CPU has it).
void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha);
void frost_linear_decode_scalar(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha);
// The decode's samples added to 32-bit `sums` (4 per pixel) instead of stored: a box reduction's rows.
void frost_linear_decode_add(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha);
void frost_linear_decode_add_scalar(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha);
// Encode of opaque pixels: each color through `table` (the curve to bytes, 32641 entries), alpha
// 255, up to the first pixel whose alpha is not 32640; returns how many it made.
size_t frost_linear_encode_opaque(const uint16_t *linear, size_t pixels, const uint8_t *table, uint8_t *out);
// `ahead` (or NULL): the source rows the caller reads next, asked of memory a few lines at a time
// while the pass computes (their first read, from DRAM, was a quarter of the linear resize:
// 20.7 → 19.2 ms on a 4096² shrink to 1170; prefetcht1, into L2: prefetcht0 gained half as much,
// prefetchnta nothing, and asking for all the rows at once before the pass nothing either).
typedef struct {
    const uint8_t *const *rows;
    int count;
    size_t bytes;
} frost_rows_ahead;
// The next `lines` cache lines of `ahead`'s rows asked for (prefetcht1), from where `row` and `at` left off.
static inline void frost_ahead_step(const frost_rows_ahead *ahead, int *row, size_t *at, size_t lines) {
    for (; lines > 0 && *row < ahead->count; lines--) {
        __builtin_prefetch((const char *)ahead->rows[*row] + *at, 0, 2);
        *at += 64;
        if (*at >= ahead->bytes) *at = 0, ++*row;
    }
}
void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out, const frost_rows_ahead *ahead);
// Two output rows over the same window, as frost_resample_vertical_two.
void frost_linear_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                               size_t samples, uint16_t *out, uint16_t *out2, const frost_rows_ahead *ahead);
void frost_linear_vertical_scalar(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t start,
                                  size_t samples, uint16_t *out);
// Over `nrows` rows (1 or 2) with the same weights.
void frost_linear_horizontal(const uint16_t *const *rows, int nrows, const int32_t *first, const uint32_t *pairs,
                             const uint32_t *laid, int taps, int shift, size_t count, uint16_t *const *out);
void frost_linear_horizontal_scalar(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                                    size_t start, size_t count, uint16_t *out);
int frost_linear_horizontal_steps(int taps);
void frost_linear_horizontal_weights(const int32_t *first, const uint32_t *pairs, int taps, size_t count, uint32_t *laid);

#endif
