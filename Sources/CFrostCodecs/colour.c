// Colour management over lcms2 (Little CMS 2, Debian's liblcms2), opened on first use like the
// AVIF and HEIC stacks (lazy_library.h): most commands never convert. See CFrostCodecs.h.
#include "CFrostCodecs.h"
#include "error.h"
#include "lazy_library.h"
#include <lcms2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#define LCMS_CALLS(X) \
    X(cmsOpenProfileFromMem) X(cmsCloseProfile) X(cmsGetColorSpace) X(cmsGetProfileInfoASCII) \
    X(cmsCreate_sRGBProfile) X(cmsCreateRGBProfile) X(cmsCreateGrayProfile) X(cmsBuildParametricToneCurve) X(cmsFreeToneCurve) \
    X(cmsSaveProfileToMem) X(cmsCreateTransform) X(cmsDoTransformLineStride) X(cmsDeleteTransform) \
    X(cmsSetLogErrorHandler) X(cmsMLUalloc) X(cmsMLUsetASCII) X(cmsMLUfree) X(cmsWriteTag) \
    X(cmsIsMatrixShaper) X(cmsReadTag) X(cmsReverseToneCurve) X(cmsEvalToneCurveFloat) X(cmsIsTag) \
    X(cmsGetEncodedICCversion) X(cmsGetDeviceClass) X(cmsDetectBlackPoint) X(cmsDetectDestinationBlackPoint)

LAZY_LIBRARY(lcms, LCMS_CALLS)
static pthread_once_t lcms_once = PTHREAD_ONCE_INIT;

static void quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context; (void)code; (void)text;   // errors come back as NULL handles, reported per file
}

static void load_lcms(void) {
    lcms_loaded = load_lcms_calls("liblcms2.so.2", &lcms);
    if (lcms_loaded) lcms.cmsSetLogErrorHandler(quiet);
}

static frost_status need_lcms(frost_error *err) {
    pthread_once(&lcms_once, load_lcms);
    return lcms_loaded ? FROST_OK : frost_fail(err, FROST_ERR_UNSUPPORTED, "colour management needs liblcms2 (Debian's liblcms2-2)");
}

static cmsHPROFILE named(cmsHPROFILE profile, const char *description);
static frost_status saved(cmsHPROFILE profile, uint8_t **out, size_t *out_size, frost_error *err);

// A matrix/TRC profile of CICP primaries (ITU-T H.273 table 2) and transfer (table 3), named
// `description`; with `gray`, the Gray profile of that white and curve. NULL for a pair this does
// not build.
static cmsHPROFILE create_rgb(int primaries, int transfer, int gray, const char *description) {
    cmsCIExyY white = {0.3127, 0.3290, 1.0};   // D65
    cmsCIExyYTRIPLE xy;
    switch (primaries) {
    case 1: xy = (cmsCIExyYTRIPLE){{0.640, 0.330, 1.0}, {0.300, 0.600, 1.0}, {0.150, 0.060, 1.0}}; break;
    case 9: xy = (cmsCIExyYTRIPLE){{0.708, 0.292, 1.0}, {0.170, 0.797, 1.0}, {0.131, 0.046, 1.0}}; break;
    case 11: white = (cmsCIExyY){0.314, 0.351, 1.0};   // DCI's white
        /* fallthrough */
    case 12: xy = (cmsCIExyYTRIPLE){{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}}; break;
    default: return NULL;
    }
    // Curves as lcms2's parametric types: 1 is Y = X^g; 4 is Y = (aX + b)^g for X >= d, else cX.
    cmsFloat64Number srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsFloat64Number bt709[5] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
    cmsFloat64Number gamma[1];
    cmsToneCurve *curve;
    switch (transfer) {
    case 13: curve = lcms.cmsBuildParametricToneCurve(NULL, 4, srgb); break;
    case 1: case 6: case 14: case 15: curve = lcms.cmsBuildParametricToneCurve(NULL, 4, bt709); break;
    case 4: gamma[0] = 2.2; curve = lcms.cmsBuildParametricToneCurve(NULL, 1, gamma); break;
    case 5: gamma[0] = 2.8; curve = lcms.cmsBuildParametricToneCurve(NULL, 1, gamma); break;
    case 8: gamma[0] = 1.0; curve = lcms.cmsBuildParametricToneCurve(NULL, 1, gamma); break;
    default: return NULL;
    }
    if (!curve) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = gray ? lcms.cmsCreateGrayProfile(&white, curve) : lcms.cmsCreateRGBProfile(&white, &xy, curves);
    lcms.cmsFreeToneCurve(curve);
    return named(profile, description);
}

