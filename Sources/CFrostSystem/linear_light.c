#include "CFrostSystem.h"

// Linear light (FrostEffects, LinearLight): sRGB bytes decoded to linear 8.7 samples (0…32640
// for 0…1), and the resampling passes over such samples. Each vector form computes exactly what
// its scalar reference computes (LinearLightTests).

static inline uint16_t clamped_linear(int32_t v) {
    return (uint16_t)(v < 0 ? 0 : v > FROST_RESAMPLE_TOP ? FROST_RESAMPLE_TOP : v);
}

// The sRGB transfer (IEC 61966-2-1), v/12.92 up to 0.04045 and ((v + 0.055)/1.055)^2.4 above,
// for each byte v·255, times 32640 and rounded (computed in double). Every form reads this table,
// so every CPU gives the same samples. (A degree-6 polynomial in AVX2 was within a unit of it and
// 1.2× as fast as a scalar table loop; AVX-512's word permutes looked the table up 2.4× as fast as
// the polynomial, VBMI's byte permutes 1.2× as fast again.) One entry of padding: the AVX2 gathers
// read 32 bits at each 16-bit entry.
static const uint16_t decode_table[257] = {
        0,    10,    20,    30,    40,    50,    59,    69,    79,    89,    99,   109,   120,   131,   143,   156,
      169,   183,   197,   213,   228,   245,   262,   280,   298,   317,   337,   358,   379,   401,   424,   447,
      471,   496,   522,   549,   576,   604,   633,   662,   693,   724,   756,   789,   822,   857,   892,   928,
      965,  1002,  1041,  1081,  1121,  1162,  1204,  1247,  1291,  1335,  1381,  1428,  1475,  1523,  1572,  1622,
     1673,  1725,  1778,  1832,  1887,  1942,  1999,  2057,  2115,  2175,  2235,  2297,  2359,  2422,  2487,  2552,
     2618,  2686,  2754,  2823,  2894,  2965,  3037,  3111,  3185,  3261,  3337,  3415,  3493,  3573,  3653,  3735,
     3818,  3902,  3987,  4073,  4160,  4248,  4337,  4427,  4518,  4611,  4704,  4799,  4895,  4992,  5089,  5188,
     5289,  5390,  5492,  5596,  5700,  5806,  5913,  6021,  6130,  6241,  6352,  6465,  6579,  6694,  6810,  6927,
     7046,  7165,  7286,  7408,  7531,  7656,  7781,  7908,  8036,  8165,  8296,  8427,  8560,  8694,  8829,  8965,
     9103,  9242,  9382,  9523,  9666,  9810,  9955, 10101, 10249, 10397, 10547, 10699, 10851, 11005, 11160, 11316,
    11474, 11633, 11793, 11954, 12117, 12281, 12446, 12613, 12781, 12950, 13121, 13292, 13465, 13640, 13815, 13992,
    14171, 14350, 14531, 14714, 14897, 15082, 15268, 15456, 15645, 15835, 16027, 16220, 16414, 16610, 16807, 17005,
    17205, 17406, 17609, 17812, 18018, 18224, 18432, 18642, 18852, 19064, 19278, 19493, 19709, 19927, 20146, 20366,
    20588, 20811, 21036, 21262, 21489, 21718, 21949, 22180, 22413, 22648, 22884, 23121, 23360, 23601, 23842, 24085,
    24330, 24576, 24824, 25072, 25323, 25575, 25828, 26083, 26339, 26597, 26856, 27116, 27378, 27642, 27907, 28173,
    28441, 28711, 28982, 29254, 29528, 29804, 30080, 30359, 30639, 30920, 31203, 31487, 31773, 32061, 32350, 32640,
    0
};

static inline uint16_t premultiplied_linear(uint8_t c, uint8_t a) {
    return (uint16_t)(((uint32_t)decode_table[c] * a + 127) / 255);
}

static inline void decode_pixel(const uint8_t *p, uint16_t *q, int straight_alpha) {
    if (straight_alpha) {
        for (int c = 0; c < 3; c++) q[c] = premultiplied_linear(p[c], p[3]);
        q[3] = (uint16_t)(p[3] << 7);
    } else {
        for (int c = 0; c < 3; c++) q[c] = decode_table[p[c]];
        q[3] = FROST_RESAMPLE_TOP;
    }
}

