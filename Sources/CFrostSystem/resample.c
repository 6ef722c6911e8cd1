#include "CFrostSystem.h"

#include <cpuid.h>

// The two passes of the fixed-point resampler (FrostEffects, ResamplePlan): 16-bit samples
// times 16-bit weights summed in 32-bit lanes, a pair of taps per multiply-add (pmaddwd), as
// Pillow-SIMD does; on CPUs with AVX512-VNNI four byte taps per multiply-add (vpdpbusd) in the
// horizontal pass. Each pass and form is exactly its scalar reference (ResizeTests).

static inline uint16_t clamped(int32_t v, int32_t top) { return (uint16_t)(v < 0 ? 0 : v > top ? top : v); }

void frost_resample_horizontal_scalar(const uint8_t *row, const int32_t *first, const int16_t *weights, int taps, int shift,
                                      size_t count, uint16_t *out) {
    const int32_t bias = 1 << (shift - 1);
    for (size_t o = 0; o < count; o++) {
        const uint8_t *p = row + 4 * (size_t)first[o];
        const int16_t *w = weights + o * (size_t)taps;
        for (int c = 0; c < 4; c++) {
            int32_t acc = bias;
            for (int k = 0; k < taps; k++) acc += (int32_t)w[k] * p[4 * k + c];
            out[4 * o + c] = clamped(acc >> shift, FROST_RESAMPLE_TOP);
        }
    }
}

int frost_resample_split_weights(const int16_t *weights, size_t count, int taps, int shift, int8_t *split, int32_t *groups) {
    // Base 2^shift where every weight fits (high and low both signed bytes, the low rounded to
    // nearest), else 128 with the low in 0…127 (any weight in [-16384, 16383]).
    int base = shift <= 8 ? shift : 7;
    for (size_t i = 0; i < count * (size_t)taps && base != 7; i++) {
        int32_t high = (weights[i] + (1 << base >> 1)) >> base;
        if (high < -128 || high > 127) base = 7;
    }
    const int32_t half = base == 7 ? 0 : 1 << base >> 1;
    for (size_t o = 0; o < count; o++) {
        int used = 1;
        for (int k = 0; k < taps; k++) if (weights[o * (size_t)taps + (size_t)k]) used = k + 1;
        groups[o] = (used + 3) / 4;
        for (int g = 0; g < taps; g += 4) {
            int8_t *to = split + 2 * (o * (size_t)taps + (size_t)g);
            for (int k = 0; k < 4; k++) {
                int32_t w = weights[o * (size_t)taps + (size_t)(g + k)], high = (w + half) >> base;   // arithmetic shift
                to[k] = (int8_t)high;
                to[4 + k] = (int8_t)(w - high * (1 << base));
            }
        }
    }
    return base;
}

// Tap k's weight from the packed pairs: the low half of pair k/2 for even k, the high half for odd.
static inline int32_t tap(const uint32_t *pairs, int k) { return (int16_t)(pairs[k / 2] >> (16 * (k % 2))); }

void frost_resample_vertical_scalar(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                                    size_t start, size_t samples, uint8_t *out) {
    const int32_t bias = 1 << (shift - 1);
    for (size_t i = start; i < samples; i++) {
        int32_t acc = bias;
        for (int k = 0; k < taps; k++) acc += tap(pairs, k) * rows[k][i];
        out[i] = (uint8_t)clamped(acc >> shift, 255);
    }
}

#if defined(__AVX2__)
// Pixel bytes of two rows (low and high half), shuffled and widened so that each half holds the
// (pixel k, pixel k+1) pairs of its four channels from bytes 0–7 (`near`) or those of pixels
// k+2, k+3 from bytes 8–15 (`far`).
static inline __m256i pairs_of(__m256i px, int far) {
    const __m256i near_pairs = _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                                                0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m256i far_pairs = _mm256_setr_epi8(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1,
                                               8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1);
    return _mm256_shuffle_epi8(px, far ? far_pairs : near_pairs);
}

// Pixels k…k+3 of rows r0 and r1 as `pairs_of` gives them.
static inline __m256i pixel_pairs(const uint8_t *r0, const uint8_t *r1, int far) {
    return pairs_of(_mm256_loadu2_m128i((const __m128i *)r1, (const __m128i *)r0), far);
}