static cmsHPROFILE named(cmsHPROFILE profile, const char *description) {
    cmsMLU *name = lcms.cmsMLUalloc(NULL, 1);
    if (profile && name && lcms.cmsMLUsetASCII(name, "en", "US", description)) lcms.cmsWriteTag(profile, cmsSigProfileDescriptionTag, name);
    if (name) lcms.cmsMLUfree(name);
    return profile;
}

frost_status frost_colour_profile_for_chromaticities(const double *xy, double gamma, int gray, const char *description,
                                                     uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    frost_status status = need_lcms(err);
    if (status != FROST_OK) return status;
    cmsCIExyY white = {xy[0], xy[1], 1.0};
    cmsCIExyYTRIPLE primaries = {{xy[2], xy[3], 1.0}, {xy[4], xy[5], 1.0}, {xy[6], xy[7], 1.0}};
    cmsFloat64Number exponent[1] = {gamma};
    cmsToneCurve *curve = lcms.cmsBuildParametricToneCurve(NULL, 1, exponent);
    if (!curve) return frost_fail(err, FROST_ERR_MEMORY, "out of memory");
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = gray ? lcms.cmsCreateGrayProfile(&white, curve) : lcms.cmsCreateRGBProfile(&white, &primaries, curves);
    lcms.cmsFreeToneCurve(curve);
    if (!profile) return frost_fail(err, FROST_ERR_UNSUPPORTED, "these chromaticities make no profile");
    return saved(named(profile, description), out, out_size, err);
}

// Display P3: the DCI-P3 primaries, the D65 white point and the sRGB transfer curve (Apple, 2015).
static cmsHPROFILE create_p3(void) { return create_rgb(12, 13, 0, "Display P3"); }

static cmsHPROFILE target_profile(int target, const uint8_t *bytes, size_t size) {
    switch (target) {
    case FROST_COLOUR_SRGB: return lcms.cmsCreate_sRGBProfile();
    case FROST_COLOUR_P3: return create_p3();
    default: return bytes && size ? lcms.cmsOpenProfileFromMem(bytes, (cmsUInt32Number)size) : NULL;
    }
}

// The profile's bytes, the same in every process: lcms2 stamps the header with the time it was
// made (ICC.1 7.2.8), so the date is set to a fixed one (2026-01-01) and the profile ID, an MD5
// over the header that the date changes, left all zero (7.2.18: "not computed"). An output written
// twice is then the same file, as a cache in front of it expects.
static frost_status saved(cmsHPROFILE profile, uint8_t **out, size_t *out_size, frost_error *err) {
    cmsUInt32Number size = 0;
    if (lcms.cmsSaveProfileToMem(profile, NULL, &size) && size >= 128 && (*out = malloc(size)) &&
        lcms.cmsSaveProfileToMem(profile, *out, &size)) {
        static const uint8_t date[12] = {0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};   // big-endian year, month, day, h, m, s
        memcpy(*out + 24, date, sizeof date);
        memset(*out + 84, 0, 16);
        *out_size = size;
    } else {
        free(*out);
        *out = NULL;
    }
    lcms.cmsCloseProfile(profile);
    return *out ? FROST_OK : frost_fail(err, FROST_ERR_MEMORY, "cannot write the profile");
}

