#include "CFrostSystem.h"

// The two passes of the fixed-point resampler (FrostEffects, ResamplePlan): 16-bit samples
// times 16-bit weights summed in 32-bit lanes, a pair of taps per multiply-add (pmaddwd), as
// Pillow-SIMD does. Each pass is exactly its scalar reference (ResizeTests).

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
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1)), top = _mm256_set1_epi16(FROST_RESAMPLE_TOP);
    // Packed as [row 0, row 2 | row 1, row 3] (the second pair's rows only where there are four).
    __m256i second = nrows == 4 ? _mm256_srai_epi32(_mm256_add_epi32(acc[1], bias), shift) : _mm256_setzero_si256();
    __m256i words = _mm256_min_epu16(_mm256_packus_epi32(_mm256_srai_epi32(_mm256_add_epi32(acc[0], bias), shift), second), top);
    __m128i w02 = _mm256_castsi256_si128(words), w13 = _mm256_extracti128_si256(words, 1);
    _mm_storel_epi64((__m128i *)(out[0] + 4 * o), w02);
    _mm_storel_epi64((__m128i *)(out[1] + 4 * o), w13);
    if (nrows == 4) {
        _mm_storeh_pd((double *)(out[2] + 4 * o), _mm_castsi128_pd(w02));
        _mm_storeh_pd((double *)(out[3] + 4 * o), _mm_castsi128_pd(w13));
    }
}

// Four rows at a time where there are four (as Pillow-SIMD's four-row convolution): one weight
// load serves them all.
void frost_resample_horizontal(const uint8_t *const *rows, int nrows, const int32_t *first, const int16_t *weights, int taps,
                               int shift, size_t count, uint16_t *const *out) {
    const uint8_t *const in[4] = {rows[0], rows[nrows > 1], rows[nrows > 2 ? 2 : 0], rows[nrows > 3 ? 3 : 0]};
    uint16_t *const to[4] = {out[0], out[nrows > 1], out[nrows > 2 ? 2 : 0], out[nrows > 3 ? 3 : 0]};
    if (nrows == 4) {
        for (size_t o = 0; o < count; o++) horizontal_pixel(in, o, first, weights, taps, shift, to, 4);
    } else if (nrows >= 2) {
        for (size_t o = 0; o < count; o++) horizontal_pixel(in, o, first, weights, taps, shift, to, 2);
    }
    if (nrows % 2) frost_resample_horizontal_scalar(rows[nrows - 1], first, weights, taps, shift, count, out[nrows - 1]);
}

// Thirty-two samples per step: the 8.7 samples of rows k and k+1 interleaved are (row k, row k+1)
// pairs, one multiply-add with (w_k, w_{k+1}) per eight. `taps` is even (ResamplePlan pads it).
static inline __attribute__((always_inline)) void vertical_blocks(const uint16_t *const *rows, const uint32_t *pairs, int taps,
                                                                  int shift, size_t i, uint8_t *out, const int blocks) {
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    __m256i low[2], high[2];
    for (int b = 0; b < blocks; b++) low[b] = high[b] = bias;
    for (int k = 0; k < taps; k += 2) {
        __m256i w = _mm256_set1_epi32((int32_t)pairs[k / 2]);
        for (int b = 0; b < blocks; b++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(rows[k] + i + 16 * b));
            __m256i y = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i + 16 * b));
            low[b] = _mm256_add_epi32(low[b], _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
            high[b] = _mm256_add_epi32(high[b], _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
        }
    }
    for (int b = 0; b < blocks; b++) {
        // Per 128-bit half: low holds samples 0-3 (8-11), high 4-7 (12-15); packing restores the order.
        __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low[b], shift), _mm256_srai_epi32(high[b], shift));
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(out + i + 16 * b), _mm256_castsi256_si128(bytes));
    }
}

void frost_resample_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                             size_t samples, uint8_t *out) {
    size_t i = 0;
    if (taps % 2 == 0) {
        for (; i + 32 <= samples; i += 32) vertical_blocks(rows, pairs, taps, shift, i, out, 2);
        for (; i + 16 <= samples; i += 16) vertical_blocks(rows, pairs, taps, shift, i, out, 1);
    }
    frost_resample_vertical_scalar(rows, pairs, taps, shift, i, samples, out);
}
#else
void frost_resample_horizontal(const uint8_t *const *rows, int nrows, const int32_t *first, const int16_t *weights, int taps,
                               int shift, size_t count, uint16_t *const *out) {
    for (int r = 0; r < nrows; r++) frost_resample_horizontal_scalar(rows[r], first, weights, taps, shift, count, out[r]);
}

void frost_resample_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift,
                             size_t samples, uint8_t *out) {
    frost_resample_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
}
#endif