// Output pixel o's 8.7 samples of each row pair ([row 0 | row 1], [row 2 | row 3]), already rounded
// and shifted: packed, clamped (`clamps`: where a weight is negative) and stored.
static inline __attribute__((always_inline)) void store_pixel(const __m256i *samples, uint16_t *const *out, size_t o,
                                                              const int nrows, const int clamps) {
    // Packed as [row 0, row 2 | row 1, row 3] (the second pair's rows only where there are four).
    __m256i words = _mm256_packus_epi32(samples[0], nrows == 4 ? samples[1] : _mm256_setzero_si256());
    if (clamps) words = _mm256_min_epu16(words, _mm256_set1_epi16(FROST_RESAMPLE_TOP));
    __m128i w02 = _mm256_castsi256_si128(words), w13 = _mm256_extracti128_si256(words, 1);
    _mm_storel_epi64((__m128i *)(out[0] + 4 * o), w02);
    _mm_storel_epi64((__m128i *)(out[1] + 4 * o), w13);
    if (nrows == 4) {
        _mm_storeh_pd((double *)(out[2] + 4 * o), _mm_castsi128_pd(w02));
        _mm_storeh_pd((double *)(out[3] + 4 * o), _mm_castsi128_pd(w13));
    }
}

// Output pixel o of `nrows` rows (2 or 4) that share its weights, each pair of rows in the two
// halves of one register: a half is one row's four sums, nothing to add across halves. Four
// taps per step (a weight pair per multiply-add), then two; an odd last tap (only in images
// narrower than the padded span) alone.
static inline __attribute__((always_inline)) void horizontal_pixel(const uint8_t *const *rows, size_t o, const int32_t *first,
                                                                   const int16_t *weights, int taps, int shift,
                                                                   uint16_t *const *out, const int nrows) {
    const size_t at = 4 * (size_t)first[o];
    const int16_t *w = weights + o * (size_t)taps;
    __m256i acc[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    int k = 0;
    for (; k + 4 <= taps; k += 4) {
        int32_t near, far;
        __builtin_memcpy(&near, w + k, 4);
        __builtin_memcpy(&far, w + k + 2, 4);
        const __m256i wn = _mm256_set1_epi32(near), wf = _mm256_set1_epi32(far);
        for (int p = 0; p < nrows / 2; p++) {
            const uint8_t *r0 = rows[2 * p] + at + 4 * k, *r1 = rows[2 * p + 1] + at + 4 * k;
            acc[p] = _mm256_add_epi32(acc[p], _mm256_madd_epi16(pixel_pairs(r0, r1, 0), wn));
            acc[p] = _mm256_add_epi32(acc[p], _mm256_madd_epi16(pixel_pairs(r0, r1, 1), wf));
        }
    }
    for (; k < taps; k += 2) {
        int32_t near;
        __builtin_memcpy(&near, w + k, 4);
        // An odd last tap: its pair's second weight is beyond the span, so it is made 0 here.
        if (k + 1 == taps) near &= 0xFFFF;
        const __m256i wn = _mm256_set1_epi32(near);
        for (int p = 0; p < nrows / 2; p++) {
            const uint8_t *r0 = rows[2 * p] + at + 4 * k, *r1 = rows[2 * p + 1] + at + 4 * k;
            __m256i px;
            if (k + 1 == taps) {
                int32_t p0, p1;
                __builtin_memcpy(&p0, r0, 4);
                __builtin_memcpy(&p1, r1, 4);
                px = _mm256_cvtepu8_epi32(_mm_unpacklo_epi32(_mm_cvtsi32_si128(p0), _mm_cvtsi32_si128(p1)));
            } else {
                int64_t q0, q1;
                __builtin_memcpy(&q0, r0, 8);
                __builtin_memcpy(&q1, r1, 8);
                px = pairs_of(_mm256_setr_epi64x(q0, 0, q1, 0), 0);
            }
            acc[p] = _mm256_add_epi32(acc[p], _mm256_madd_epi16(px, wn));
        }
    }
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    for (int p = 0; p < nrows / 2; p++) acc[p] = _mm256_srai_epi32(_mm256_add_epi32(acc[p], bias), shift);
    store_pixel(acc, out, o, nrows, 1);
}

// Whether the VNNI forms run: the CPU has AVX512-VNNI with 256-bit (VL) forms and byte/word (BW)
// instructions, and the OS saves the opmask and ZMM state their EVEX encoding needs (XCR0 bits 1,
// 2, 5, 6, 7). Asked once; `frost_resample_use_vnni(0)` turns them off (the tests run both).
static int vnni_state = -1;

static int cpu_has_vnni(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    if (!(b & bit_AVX512F) || !(b & bit_AVX512BW) || !(b & bit_AVX512VL) || !(c & bit_AVX512VNNI)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 0xE6) == 0xE6;
}

int frost_resample_vnni(void) {
    int state = __atomic_load_n(&vnni_state, __ATOMIC_RELAXED);
    if (state < 0) {
        state = cpu_has_vnni();
        __atomic_store_n(&vnni_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

void frost_resample_use_vnni(int on) { __atomic_store_n(&vnni_state, on && cpu_has_vnni(), __ATOMIC_RELAXED); }

// Sixteen 8.7 sums shifted, packed (the packs per 128-bit half restore the order) and stored as bytes.
static inline __attribute__((always_inline)) void store_bytes(uint8_t *p, __m256i low, __m256i high, int shift) {
    __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low, shift), _mm256_srai_epi32(high, shift));
    __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
    _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(bytes));
}
#define VERTICAL_OUT uint8_t

// The VNNI forms: the horizontal pass four taps per byte multiply-add (vpdpbusd: four u8 × s8
// products summed into a 32-bit lane), the vertical pass with its multiply-add and sum fused.
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512vnni"))), apply_to = function)

// The 8.7 samples of output pixel o over `nrows` rows (2 or 4), each pair of rows in the halves of
// one register as in `horizontal_pixel`, rounded and shifted. Four pixels of a row transposed to
// four lanes of one channel each (r0 r1 r2 r3 | g0 … | b0 … | a0 …) meet four taps' weights in
// every lane; a weight w is 2^base·high + low (`frost_resample_split_weights`), so two byte
// multiply-adds give its exact sum: 2^base·Σhigh + Σlow. Where the base is the shift itself (the
// low sums carrying the rounding bias), the result is Σhigh + (Σlow >> shift), one shift and one
// add. Only the groups of four up to the last nonzero weight are summed (an area average over 3.5
// pixels has 4 taps or 5, padded to 8).
static inline __attribute__((always_inline)) void samples_vnni(const uint8_t *const *rows, size_t o, const int32_t *first,
                                                               const int8_t *split, const int32_t *groups, int taps, int shift,
                                                               __m256i *out, const int nrows, const int based_on_shift) {
    const __m256i transpose = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                               0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    const size_t at = 4 * (size_t)first[o];
    const int8_t *w = split + 2 * o * (size_t)taps;
    __m256i high[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()}, low[2] = {bias, bias};
    for (int k = 0; k < 4 * groups[o]; k += 4) {
        int32_t h, l;
        __builtin_memcpy(&h, w + 2 * k, 4);
        __builtin_memcpy(&l, w + 2 * k + 4, 4);
        const __m256i wh = _mm256_set1_epi32(h), wl = _mm256_set1_epi32(l);
        for (int p = 0; p < nrows / 2; p++) {
            const uint8_t *r0 = rows[2 * p] + at + 4 * k, *r1 = rows[2 * p + 1] + at + 4 * k;
            const __m256i px = _mm256_shuffle_epi8(_mm256_loadu2_m128i((const __m128i *)r1, (const __m128i *)r0), transpose);
            high[p] = _mm256_dpbusd_epi32(high[p], px, wh);
            low[p] = _mm256_dpbusd_epi32(low[p], px, wl);
        }
    }
    for (int p = 0; p < nrows / 2; p++)
        out[p] = based_on_shift ? _mm256_add_epi32(high[p], _mm256_srai_epi32(low[p], shift))
                                : _mm256_srai_epi32(_mm256_add_epi32(_mm256_slli_epi32(high[p], 7), low[p]), shift);
}

// Two output pixels per step, so that each row takes one 16-byte store ([o | o+1] of a row pair's
// packed samples). The pointers are copied to locals: the stores may alias anything in memory.
static inline __attribute__((always_inline)) void horizontal_rows_vnni(const uint8_t *const *rows, const int32_t *first,
                                                                       const int8_t *split, const int32_t *groups, int taps, int shift,
                                                                       size_t count, uint16_t *const *out, const int nrows,
                                                                       const int based_on_shift, const int clamps) {
    const uint8_t *const in[4] = {rows[0], rows[1], rows[2], rows[3]};
    uint16_t *const to[4] = {out[0], out[1], out[2], out[3]};
    const __m256i top = _mm256_set1_epi16(FROST_RESAMPLE_TOP);
    size_t o = 0;
    for (; o + 2 <= count; o += 2) {
        __m256i a[2], b[2];
        samples_vnni(in, o, first, split, groups, taps, shift, a, nrows, based_on_shift);
        samples_vnni(in, o + 1, first, split, groups, taps, shift, b, nrows, based_on_shift);
        for (int p = 0; p < nrows / 2; p++) {
            __m256i words = _mm256_packus_epi32(a[p], b[p]);
            if (clamps) words = _mm256_min_epu16(words, top);
            _mm_storeu_si128((__m128i *)(to[2 * p] + 4 * o), _mm256_castsi256_si128(words));
            _mm_storeu_si128((__m128i *)(to[2 * p + 1] + 4 * o), _mm256_extracti128_si256(words, 1));
        }
    }
    if (o < count) {
        __m256i a[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
        samples_vnni(in, o, first, split, groups, taps, shift, a, nrows, based_on_shift);
        store_pixel(a, to, o, nrows, clamps);
    }
}

// The forms by row count, split base and clamping, each compiled for its constants.
static void horizontal_vnni(const uint8_t *const *in, int nrows, const int32_t *first, const int8_t *split, const int32_t *groups,
                            int taps, int shift, int base, int clamps, size_t count, uint16_t *const *to) {
    const int based = base == shift;
#define FROST_HORIZONTAL_VNNI(n, b, c) horizontal_rows_vnni(in, first, split, groups, taps, shift, count, to, n, b, c)
    if (nrows == 4) {
        if (based) clamps ? FROST_HORIZONTAL_VNNI(4, 1, 1) : FROST_HORIZONTAL_VNNI(4, 1, 0);
        else clamps ? FROST_HORIZONTAL_VNNI(4, 0, 1) : FROST_HORIZONTAL_VNNI(4, 0, 0);
    } else {
        if (based) clamps ? FROST_HORIZONTAL_VNNI(2, 1, 1) : FROST_HORIZONTAL_VNNI(2, 1, 0);
        else clamps ? FROST_HORIZONTAL_VNNI(2, 0, 1) : FROST_HORIZONTAL_VNNI(2, 0, 0);
    }
#undef FROST_HORIZONTAL_VNNI
}

// Thirty-two 8.7 sums shifted, packed, and their bytes (the low 8 of each 128-bit part) gathered.
static inline __attribute__((always_inline)) void store_bytes_wide(uint8_t *p, __m512i low, __m512i high, int shift) {
    const __m512i words = _mm512_packs_epi32(_mm512_srai_epi32(low, shift), _mm512_srai_epi32(high, shift));
    const __m512i bytes = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 0, 2, 4, 6), _mm512_packus_epi16(words, words));
    _mm256_storeu_si256((__m256i *)p, _mm512_castsi512_si256(bytes));
}
#define VERTICAL_PASS vertical_vnni
#define VERTICAL_WIDE 1
#define VERTICAL_STORE store_bytes_wide
#define MULTIPLY_ADD(acc, a, w) _mm512_dpwssd_epi32(acc, a, w)
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef VERTICAL_WIDE
#undef VERTICAL_STORE
#undef MULTIPLY_ADD
#pragma clang attribute pop