frost_status frost_colour_profile_bytes(int target, uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    frost_status status = need_lcms(err);
    if (status != FROST_OK) return status;
    cmsHPROFILE profile = target_profile(target, NULL, 0);
    if (!profile) return frost_fail(err, FROST_ERR_MEMORY, "cannot make the profile");
    return saved(profile, out, out_size, err);
}

frost_status frost_colour_profile_for_cicp(int primaries, int transfer, int gray, uint8_t **out, size_t *out_size, frost_error *err) {
    *out = NULL;
    *out_size = 0;
    frost_status status = need_lcms(err);
    if (status != FROST_OK) return status;
    char description[48];
    // The code points end the name: an encoder that holds CICP says them again (ColorProfile.cicp(madeFor:)).
    snprintf(description, sizeof description, "%sCICP %d/%d", gray ? "Gray, " : primaries == 12 && transfer == 13 ? "Display P3, " : "",
             primaries, transfer);
    cmsHPROFILE profile = create_rgb(primaries, transfer, gray, description);
    if (!profile) return frost_fail(err, FROST_ERR_UNSUPPORTED, "CICP primaries %d with transfer %d are not a profile Frost builds", primaries, transfer);
    return saved(profile, out, out_size, err);
}

struct frost_colour_transform {
    cmsHTRANSFORM transform;
    int layout;
    uint8_t gray[256][3];   // a gray transform's every output (`gray_table`)
    int neutral;            // every gray comes out neutral (R = G = B)
};

static void gray_table(frost_colour_transform *t);

static cmsUInt32Number input_type(int layout) {
    switch (layout) {
    case FROST_COLOUR_CMYK: return TYPE_CMYK_8;
    case FROST_COLOUR_CMYK_INVERTED: return TYPE_CMYK_8_REV;
    case FROST_COLOUR_GRAY: return TYPE_GRAY_16;   // into `gray_table`, not rows
    default: return TYPE_RGBA_8;
    }
}

static cmsColorSpaceSignature layout_space(int layout) {
    switch (layout) {
    case FROST_COLOUR_CMYK:
    case FROST_COLOUR_CMYK_INVERTED: return cmsSigCmykData;
    case FROST_COLOUR_GRAY: return cmsSigGrayData;
    default: return cmsSigRgbData;
    }
}

frost_status frost_colour_transform_create(const uint8_t *source, size_t source_size, int layout, int target,
                                           const uint8_t *target_bytes, size_t target_size, int intent,
                                           frost_colour_transform **out, frost_error *err) {
    *out = NULL;
    frost_status status = need_lcms(err);
    if (status != FROST_OK) return status;
    cmsHPROFILE input = source ? lcms.cmsOpenProfileFromMem(source, (cmsUInt32Number)source_size) : lcms.cmsCreate_sRGBProfile();
    if (!input) return frost_fail(err, FROST_ERR_CORRUPT, "the ICC profile cannot be read");
    if (lcms.cmsGetColorSpace(input) != layout_space(layout)) {
        lcms.cmsCloseProfile(input);
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "the ICC profile is not for these pixels' colour space");
    }
    cmsHPROFILE output = target_profile(target, target_bytes, target_size);
    if (!output || lcms.cmsGetColorSpace(output) != cmsSigRgbData) {
        lcms.cmsCloseProfile(input);
        if (output) lcms.cmsCloseProfile(output);
        return frost_fail(err, FROST_ERR_UNSUPPORTED, output ? "the output profile is not an RGB profile" : "the output profile cannot be read");
    }
    frost_colour_transform *t = calloc(1, sizeof *t);
    int rgba = layout == FROST_COLOUR_RGBA, gray = layout == FROST_COLOUR_GRAY;
    // No one-pixel cache: a transform is then shared by the threads converting bands of rows. Gray
    // is converted unoptimised in 16 bits: lcms2's optimised 8-bit gray transform samples the curve
    // at a few points and was up to 76 levels off near black on a steep one (PNG gAMA 2.5).
    cmsUInt32Number flags = cmsFLAGS_NOCACHE | (rgba ? cmsFLAGS_COPY_ALPHA : 0) | (gray ? cmsFLAGS_NOOPTIMIZE : 0);
    if (t) t->transform = lcms.cmsCreateTransform(input, input_type(layout), output, gray ? TYPE_RGB_16 : TYPE_RGBA_8,
                                                  (cmsUInt32Number)intent, flags);
    lcms.cmsCloseProfile(input);
    lcms.cmsCloseProfile(output);
    if (!t || !t->transform) {
        free(t);
        return frost_fail(err, FROST_ERR_UNSUPPORTED, "lcms2 cannot convert between these profiles");
    }
    t->layout = layout;
    if (gray) gray_table(t);
    *out = t;
    return FROST_OK;
}