void frost_linear_decode_add_scalar(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha) {
    for (size_t i = 0; i < pixels; i++) {
        uint16_t q[4];
        decode_pixel(src + 4 * i, q, straight_alpha);
        for (int c = 0; c < 4; c++) sums[4 * i + c] += q[c];
    }
}

void frost_linear_decode_scalar(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    for (size_t i = 0; i < pixels; i++) decode_pixel(src + 4 * i, dst + 4 * i, straight_alpha);
}

size_t frost_linear_encode_opaque(const uint16_t *linear, size_t pixels, const uint8_t *table, uint8_t *out) {
    size_t i = 0;
    for (; i < pixels; i++) {
        const uint16_t *p = linear + 4 * i;
        if (p[3] != FROST_RESAMPLE_TOP) break;
        const uint32_t v = table[p[0]] | (uint32_t)table[p[1]] << 8 | (uint32_t)table[p[2]] << 16 | 0xFF000000u;
        __builtin_memcpy(out + 4 * i, &v, 4);
    }
    return i;
}

// Pairwise products of 16-bit samples and weights, summed, as `frost_resample_vertical`'s
// weights give them: tap 2j in the low half of pairs[j], 2j+1 in the high half.
static inline int32_t tap_weight(const uint32_t *pairs, int k) { return (int16_t)(pairs[k / 2] >> (16 * (k % 2))); }

// The vertical pass's rows are stored with the pixels paired (`paired_index`), as the horizontal
// pass's multiply-adds take them: pixel pair m holds r(2m) r(2m+1) g g b b a a. An odd last pixel's
// partner is 0.
static inline size_t paired_index(size_t i) { return (i / 8) * 8 + (i % 4) * 2 + (i / 4) % 2; }

void frost_linear_vertical_scalar(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t start,
                                  size_t samples, uint16_t *out) {
    const int32_t bias = 1 << (shift - 1);
    for (size_t i = start; i < samples; i++) {
        int32_t acc = bias;
        for (int k = 0; k < taps; k++) acc += tap_weight(pairs, k) * rows[k][i];
        out[paired_index(i)] = clamped_linear(acc >> shift);
    }
    for (size_t i = samples; i % 8; i++) out[paired_index(i)] = 0;
}

void frost_linear_horizontal_scalar(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                                    size_t start, size_t count, uint16_t *out) {
    const int32_t bias = 1 << (shift - 1);
    const int stride = (taps + 1) / 2;
    for (size_t o = start; o < count; o++) {
        const size_t at = 4 * (size_t)first[o];
        const uint32_t *w = pairs + o * (size_t)stride;
        for (int c = 0; c < 4; c++) {
            int32_t acc = bias;
            for (int k = 0; k < taps; k++) acc += tap_weight(w, k) * row[paired_index(at + 4 * (size_t)k + (size_t)c)];
            out[4 * o + c] = clamped_linear(acc >> shift);
        }
    }
}

int frost_linear_horizontal_steps(int taps) { return (taps + 4) / 4; }

// Output o's window from its even pixel first[o] & ~1 (a weight 0 before an odd first), four taps
// a step: per step two weight pairs, each repeated for the four channels.
void frost_linear_horizontal_weights(const int32_t *first, const uint32_t *pairs, int taps, size_t count, uint32_t *laid) {
    const int stride = (taps + 1) / 2, steps = frost_linear_horizontal_steps(taps);
    for (size_t o = 0; o < count; o++) {
        const int odd = first[o] & 1;
        for (int j = 0; j < 2 * steps; j++) {
            uint32_t pair = 0;
            for (int h = 0; h < 2; h++) {
                const int k = 2 * j + h - odd;
                if (k >= 0 && k < taps) pair |= (uint32_t)(uint16_t)tap_weight(pairs + o * (size_t)stride, k) << (16 * h);
            }
            for (int c = 0; c < 4; c++) laid[(o * (size_t)steps * 2 + (size_t)j) * 4 + (size_t)c] = pair;
        }
    }
}

#if defined(__AVX2__)
#include <cpuid.h>
#include <immintrin.h>

