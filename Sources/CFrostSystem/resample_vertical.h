// The vertical pass's vector loop, included by resample.c once per instruction set: VERTICAL_PASS
// names it, MULTIPLY_ADD(acc, a, w) adds the pairwise products of a and w to acc. It makes the
// samples it can in blocks of 16 and returns how many; the scalar reference makes the rest.

// Thirty-two samples per step: the 8.7 samples of rows k and k+1 interleaved are (row k, row k+1)
// pairs, one multiply-add with (w_k, w_{k+1}) per eight. `taps` is even (ResamplePlan pads it).
static inline __attribute__((always_inline)) void FROST_CONCAT(VERTICAL_PASS, _blocks)(const uint16_t *const *rows, const uint32_t *pairs,
                                                                                       int taps, int shift, size_t i, uint8_t *out,
                                                                                       const int blocks) {
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    __m256i low[2], high[2];
    for (int b = 0; b < blocks; b++) low[b] = high[b] = bias;
    for (int k = 0; k < taps; k += 2) {
        __m256i w = _mm256_set1_epi32((int32_t)pairs[k / 2]);
        for (int b = 0; b < blocks; b++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(rows[k] + i + 16 * b));
            __m256i y = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i + 16 * b));
            low[b] = MULTIPLY_ADD(low[b], _mm256_unpacklo_epi16(x, y), w);
            high[b] = MULTIPLY_ADD(high[b], _mm256_unpackhi_epi16(x, y), w);
        }
    }
    for (int b = 0; b < blocks; b++) {
        // Per 128-bit half: low holds samples 0-3 (8-11), high 4-7 (12-15); packing restores the order.
        __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low[b], shift), _mm256_srai_epi32(high[b], shift));
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(out + i + 16 * b), _mm256_castsi256_si128(bytes));
    }
}

static size_t VERTICAL_PASS(const uint16_t *const *rows, const uint32_t *pairs, int taps, int shift, size_t samples, uint8_t *out) {
    size_t i = 0;
    for (; i + 32 <= samples; i += 32) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 2);
    for (; i + 16 <= samples; i += 16) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 1);
    return i;
}