// A gray transform's 256 outputs, each 16-bit sample rounded to a byte: a gray row is then a
// lookup per pixel, and the transform is read only.
static void gray_table(frost_colour_transform *t) {
    uint16_t in[256], out[256 * 3];
    for (int v = 0; v < 256; v++) in[v] = (uint16_t)(v * 257);
    lcms.cmsDoTransformLineStride(t->transform, in, out, 256, 1, 0, 0, 0, 0);
    for (int i = 0; i < 256 * 3; i++) t->gray[i / 3][i % 3] = (uint8_t)((out[i] * 255u + 32767) / 65535);
    t->neutral = 1;
    for (int v = 0; v < 256; v++) t->neutral &= t->gray[v][0] == t->gray[v][1] && t->gray[v][0] == t->gray[v][2];
}

int frost_colour_transform_keeps_gray(const frost_colour_transform *t) { return t->layout == FROST_COLOUR_GRAY && t->neutral; }

// Gray rows: the gray channel (the first of each RGBA pixel) through the table, the alpha kept.
static void gray_rows(const frost_colour_transform *t, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                      size_t in_stride, size_t out_stride) {
    for (size_t y = 0; y < rows; y++) {
        const uint8_t *row = in + y * in_stride;
        uint8_t *target = out + y * out_stride;
        for (size_t x = 0; x < width; x++) {
            const uint8_t alpha = row[4 * x + 3];
            memcpy(target + 4 * x, t->gray[row[4 * x]], 3);
            target[4 * x + 3] = alpha;
        }
    }
}

frost_status frost_colour_transform_rows(frost_colour_transform *t, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                                         size_t in_stride, size_t out_stride, frost_error *err) {
    if (t->layout == FROST_COLOUR_GRAY) {
        gray_rows(t, in, out, width, rows, in_stride, out_stride);
        return FROST_OK;
    }
    lcms.cmsDoTransformLineStride(t->transform, in, out, (cmsUInt32Number)width, (cmsUInt32Number)rows, (cmsUInt32Number)in_stride,
                              (cmsUInt32Number)out_stride, 0, 0);
    if (t->layout != FROST_COLOUR_RGBA) {
        for (size_t y = 0; y < rows; y++)
            for (size_t x = 0; x < width; x++) out[y * out_stride + 4 * x + 3] = 255;
    }
    return FROST_OK;
}

void frost_colour_transform_free(frost_colour_transform *t) {
    if (!t) return;
    if (t->transform) lcms.cmsDeleteTransform(t->transform);
    free(t);
}

static int reads_lut(cmsHPROFILE p, int intent, int output);

// Whether 6³ probe colours come out of `t` as they went in, within a level.
static int probes_unchanged(frost_colour_transform *t, frost_error *err) {
    enum { steps = 6, count = steps * steps * steps };
    uint8_t probe[count * 4], converted[count * 4];
    for (int i = 0; i < count; i++) {
        probe[4 * i] = (uint8_t)(i % steps * 51);
        probe[4 * i + 1] = (uint8_t)(i / steps % steps * 51);
        probe[4 * i + 2] = (uint8_t)(i / (steps * steps) * 51);
        probe[4 * i + 3] = 255;
    }
    frost_colour_transform_rows(t, probe, converted, count, 1, count * 4, count * 4, err);
    for (int i = 0; i < count * 4; i++)
        if (abs((int)probe[i] - (int)converted[i]) > 1) return 0;
    return 1;
}

