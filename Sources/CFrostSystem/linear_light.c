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
// 1.2× as fast as a scalar table loop; AVX-512's word permutes look the table up 2.4× as fast as the
// polynomial: 6.3 against 15 ms for the 64 M samples of a 4096² resize.) One entry of padding: the
// AVX2 gathers read 32 bits at each 16-bit entry.
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

// Pairwise products of 16-bit samples and weights, summed, as `frost_resample_vertical`'s
// weights give them: tap 2j in the low half of pairs[j], 2j+1 in the high half.
static inline int32_t tap_weight(const uint32_t *pairs, int k) { return (int16_t)(pairs[k / 2] >> (16 * (k % 2))); }

void frost_linear_vertical_scalar(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t start,
                                  size_t samples, uint16_t *out) {
    const int32_t bias = 1 << (shift - 1);
    for (size_t i = start; i < samples; i++) {
        int32_t acc = bias;
        for (int k = 0; k < taps; k++) acc += tap_weight(pairs, k) * rows[k][i];
        out[i] = clamped_linear(acc >> shift);
    }
}

void frost_linear_horizontal_scalar(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                                    size_t start, size_t count, uint16_t *out) {
    const int32_t bias = 1 << (shift - 1);
    const int stride = (taps + 1) / 2;
    for (size_t o = start; o < count; o++) {
        const uint16_t *p = row + 4 * (size_t)first[o];
        const uint32_t *w = pairs + o * (size_t)stride;
        for (int c = 0; c < 4; c++) {
            int32_t acc = bias;
            for (int k = 0; k < taps; k++) acc += tap_weight(w, k) * p[4 * k + c];
            out[4 * o + c] = clamped_linear(acc >> shift);
        }
    }
}

#if defined(__AVX2__)
#include <immintrin.h>

// Opaque pixels only (straight alpha takes the scalar form): with AVX-512 (where the resampler's
// VNNI forms run: F, BW and VL, and the OS saves ZMM state), 32 samples a step, each the table's
// quarter its bits 6–7 pick, looked up by bits 0–5 with one two-register word permute per quarter;
// else 16 a step by AVX2 gathers of 32 bits at each entry, the high half masked off.

// Eight opaque pixels' samples from a copy of the table in eight registers.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i decoded_eight(const uint8_t *src, const __m512i *t) {
    const __m512i index = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)src));
    const __m512i q0 = _mm512_permutex2var_epi16(t[0], index, t[1]), q1 = _mm512_permutex2var_epi16(t[2], index, t[3]);
    const __m512i q2 = _mm512_permutex2var_epi16(t[4], index, t[5]), q3 = _mm512_permutex2var_epi16(t[6], index, t[7]);
    const __mmask32 b6 = _mm512_test_epi16_mask(index, _mm512_set1_epi16(64));
    const __mmask32 b7 = _mm512_test_epi16_mask(index, _mm512_set1_epi16(128));
    const __m512i v = _mm512_mask_blend_epi16(b7, _mm512_mask_blend_epi16(b6, q0, q1), _mm512_mask_blend_epi16(b6, q2, q3));
    return _mm512_mask_mov_epi16(v, 0x88888888u, _mm512_set1_epi16(FROST_RESAMPLE_TOP));
}

// Pixels decoded (into `dst`) or decoded and added (to `sums`) by AVX-512, as many as whole steps take.
__attribute__((target("avx512f,avx512bw"))) static size_t decode_avx512(const uint8_t *src, uint16_t *dst, uint32_t *sums,
                                                                        size_t pixels) {
    __m512i t[8];
    for (int k = 0; k < 8; k++) t[k] = _mm512_loadu_si512((const void *)(decode_table + 32 * k));
    size_t i = 0;
    for (; i + 8 <= pixels; i += 8) {
        const __m512i v = decoded_eight(src + 4 * i, t);
        if (dst) {
            _mm512_storeu_si512((void *)(dst + 4 * i), v);
        } else {
            uint32_t *s = sums + 4 * i;
            _mm512_storeu_si512((void *)s, _mm512_add_epi32(_mm512_loadu_si512((const void *)s),
                                                            _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v))));
            _mm512_storeu_si512((void *)(s + 16), _mm512_add_epi32(_mm512_loadu_si512((const void *)(s + 16)),
                                                                   _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1))));
        }
    }
    return i;
}

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
    return frost_resample_vnni() ? decode_avx512(src, dst, sums, pixels) : decode_avx2(src, dst, sums, pixels);
}

void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    const size_t i = decode_vector(src, dst, NULL, pixels, straight_alpha);
    frost_linear_decode_scalar(src + 4 * i, dst + 4 * i, pixels - i, straight_alpha);
}

void frost_linear_decode_add(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha) {
    const size_t i = decode_vector(src, NULL, sums, pixels, straight_alpha);
    frost_linear_decode_add_scalar(src + 4 * i, sums + 4 * i, pixels - i, straight_alpha);
}

