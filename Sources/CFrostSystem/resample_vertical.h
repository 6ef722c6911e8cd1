// The vertical pass's vector loop, included by resample.c once per instruction set: VERTICAL_PASS
// names it, MULTIPLY_ADD(acc, a, w) adds the pairwise products of a and w to acc. It makes the
// samples it can in blocks of 16 and returns how many; the scalar reference makes the rest.

// Thirty-two samples per step: the 8.7 samples of rows k and k+1 interleaved are (row k, row k+1)
// pairs, one multiply-add with (w_k, w_{k+1}) per eight. `taps` is even (ResamplePlan pads it).
// With two outputs, each pair of rows is loaded and interleaved once for both (their weights zero
// outside each one's window): half the loads of two single rows, which bound the long windows
// of a lanczos3 shrink (22 rows of 8.7 samples come from L2 for every output row).
static inline __attribute__((always_inline)) void FROST_CONCAT(VERTICAL_PASS, _blocks)(const uint16_t *const *rows,
                                                                                       const uint32_t *const *pairs, int taps,
                                                                                       int shift, size_t i, uint8_t *const *out,
                                                                                       const int blocks, const int outputs) {
    const __m256i bias = _mm256_set1_epi32(1 << (shift - 1));
    __m256i low[2][2], high[2][2];
    for (int o = 0; o < outputs; o++)
        for (int b = 0; b < blocks; b++) low[o][b] = high[o][b] = bias;
    for (int k = 0; k < taps; k += 2) {
        __m256i w[2];
        for (int o = 0; o < outputs; o++) w[o] = _mm256_set1_epi32((int32_t)pairs[o][k / 2]);
        for (int b = 0; b < blocks; b++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(rows[k] + i + 16 * b));
            __m256i y = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + i + 16 * b));
            __m256i lo = _mm256_unpacklo_epi16(x, y), hi = _mm256_unpackhi_epi16(x, y);
            for (int o = 0; o < outputs; o++) {
                low[o][b] = MULTIPLY_ADD(low[o][b], lo, w[o]);
                high[o][b] = MULTIPLY_ADD(high[o][b], hi, w[o]);
            }
        }
    }
    for (int o = 0; o < outputs; o++) {
        for (int b = 0; b < blocks; b++) {
            // Per 128-bit half: low holds samples 0-3 (8-11), high 4-7 (12-15); packing restores the order.
            __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low[o][b], shift), _mm256_srai_epi32(high[o][b], shift));
            __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
            _mm_storeu_si128((__m128i *)(out[o] + i + 16 * b), _mm256_castsi256_si128(bytes));
        }
    }
}

static size_t VERTICAL_PASS(const uint16_t *const *rows, const uint32_t *const *pairs, int taps, int shift, size_t samples,
                            uint8_t *const *out, const int outputs) {
    size_t i = 0;
    if (outputs == 2) {
        for (; i + 32 <= samples; i += 32) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 2, 2);
        for (; i + 16 <= samples; i += 16) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 1, 2);
    } else {
        for (; i + 32 <= samples; i += 32) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 2, 1);
        for (; i + 16 <= samples; i += 16) FROST_CONCAT(VERTICAL_PASS, _blocks)(rows, pairs, taps, shift, i, out, 1, 1);
    }
    return i;
}