frost_status frost_colour_describe(const uint8_t *icc, size_t size, int probe, frost_colour_info *info, frost_error *err) {
    memset(info, 0, sizeof *info);
    frost_status status = need_lcms(err);
    if (status != FROST_OK) return status;
    cmsHPROFILE profile = lcms.cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
    if (!profile) return frost_fail(err, FROST_ERR_CORRUPT, "the ICC profile cannot be read");
    lcms.cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", info->description, sizeof info->description);
    info->colour_space = (uint32_t)lcms.cmsGetColorSpace(profile);
    info->device_class = (uint32_t)lcms.cmsGetDeviceClass(profile);
    // Whether lcms2 links it to sRGB at all, unoptimised (the link is what fails on a broken or
    // missing table; optimising costs 4 ms for a matrix/TRC profile and tens for a CMYK table, paid
    // again by a conversion): Gray and CMYK profiles, and RGB ones when not probed.
    int rgb = info->colour_space == (uint32_t)cmsSigRgbData, gray = info->colour_space == (uint32_t)cmsSigGrayData;
    if (gray || info->colour_space == (uint32_t)cmsSigCmykData || (rgb && !probe)) {
        cmsHPROFILE srgb = lcms.cmsCreate_sRGBProfile();
        cmsHTRANSFORM link = srgb ? lcms.cmsCreateTransform(profile, gray ? TYPE_GRAY_8 : rgb ? TYPE_RGB_8 : TYPE_CMYK_8, srgb, TYPE_RGB_8,
                                                            INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE) : NULL;
        info->converts = link != NULL;
        if (link) lcms.cmsDeleteTransform(link);
        if (srgb) lcms.cmsCloseProfile(srgb);
    }
    lcms.cmsCloseProfile(profile);
    // sRGB in all but name when every probe colour converts to itself: such pixels need no conversion.
    // A profile with a LUT lcms2 reads for some intent is probed with each (its perceptual table may
    // be another picture than its colorimetric one); a matrix/TRC profile's intents are one.
    info->is_srgb = 0;
    if (rgb && probe) {
        cmsHPROFILE opened = lcms.cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
        int luts = opened && (reads_lut(opened, INTENT_PERCEPTUAL, 0) || reads_lut(opened, INTENT_RELATIVE_COLORIMETRIC, 0) ||
                              reads_lut(opened, INTENT_SATURATION, 0));
        if (opened) lcms.cmsCloseProfile(opened);
        const int intents[3] = {INTENT_RELATIVE_COLORIMETRIC, INTENT_PERCEPTUAL, INTENT_SATURATION};
        int same[3] = {0, 0, 0};
        for (int k = 0; k < (luts ? 3 : 1); k++) {
            frost_colour_transform *t = NULL;
            if (frost_colour_transform_create(icc, size, FROST_COLOUR_RGBA, FROST_COLOUR_SRGB, NULL, 0, intents[k], &t, err) != FROST_OK)
                break;   // described, though not convertible
            info->converts = 1;
            same[intents[k]] = probes_unchanged(t, err);
            frost_colour_transform_free(t);
        }
        if (!luts) same[INTENT_PERCEPTUAL] = same[INTENT_SATURATION] = same[INTENT_RELATIVE_COLORIMETRIC];
        info->is_srgb = same[INTENT_RELATIVE_COLORIMETRIC];
        // Absolute colorimetric keeps relative's answer (as it always had).
        info->srgb_intents = (uint32_t)(same[0] | same[1] << 1 | same[2] << 2 | same[1] << 3);
    }
    return FROST_OK;
}

// ---------------------------------------------------------------- the matrix/TRC fast path