// Opaque pixels only (straight alpha takes the scalar form): with AVX-512 VBMI (and the resampler's
// VNNI forms: F, BW and VL, with the OS saving ZMM state), 64 samples a step, the table's low bytes
// and high bytes looked up apart by two-register byte permutes (bits 0–6 of each byte; bit 7 picks
// the pair of registers) and interleaved back into words; else 16 a step by AVX2 gathers of 32 bits
// at each entry, the high half masked off. (Word permutes over four 64-word quarters took 1.2× as
// long as the byte permutes.)

static int cpu_has_vbmi(void) {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & bit_AVX512VBMI);
}

static int decodes_by_vbmi(void) {
    static int state = -1;
    int known = __atomic_load_n(&state, __ATOMIC_RELAXED);
    if (known < 0) {
        known = cpu_has_vbmi();
        __atomic_store_n(&state, known, __ATOMIC_RELAXED);
    }
    return known && frost_resample_vnni();
}

#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vbmi"))), apply_to = function)
// Pixels decoded (into `dst`) or decoded and added (to `sums`), as many as whole steps take. The
// bytes are first reordered so that the unpacks, which work per 128-bit part, give the samples in
// order: part q holds bytes 8q…8q+7 and 32+8q…32+8q+7.
static size_t decode_avx512(const uint8_t *src, uint16_t *dst, uint32_t *sums, size_t pixels) {
    static const uint8_t reorder[64] = {0,  1,  2,  3,  4,  5,  6,  7,  32, 33, 34, 35, 36, 37, 38, 39,
                                        8,  9,  10, 11, 12, 13, 14, 15, 40, 41, 42, 43, 44, 45, 46, 47,
                                        16, 17, 18, 19, 20, 21, 22, 23, 48, 49, 50, 51, 52, 53, 54, 55,
                                        24, 25, 26, 27, 28, 29, 30, 31, 56, 57, 58, 59, 60, 61, 62, 63};
    // The table's bytes: lo[k] and hi[k] hold entries 64k…64k+63's low and high bytes.
    __m512i lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        const __m512i a = _mm512_loadu_si512((const void *)(decode_table + 64 * k));
        const __m512i b = _mm512_loadu_si512((const void *)(decode_table + 64 * k + 32));
        lo[k] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(a)), _mm512_cvtepi16_epi8(b), 1);
        hi[k] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(_mm512_srli_epi16(a, 8))),
                                   _mm512_cvtepi16_epi8(_mm512_srli_epi16(b, 8)), 1);
    }
    const __m512i order = _mm512_loadu_si512((const void *)reorder), top = _mm512_set1_epi16(FROST_RESAMPLE_TOP);
    size_t i = 0;
    for (; i + 16 <= pixels; i += 16) {
        const __m512i index = _mm512_permutexvar_epi8(order, _mm512_loadu_si512((const void *)(src + 4 * i)));
        const __mmask64 upper = _mm512_movepi8_mask(index);
        const __m512i l = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(lo[0], index, lo[1]),
                                                 _mm512_permutex2var_epi8(lo[2], index, lo[3]));
        const __m512i h = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(hi[0], index, hi[1]),
                                                 _mm512_permutex2var_epi8(hi[2], index, hi[3]));
        const __m512i v[2] = {_mm512_mask_mov_epi16(_mm512_unpacklo_epi8(l, h), 0x88888888u, top),
                              _mm512_mask_mov_epi16(_mm512_unpackhi_epi8(l, h), 0x88888888u, top)};
        for (int half = 0; half < 2; half++) {
            if (dst) {
                _mm512_storeu_si512((void *)(dst + 4 * i + 32 * half), v[half]);
            } else {
                uint32_t *s = sums + 4 * i + 32 * half;
                _mm512_storeu_si512((void *)s, _mm512_add_epi32(_mm512_loadu_si512((const void *)s),
                                                                _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v[half]))));
                _mm512_storeu_si512((void *)(s + 16), _mm512_add_epi32(_mm512_loadu_si512((const void *)(s + 16)),
                                                                       _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v[half], 1))));
            }
        }
    }
    return i;
}
#pragma clang attribute pop

