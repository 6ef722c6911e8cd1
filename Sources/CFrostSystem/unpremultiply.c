#include "CFrostSystem.h"
#include <string.h>

// Eight pixels per step in float lanes, one division for the eight reciprocals. x = 255c + ⌊a/2⌋ is
// an exact float; y = x·(1/a) is within 256·2⁻²³ of x/a while x/a < 256 (beyond, only the clamp
// matters), and x/a is an integer or at least 1/a ≥ 1/255 from one, so ⌊x/a⌋ = ⌊y + 1/512⌋, taken as
// y + 1/512 − ½ rounded to nearest with the 2²³ trick (never a tie). The scalar loop, a division
// per channel, was 150 ms of writing a 4096² image with alpha; this is a few ms. Every (c, a) pair
// is checked against the scalar reference, `unpremultiplyScalar` (FrostCore, ImageTests).
typedef float floats8 __attribute__((ext_vector_type(8)));
typedef int ints8 __attribute__((ext_vector_type(8)));

static inline floats8 floats(frost_words8 v) { return __builtin_convertvector((ints8)v, floats8); }

static inline frost_words8 divided(frost_words8 c, floats8 half, floats8 reciprocal) {
    const floats8 bias = 1.0f / 512 - 0.5f, zero = 0, top = 255, magic = 8388608;
    floats8 x = floats(c) * 255 + half;
    floats8 q = __builtin_elementwise_min(__builtin_elementwise_max(__builtin_elementwise_fma(x, reciprocal, bias), zero), top) + magic;
    return (frost_words8)q & 0xFF;
}

// Eight pixels from `source` into `target`.
static inline void unpremultiply8(const uint8_t *source, uint8_t *target) {
    frost_words8 w;
    memcpy(&w, source, 32);
    frost_words8 alpha = w >> 24;
    frost_words8 positive = (alpha + 255) >> 8;   // 1 where a > 0
    floats8 reciprocal = 1.0f / floats(alpha | (positive ^ 1)), half = floats(alpha >> 1);
    frost_words8 colors = divided(w & 0xFF, half, reciprocal) | divided(w >> 8 & 0xFF, half, reciprocal) << 8
                          | divided(w >> 16 & 0xFF, half, reciprocal) << 16;
    frost_words8 out = (colors & (0 - positive)) | (w & 0xFF000000u);
    memcpy(target, &out, 32);
}

void frost_unpremultiply(const uint8_t *source, uint8_t *target, size_t count, int forwards) {
    size_t groups = count / 8, n = 8 * groups;
    if (!forwards) {
        for (size_t g = groups; g-- > 0;) unpremultiply8(source + 32 * g, target + 32 * g);
    } else {
        for (size_t g = 0; g < groups; g++) unpremultiply8(source + 32 * g, target + 32 * g);
    }
    // The last few pixels take the same step through a padded copy: one arithmetic for every
    // pixel, the scalar formula kept only as the tests' reference.
    if (n < count) {
        uint8_t tail[32] = {0};
        memcpy(tail, source + 4 * n, 4 * (count - n));
        unpremultiply8(tail, tail);
        memcpy(target + 4 * n, tail, 4 * (count - n));
    }
}