// Between two matrix/TRC RGB profiles (sRGB, Display P3, Adobe RGB, ProPhoto, Rec.709: every
// common RGB profile), relative colorimetric is three curves, a 3×3 matrix and three inverse
// curves (ICC.1, F.3): input samples to linear light through 256-entry tables of the source's TRCs,
// the matrix M_target⁻¹ · M_source of their D50 colorants, then linear light back to 8 bits through
// tables of the target's inverse TRCs, 2¹³ steps (a step at black is under half a level of sRGB's
// 12.92 slope). What lcms2's own transform does in 1.14 fixed point, here in floats and 8 lanes.
enum { OUT_STEPS = 1 << 13 };

struct frost_colour_fast {
    float in[3][256];
    float m[9];                      // row-major: out_c = Σ m[3c + k] · in_k
    int32_t out[3][OUT_STEPS + 1];   // 8-bit results as 32-bit entries, for vpgatherdd
};

static int colorants(cmsHPROFILE p, double m[9]) {
    const cmsTagSignature tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    for (int k = 0; k < 3; k++) {
        const cmsCIEXYZ *xyz = lcms.cmsReadTag(p, tags[k]);
        if (!xyz) return 0;
        m[k] = xyz->X;        // column k: the colorant's XYZ
        m[3 + k] = xyz->Y;
        m[6 + k] = xyz->Z;
    }
    return 1;
}

static int inverted(const double a[9], double out[9]) {
    double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
    if (fabs(det) < 1e-12) return 0;
    out[0] = (a[4] * a[8] - a[5] * a[7]) / det; out[1] = (a[2] * a[7] - a[1] * a[8]) / det; out[2] = (a[1] * a[5] - a[2] * a[4]) / det;
    out[3] = (a[5] * a[6] - a[3] * a[8]) / det; out[4] = (a[0] * a[8] - a[2] * a[6]) / det; out[5] = (a[2] * a[3] - a[0] * a[5]) / det;
    out[6] = (a[3] * a[7] - a[4] * a[6]) / det; out[7] = (a[1] * a[6] - a[0] * a[7]) / det; out[8] = (a[0] * a[4] - a[1] * a[3]) / det;
    return 1;
}

// Whether lcms2 reads `p` through a LUT for `intent`, as the input (`output` 0) or the output of a
// transform: cmsio1.c's _cmsReadInputLUT and _cmsReadOutputLUT take the intent's float tag (D2Bx,
// B2Dx), else its 16-bit tag (absolute reads the relative one's), else the perceptual one, and the
// matrix/TRC tags only where there is none of them (ICC.1 8.3: a LUT takes precedence).
static int reads_lut(cmsHPROFILE p, int intent, int output) {
    static const cmsTagSignature in16[4] = {cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigAToB1Tag};
    static const cmsTagSignature inFloat[4] = {cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag, cmsSigDToB3Tag};
    static const cmsTagSignature out16[4] = {cmsSigBToA0Tag, cmsSigBToA1Tag, cmsSigBToA2Tag, cmsSigBToA1Tag};
    static const cmsTagSignature outFloat[4] = {cmsSigBToD0Tag, cmsSigBToD1Tag, cmsSigBToD2Tag, cmsSigBToD3Tag};
    const cmsTagSignature *tags16 = output ? out16 : in16, *tagsFloat = output ? outFloat : inFloat;
    return lcms.cmsIsTag(p, tagsFloat[intent]) || lcms.cmsIsTag(p, tags16[intent]) || lcms.cmsIsTag(p, tags16[0]);
}