#define VERTICAL_PASS vertical_avx2
#define VERTICAL_WIDE 0
#define VERTICAL_STORE store_bytes
#define MULTIPLY_ADD(acc, a, w) _mm256_add_epi32(acc, _mm256_madd_epi16(a, w))
#include "resample_vertical.h"
#undef VERTICAL_PASS
#undef VERTICAL_WIDE
#undef VERTICAL_STORE
#undef MULTIPLY_ADD

// Four rows at a time where there are four (as Pillow-SIMD's four-row convolution): one weight
// load serves them all.
void frost_resample_horizontal(const uint8_t *const *rows, int nrows, const int32_t *first, const int16_t *weights,
                               const int8_t *split, const int32_t *groups, int base, int clamps, int taps, int shift, size_t count,
                               uint16_t *const *out) {
    const uint8_t *const in[4] = {rows[0], rows[nrows > 1], rows[nrows > 2 ? 2 : 0], rows[nrows > 3 ? 3 : 0]};
    uint16_t *const to[4] = {out[0], out[nrows > 1], out[nrows > 2 ? 2 : 0], out[nrows > 3 ? 3 : 0]};
    if (nrows >= 2 && split && taps % 4 == 0 && frost_resample_vnni()) {
        horizontal_vnni(in, nrows & ~1, first, split, groups, taps, shift, base, clamps, count, to);
    } else if (nrows == 4) {
        for (size_t o = 0; o < count; o++) horizontal_pixel(in, o, first, weights, taps, shift, to, 4);
    } else if (nrows >= 2) {
        for (size_t o = 0; o < count; o++) horizontal_pixel(in, o, first, weights, taps, shift, to, 2);
    }
    if (nrows % 2) frost_resample_horizontal_scalar(rows[nrows - 1], first, weights, taps, shift, count, out[nrows - 1]);
}

