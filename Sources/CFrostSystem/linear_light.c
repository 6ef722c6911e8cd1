#include "CFrostSystem.h"

#include <math.h>

// Linear light (FrostEffects, LinearLight): sRGB bytes decoded to linear 8.7 samples (0…32640
// for 0…1), and the resampling passes over such samples. Each vector form computes exactly what
// its scalar reference computes (LinearLightTests).

static inline uint16_t clamped_linear(int32_t v) {
    return (uint16_t)(v < 0 ? 0 : v > FROST_RESAMPLE_TOP ? FROST_RESAMPLE_TOP : v);
}

// The sRGB transfer (IEC 61966-2-1): v/12.92 up to 0.04045, ((v + 0.055)/1.055)^2.4 above, times
// 32640. Above the knee a degree-6 least-squares polynomial in v = byte/255 (fitted to the 245
// bytes above it; within 1 unit of the rounded curve at every byte), so that eight samples take
// six multiply-adds instead of eight table loads (a table: 16 ms per 64 M samples, this: 12.6 ms).
static const float decode_poly[7] = {30.925512313842773f, 1057.4600830078125f, 16868.759765625f, 22840.13671875f,
                                     -13291.595703125f, 6716.15087890625f, -1582.0960693359375f};
static const float knee = 0.04045f, per_byte = 1.0f / 255.0f;
#define FROST_LINEAR_SLOPE (32640.0f / (255.0f * 12.92f))

static inline float decoded(float x) {
    const float v = x * per_byte;
    if (v <= knee) return x * FROST_LINEAR_SLOPE;
    float p = decode_poly[6];
    for (int j = 5; j >= 0; j--) p = fmaf(p, v, decode_poly[j]);
    return p;
}

static inline uint16_t rounded_linear(float v) { return clamped_linear((int32_t)lrintf(v)); }

void frost_linear_decode_scalar(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *p = src + 4 * i;
        const float alpha = (float)p[3] * per_byte;
        for (int c = 0; c < 3; c++) {
            const float v = decoded((float)p[c]);
            dst[4 * i + c] = rounded_linear(straight_alpha ? v * alpha : v);
        }
        dst[4 * i + 3] = straight_alpha ? (uint16_t)(p[3] << 7) : FROST_RESAMPLE_TOP;
    }
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

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

// Eight bytes' worth of samples (two pixels) as floats, decoded; with straight alpha the colors
// times their pixel's alpha/255 and the alpha lanes alpha·128, as the scalar reference does.
static inline __m256i decode_two_pixels(__m128i bytes, int straight_alpha) {
    const __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
    const __m256 v = _mm256_mul_ps(x, _mm256_set1_ps(per_byte));
    __m256 p = _mm256_set1_ps(decode_poly[6]);
    for (int j = 5; j >= 0; j--) p = _mm256_fmadd_ps(p, v, _mm256_set1_ps(decode_poly[j]));
    __m256 linear = _mm256_blendv_ps(p, _mm256_mul_ps(x, _mm256_set1_ps(FROST_LINEAR_SLOPE)),
                                     _mm256_cmp_ps(v, _mm256_set1_ps(knee), _CMP_LE_OQ));
    if (straight_alpha) {
        const __m256 alpha = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7));
        linear = _mm256_blend_ps(_mm256_mul_ps(linear, alpha), _mm256_mul_ps(x, _mm256_set1_ps(128.0f)), 0x88);
    } else {
        linear = _mm256_blend_ps(linear, _mm256_set1_ps((float)FROST_RESAMPLE_TOP), 0x88);
    }
    return _mm256_cvtps_epi32(linear);
}

void frost_linear_decode(const uint8_t *src, uint16_t *dst, size_t pixels, int straight_alpha) {
    size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(src + 4 * i));
        const __m256i low = decode_two_pixels(bytes, straight_alpha);
        const __m256i high = decode_two_pixels(_mm_srli_si128(bytes, 8), straight_alpha);
        // packus clamps below at 0 and works per 128-bit half: the permute restores the order.
        __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(low, high), 0xD8);
        words = _mm256_min_epu16(words, _mm256_set1_epi16(FROST_RESAMPLE_TOP));
        _mm256_storeu_si256((__m256i *)(dst + 4 * i), words);
    }
    frost_linear_decode_scalar(src + 4 * i, dst + 4 * i, pixels - i, straight_alpha);
}

// Sixteen samples per step: rows k and k+1 interleaved into (row k, row k+1) pairs, one
// multiply-add with (w_k, w_k+1) per eight, as resample_vertical.h does for the 8-bit output.
void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out) {
    size_t i = 0;
    if (taps % 2 == 0) {
        const __m256i bias = _mm256_set1_epi32(1 << (shift - 1)), top = _mm256_set1_epi16(FROST_RESAMPLE_TOP);
        for (; i + 16 <= samples; i += 16) {
            __m256i low = bias, high = bias;
            for (int k = 0; k < taps; k += 2) {
                const __m256i w = _mm256_set1_epi32((int32_t)pairs[k / 2]);
                const __m256i x = _mm256_loadu_si256((const __m256i *)(rows[k] + i));
                const __m256i y = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i));
                low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
                high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
            }
            // Per 128-bit half, low holds samples 0–3 and high 4–7: packing restores the order.
            const __m256i words = _mm256_packus_epi32(_mm256_srai_epi32(low, shift), _mm256_srai_epi32(high, shift));
            _mm256_storeu_si256((__m256i *)(out + i), _mm256_min_epu16(words, top));
        }
    }
    frost_linear_vertical_scalar(rows, pairs, taps, shift, i, samples, out);
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

void frost_linear_vertical(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples,
                           uint16_t *out) {
    frost_linear_vertical_scalar(rows, pairs, taps, shift, 0, samples, out);
}

void frost_linear_horizontal(const uint16_t *row, const int32_t *first, const uint32_t *pairs, int taps, int shift,
                             size_t count, uint16_t *out) {
    frost_linear_horizontal_scalar(row, first, pairs, taps, shift, 0, count, out);
}
#endif