// Whether the fast path is exactly what lcms2's transform does between `in` and `out`: both RGB
// profiles of a device class (not a link, abstract or named-colour profile) that lcms2 reads
// through their matrix/TRC tags for this intent, and no black point compensation that would move
// anything. lcms2 forces it for perceptual and saturation where either profile is ICC v4
// (cmscnvrt.c, _cmsLinkProfiles: its built-in sRGB and P3 are v4), and it changes nothing where
// the two black points it detects are equal (ComputeConversion), as for curves that start at 0.
static int fast_path_serves(cmsHPROFILE in, cmsHPROFILE out, int intent) {
    if (intent < INTENT_PERCEPTUAL || intent > INTENT_SATURATION) return 0;   // absolute adapts to the media white
    cmsHPROFILE both[2] = {in, out};
    for (int k = 0; k < 2; k++) {
        cmsProfileClassSignature class = lcms.cmsGetDeviceClass(both[k]);
        if (lcms.cmsGetColorSpace(both[k]) != cmsSigRgbData || !lcms.cmsIsMatrixShaper(both[k]) || reads_lut(both[k], intent, k) ||
            class == cmsSigLinkClass || class == cmsSigAbstractClass || class == cmsSigNamedColorClass)
            return 0;
    }
    if (intent != INTENT_RELATIVE_COLORIMETRIC &&
        (lcms.cmsGetEncodedICCversion(in) >= 0x4000000 || lcms.cmsGetEncodedICCversion(out) >= 0x4000000)) {
        cmsCIEXYZ black = {0, 0, 0}, target = {0, 0, 0};
        lcms.cmsDetectBlackPoint(&black, in, (cmsUInt32Number)intent, 0);
        lcms.cmsDetectDestinationBlackPoint(&target, out, (cmsUInt32Number)intent, 0);
        if (black.X != target.X || black.Y != target.Y || black.Z != target.Z) return 0;
    }
    return 1;
}

frost_colour_fast *frost_colour_fast_create(const uint8_t *source, size_t source_size, int target, const uint8_t *target_bytes,
                                            size_t target_size, int intent) {
    frost_error err;
    if (need_lcms(&err) != FROST_OK) return NULL;
    cmsHPROFILE in = source ? lcms.cmsOpenProfileFromMem(source, (cmsUInt32Number)source_size) : lcms.cmsCreate_sRGBProfile();
    cmsHPROFILE out = target_profile(target, target_bytes, target_size);
    frost_colour_fast *f = NULL;
    double ms[9], mt[9], mti[9];
    const cmsTagSignature trcs[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    if (in && out && fast_path_serves(in, out, intent) && colorants(in, ms) && colorants(out, mt) && inverted(mt, mti) &&
        (f = calloc(1, sizeof *f))) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                f->m[3 * r + c] = (float)(mti[3 * r] * ms[c] + mti[3 * r + 1] * ms[3 + c] + mti[3 * r + 2] * ms[6 + c]);
        for (int c = 0; c < 3 && f; c++) {
            const cmsToneCurve *curve = lcms.cmsReadTag(in, trcs[c]), *back = lcms.cmsReadTag(out, trcs[c]);
            if (!curve || !back) {
                free(f);
                f = NULL;
                break;
            }
            for (int v = 0; v < 256; v++) f->in[c][v] = lcms.cmsEvalToneCurveFloat(curve, (float)v / 255);
            // One table where the target's channels share a curve (lcms2 hands out one object for
            // linked tags: every built-in and most RGB profiles), made once: 8193 evaluations of
            // an inverse curve are most of a transform's making.
            int shared = -1;
            for (int k = 0; k < c && shared < 0; k++)
                if (lcms.cmsReadTag(out, trcs[k]) == back) shared = k;
            if (shared >= 0) {
                memcpy(f->out[c], f->out[shared], sizeof f->out[c]);
                continue;
            }
            cmsToneCurve *reverse = lcms.cmsReverseToneCurve(back);
            if (!reverse) {
                free(f);
                f = NULL;
                break;
            }
            int steep = 0;
            for (int k = 0; k <= OUT_STEPS; k++) {
                float y = lcms.cmsEvalToneCurveFloat(reverse, (float)k / OUT_STEPS) * 255 + 0.5f;
                f->out[c][k] = y < 0 ? 0 : y > 255 ? 255 : (int32_t)y;
                steep |= k > 0 && abs(f->out[c][k] - f->out[c][k - 1]) > 1;
            }
            lcms.cmsFreeToneCurve(reverse);
            // A curve this table cannot express: where one step moves the output more than a
            // level (a pure power curve's inverse near black: 2.2's moves 4 levels in the first
            // step), rounding the index is no longer within a level of lcms2.
            if (steep) {
                free(f);
                f = NULL;
                break;
            }
        }
    }
    if (in) lcms.cmsCloseProfile(in);
    if (out) lcms.cmsCloseProfile(out);
    return f;
}