// The same by AVX2 gathers (two pixels' samples per 32-bit register).
static size_t decode_avx2(const uint8_t *src, uint16_t *dst, uint32_t *sums, size_t pixels) {
    const __m256i alpha = _mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1), top = _mm256_set1_epi32(FROST_RESAMPLE_TOP);
    const __m256i entry = _mm256_set1_epi32(0xFFFF);
    const int *table = (const int *)(const void *)decode_table;
    size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(src + 4 * i));
        __m256i low = _mm256_and_si256(_mm256_i32gather_epi32(table, _mm256_cvtepu8_epi32(bytes), 2), entry);
        __m256i high = _mm256_and_si256(_mm256_i32gather_epi32(table, _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)), 2), entry);
        low = _mm256_blendv_epi8(low, top, alpha);
        high = _mm256_blendv_epi8(high, top, alpha);
        if (dst) {
            // packus works per 128-bit half: the permute restores the order.
            _mm256_storeu_si256((__m256i *)(dst + 4 * i), _mm256_permute4x64_epi64(_mm256_packus_epi32(low, high), 0xD8));
        } else {
            __m256i *s = (__m256i *)(sums + 4 * i);
            _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), low));
            _mm256_storeu_si256(s + 1, _mm256_add_epi32(_mm256_loadu_si256(s + 1), high));
        }
    }
    return i;
}

static size_t decode_vector(const uint8_t *src, uint16_t *dst, uint32_t *sums, size_t pixels, int straight_alpha) {
    if (straight_alpha) return 0;
    return decodes_by_vbmi() ? decode_avx512(src, dst, sums, pixels) : decode_avx2(src, dst, sums, pixels);
}

void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    const size_t i = decode_vector(src, dst, NULL, pixels, straight_alpha);
    frost_linear_decode_scalar(src + 4 * i, dst + 4 * i, pixels - i, straight_alpha);
}

void frost_linear_decode_add(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha) {
    const size_t i = decode_vector(src, NULL, sums, pixels, straight_alpha);
    frost_linear_decode_add_scalar(src + 4 * i, sums + 4 * i, pixels - i, straight_alpha);
}

// The vertical pass is resample.c's (resample_vertical.h), storing linear 8.7 samples with the
// pixels paired: the sums shifted, packed with unsigned saturation (below 0 → 0; per 128-bit part
// pixel 2m then 2m+1), paired by a byte shuffle and capped at 32640.
#define PAIRING_BYTES 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15
static inline __attribute__((always_inline)) void store_linear(uint16_t *p, __m256i low, __m256i high, int shift) {
    const __m256i pairing = _mm256_setr_epi8(PAIRING_BYTES, PAIRING_BYTES);
    const __m256i words = _mm256_packus_epi32(_mm256_srai_epi32(low, shift), _mm256_srai_epi32(high, shift));
    _mm256_storeu_si256((__m256i *)p, _mm256_min_epu16(_mm256_shuffle_epi8(words, pairing), _mm256_set1_epi16(FROST_RESAMPLE_TOP)));
}
#define VERTICAL_OUT uint16_t

#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512vnni"))), apply_to = function)
static inline __attribute__((always_inline)) void store_linear_wide(uint16_t *p, __m512i low, __m512i high, int shift) {
    const __m512i pairing = _mm512_broadcast_i32x4(_mm_setr_epi8(PAIRING_BYTES));
    const __m512i words = _mm512_packus_epi32(_mm512_srai_epi32(low, shift), _mm512_srai_epi32(high, shift));
    _mm512_storeu_si512((void *)p, _mm512_min_epu16(_mm512_shuffle_epi8(words, pairing), _mm512_set1_epi16(FROST_RESAMPLE_TOP)));
}
#define VERTICAL_PASS linear_vertical_vnni
#define VERTICAL_WIDE 1
#define VERTICAL_STORE store_linear_wide
#define MULTIPLY_ADD(acc, a, w) _mm512_dpwssd_epi32(acc, a, w)
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef VERTICAL_WIDE
#undef VERTICAL_STORE
#undef MULTIPLY_ADD
#pragma clang attribute pop