// The vertical pass is resample.c's (resample_vertical.h), storing linear 8.7 samples: sixteen
// sums shifted, packed with unsigned saturation (below 0 → 0) and capped at 32640.
static inline __attribute__((always_inline)) void store_linear(uint16_t *p, __m256i low, __m256i high, int shift) {
    const __m256i words = _mm256_packus_epi32(_mm256_srai_epi32(low, shift), _mm256_srai_epi32(high, shift));
    _mm256_storeu_si256((__m256i *)p, _mm256_min_epu16(words, _mm256_set1_epi16(FROST_RESAMPLE_TOP)));
}
#define VERTICAL_OUT uint16_t
#define VERTICAL_STORE store_linear

#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512vnni"))), apply_to = function)
#define VERTICAL_PASS linear_vertical_vnni
#define MULTIPLY_ADD(acc, a, w) _mm256_dpwssd_epi32(acc, a, w)
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef MULTIPLY_ADD
#pragma clang attribute pop

#define VERTICAL_PASS linear_vertical_avx2
#define MULTIPLY_ADD(acc, a, w) _mm256_add_epi32(acc, _mm256_madd_epi16(a, w))
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef MULTIPLY_ADD

// One output row or two over the same window (as resample.c's vertical_rows).
static void linear_vertical_rows(const uint16_t *const *rows, const uint32_t *const *tables, int taps, int shift, size_t samples,
                                 uint16_t *const *outs, int outputs) {
    size_t i = 0;
    if (taps % 2 == 0) i = frost_resample_vnni() ? linear_vertical_vnni(rows, tables, taps, shift, samples, outs, outputs)
                                                 : linear_vertical_avx2(rows, tables, taps, shift, samples, outs, outputs);
    for (int o = 0; o < outputs; o++) frost_linear_vertical_scalar(rows, tables[o], taps, shift, i, samples, outs[o]);
}

void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out) {
    const uint32_t *const tables[2] = {pairs, pairs};
    uint16_t *const outs[2] = {out, out};
    linear_vertical_rows(rows, tables, taps, shift, samples, outs, 1);
}

void frost_linear_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                               size_t samples, uint16_t *out, uint16_t *out2) {
    const uint32_t *const tables[2] = {pairs, pairs2};
    uint16_t *const outs[2] = {out, out2};
    linear_vertical_rows(rows, tables, taps, shift, samples, outs, 2);
}

// Two output pixels per step, one in each 128-bit half: a pair of source pixels shuffled to
// (pixel k, pixel k+1) pairs of each channel meets its output's weight pair in one multiply-add.
void frost_linear_horizontal(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                             size_t count, uint16_t *out) {
    size_t o = 0;
    if (taps % 2 == 0) {
        const __m256i pairing = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
        const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
        const int stride = taps / 2;
        for (; o + 2 <= count; o += 2) {
            const uint16_t *p0 = row + 4 * (size_t)first[o], *p1 = row + 4 * (size_t)first[o + 1];
            const uint32_t *w0 = pairs + o * (size_t)stride, *w1 = w0 + stride;
            __m256i acc = bias;
            for (int j = 0; j < stride; j++) {
                const __m256i px = _mm256_loadu2_m128i((const __m128i *)(p1 + 8 * j), (const __m128i *)(p0 + 8 * j));
                const __m256i w = _mm256_setr_m128i(_mm_set1_epi32((int32_t)w0[j]), _mm_set1_epi32((int32_t)w1[j]));
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(px, pairing), w));
            }
            const __m256i words = _mm256_packus_epi32(_mm256_srai_epi32(acc, shift), _mm256_setzero_si256());
            const __m256i clamped = _mm256_min_epu16(words, _mm256_set1_epi16(FROST_RESAMPLE_TOP));
            _mm_storel_epi64((__m128i *)(out + 4 * o), _mm256_castsi256_si128(clamped));
            _mm_storel_epi64((__m128i *)(out + 4 * o + 4), _mm256_extracti128_si256(clamped, 1));
        }
    }
    frost_linear_horizontal_scalar(row, first, pairs, taps, shift, o, count, out);
}
#else
void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    frost_linear_decode_scalar(src, dst, pixels, straight_alpha);
}

void frost_linear_decode_add(const uint8_t *src, uint32_t *sums, size_t pixels, int straight_alpha) {
    frost_linear_decode_add_scalar(src, sums, pixels, straight_alpha);
}

void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out) {
    frost_linear_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
}

void frost_linear_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                               size_t samples, uint16_t *out, uint16_t *out2) {
    frost_linear_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
    frost_linear_vertical_scalar(rows, pairs2, taps, shift, 0, samples, out2);
}

void frost_linear_horizontal(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                             size_t count, uint16_t *out) {
    frost_linear_horizontal_scalar(row, first, pairs, taps, shift, 0, count, out);
}
#endif