void frost_colour_fast_free(frost_colour_fast *f) { free(f); }

// One pixel, the reference the vector kernel is held to (the same float operations in the same order).
static inline void fast_pixel(const frost_colour_fast *f, const uint8_t *in, uint8_t *out) {
    float r = f->in[0][in[0]], g = f->in[1][in[1]], b = f->in[2][in[2]];
    for (int c = 0; c < 3; c++) {
        float v = fmaf(f->m[3 * c + 2], b, fmaf(f->m[3 * c + 1], g, f->m[3 * c] * r));
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        out[c] = (uint8_t)f->out[c][(int32_t)fmaf(v, OUT_STEPS, 0.5f)];   // fused, as the vector kernel's
    }
    out[3] = in[3];
}

void frost_colour_fast_rows_scalar(const frost_colour_fast *f, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                                   size_t in_stride, size_t out_stride) {
    for (size_t y = 0; y < rows; y++)
        for (size_t x = 0; x < width; x++) fast_pixel(f, in + y * in_stride + 4 * x, out + y * out_stride + 4 * x);
}

#if defined(__AVX2__)
// Eight pixels a step: channels split out of the RGBA words, each looked up by a gather, the matrix
// by FMAs in the reference's order, rounded to a table index (the same float as the scalar's), the
// results gathered and packed back with the alpha bytes.
static void fast_row_avx2(const frost_colour_fast *f, const uint8_t *in, uint8_t *out, size_t width) {
    const __m256i low = _mm256_set1_epi32(0xFF), alpha = _mm256_set1_epi32((int)0xFF000000);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), steps = _mm256_set1_ps(OUT_STEPS), half = _mm256_set1_ps(0.5f);
    __m256 m[9];
    for (int k = 0; k < 9; k++) m[k] = _mm256_set1_ps(f->m[k]);
    size_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(in + 4 * x));
        __m256 r = _mm256_i32gather_ps(f->in[0], _mm256_and_si256(p, low), 4);
        __m256 g = _mm256_i32gather_ps(f->in[1], _mm256_and_si256(_mm256_srli_epi32(p, 8), low), 4);
        __m256 b = _mm256_i32gather_ps(f->in[2], _mm256_and_si256(_mm256_srli_epi32(p, 16), low), 4);
        __m256i result = _mm256_and_si256(p, alpha);
        for (int c = 0; c < 3; c++) {
            __m256 v = _mm256_fmadd_ps(m[3 * c + 2], b, _mm256_fmadd_ps(m[3 * c + 1], g, _mm256_mul_ps(m[3 * c], r)));
            v = _mm256_min_ps(_mm256_max_ps(v, zero), one);
            __m256i index = _mm256_cvttps_epi32(_mm256_fmadd_ps(v, steps, half));
            __m256i value = _mm256_i32gather_epi32(f->out[c], index, 4);
            result = _mm256_or_si256(result, _mm256_slli_epi32(value, 8 * c));
        }
        _mm256_storeu_si256((__m256i *)(out + 4 * x), result);
    }
    for (; x < width; x++) fast_pixel(f, in + 4 * x, out + 4 * x);
}
#endif

void frost_colour_fast_rows(const frost_colour_fast *f, const uint8_t *in, uint8_t *out, size_t width, size_t rows,
                            size_t in_stride, size_t out_stride) {
#if defined(__AVX2__)
    for (size_t y = 0; y < rows; y++) fast_row_avx2(f, in + y * in_stride, out + y * out_stride, width);
#else
    frost_colour_fast_rows_scalar(f, in, out, width, rows, in_stride, out_stride);
#endif
}