// One output row or two over the same window: the vector loop, then the scalar reference for
// what is left of each.
static void vertical_rows(const uint16_t *const *rows, const uint32_t *const *tables, int taps, int shift, size_t samples,
                          uint8_t *const *outs, int outputs) {
    size_t i = 0;
    if (taps % 2 == 0) i = frost_resample_vnni() ? vertical_vnni(rows, tables, taps, shift, samples, outs, outputs, NULL)
                                                 : vertical_avx2(rows, tables, taps, shift, samples, outs, outputs, NULL);
    for (int o = 0; o < outputs; o++) frost_resample_vertical_scalar(rows, tables[o], taps, shift, i, samples, outs[o]);
}

void frost_resample_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                             size_t samples, uint8_t *out) {
    const uint32_t *const tables[2] = {pairs, pairs};
    uint8_t *const outs[2] = {out, out};
    vertical_rows(rows, tables, taps, shift, samples, outs, 1);
}

void frost_resample_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                                 size_t samples, uint8_t *out, uint8_t *out2) {
    const uint32_t *const tables[2] = {pairs, pairs2};
    uint8_t *const outs[2] = {out, out2};
    vertical_rows(rows, tables, taps, shift, samples, outs, 2);
}
#else
int frost_resample_vnni(void) { return 0; }

void frost_resample_use_vnni(int on) { (void)on; }

void frost_resample_horizontal(const uint8_t *const *rows, int nrows, const int32_t *first, const int16_t *weights,
                               const int8_t *split, const int32_t *groups, int base, int clamps, int taps, int shift, size_t count,
                               uint16_t *const *out) {
    (void)split, (void)groups, (void)base, (void)clamps;
    for (int r = 0; r < nrows; r++) frost_resample_horizontal_scalar(rows[r], first, weights, taps, shift, count, out[r]);
}

void frost_resample_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                             size_t samples, uint8_t *out) {
    frost_resample_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
}

void frost_resample_vertical_two(const uint16_t *const *rows, const uint32_t *pairs, const uint32_t *pairs2, int taps, int shift,
                                 size_t samples, uint8_t *out, uint8_t *out2) {
    frost_resample_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
    frost_resample_vertical_scalar(rows, pairs2, taps, shift, 0, samples, out2);
}
#endif

int frost_resample_tap_multiple(void) { return frost_resample_vnni() ? 4 : 2; }