#define VERTICAL_PASS linear_vertical_avx2
#define VERTICAL_WIDE 0
#define VERTICAL_STORE store_linear
#define MULTIPLY_ADD(acc, a, w) _mm256_add_epi32(acc, _mm256_madd_epi16(a, w))
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef VERTICAL_WIDE
#undef VERTICAL_STORE
#undef MULTIPLY_ADD

// One output row or two over the same window (as resample.c's vertical_rows).
static void linear_vertical_rows(const uint16_t *const *rows, const uint32_t *const *tables, int taps, int shift, size_t samples,
                                 uint16_t *const *outs, int outputs, const frost_rows_ahead *ahead) {
    size_t i = 0;
    if (taps % 2 == 0) i = frost_resample_vnni() ? linear_vertical_vnni(rows, tables, taps, shift, samples, outs, outputs, ahead)
                                                 : linear_vertical_avx2(rows, tables, taps, shift, samples, outs, outputs, ahead);
    for (int o = 0; o < outputs; o++) frost_linear_vertical_scalar(rows, tables[o], taps, shift, i, samples, outs[o]);
}

void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out, const frost_rows_ahead *ahead) {
    const uint32_t *const tables[2] = {pairs, pairs};
    uint16_t *const outs[2] = {out, out};
    linear_vertical_rows(rows, tables, taps, shift, samples, outs, 1, ahead);
}

void frost_linear_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                               size_t samples, uint16_t *out, uint16_t *out2, const frost_rows_ahead *ahead) {
    const uint32_t *const tables[2] = {pairs, pairs2};
    uint16_t *const outs[2] = {out, out2};
    linear_vertical_rows(rows, tables, taps, shift, samples, outs, 2, ahead);
}

// The horizontal pass over one row or two (sharing the weights' loads): per output, steps of two
// pixel pairs (sixteen samples) times their laid weights in one multiply-add, with no shuffle; two
// outputs' sums folded (their halves added) and stored together. The row is read up to two pixels
// past first[o] + taps (the weights are 0 there).
#define HORIZONTAL_PASS linear_horizontal_vnni
#define MULTIPLY_ADD(acc, a, w) _mm256_dpwssd_epi32(acc, a, w)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512vnni"))), apply_to = function)
#include "linear_horizontal.h"
#pragma clang attribute pop
#undef HORIZONTAL_PASS
#undef MULTIPLY_ADD
#define HORIZONTAL_PASS linear_horizontal_avx2
#define MULTIPLY_ADD(acc, a, w) _mm256_add_epi32(acc, _mm256_madd_epi16(a, w))
#include "linear_horizontal.h"
#undef HORIZONTAL_PASS
#undef MULTIPLY_ADD

void frost_linear_horizontal(const uint16_t *const *rows, int nrows, const int32_t *first, const uint32_t *pairs,
                             const uint32_t *laid, int taps, int shift, size_t count, uint16_t *const *out) {
    const int steps = frost_linear_horizontal_steps(taps);
    const size_t o = frost_resample_vnni() ? linear_horizontal_vnni(rows, nrows, first, laid, steps, shift, count, out)
                                           : linear_horizontal_avx2(rows, nrows, first, laid, steps, shift, count, out);
    for (int r = 0; r < nrows; r++) frost_linear_horizontal_scalar(rows[r], first, pairs, taps, shift, o, count, out[r]);
}
#else
void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    frost_linear_decode_scalar(src, dst, pixels, straight_alpha);
}

void frost_linear_decode_add(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha) {
    frost_linear_decode_add_scalar(src, sums, pixels, straight_alpha);
}

void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out, const frost_rows_ahead *ahead) {
    (void)ahead;
    frost_linear_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
}

void frost_linear_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                               size_t samples, uint16_t *out, uint16_t *out2, const frost_rows_ahead *ahead) {
    (void)ahead;
    frost_linear_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
    frost_linear_vertical_scalar(rows, pairs2, taps, shift, 0, samples, out2);
}

void frost_linear_horizontal(const uint16_t *const *rows, int nrows, const int32_t *first, const uint32_t *pairs,
                             const uint32_t *laid, int taps, int shift, size_t count, uint16_t *const *out) {
    (void)laid;
    for (int r = 0; r < nrows; r++) frost_linear_horizontal_scalar(rows[r], first, pairs, taps, shift, 0, count, out[r]);
}
#endif
