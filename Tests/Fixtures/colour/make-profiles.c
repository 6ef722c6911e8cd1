// Makes the RGB profiles of Tests/Fixtures/colour/profiles/ with lcms2 (Debian 12's liblcms2-dev
// 2.14): profiles whose matrix/TRC tags say one thing and whose LUTs say another, the shape of
// calibrated camera, scanner and display profiles (and of Little CMS's browser check,
// check_full.jpeg), so that a converter that follows the matrix where ICC.1 gives the LUT
// precedence shows it. Every LUT here describes Display P3 pixels; every matrix/TRC says sRGB.
// Run by make.sh; Frost never runs it.
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>

enum { GRID = 17 };

static cmsHTRANSFORM sampled;   // what a sampler samples: P3 to the PCS, or the PCS to P3

static int sample16(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    (void)cargo;
    cmsDoTransform(sampled, in, out, 1);
    return 1;
}

static int sample_float(const cmsFloat32Number in[], cmsFloat32Number out[], void *cargo) {
    (void)cargo;
    cmsDoTransform(sampled, in, out, 1);
    return 1;
}

static cmsHPROFILE rgb(const cmsCIExyYTRIPLE *primaries) {
    cmsCIExyY d65 = {0.3127, 0.3290, 1.0};
    cmsFloat64Number srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE p = cmsCreateRGBProfile(&d65, primaries, curves);
    cmsFreeToneCurve(curve);
    return p;
}

static const cmsCIExyYTRIPLE srgb_primaries = {{0.640, 0.330, 1.0}, {0.300, 0.600, 1.0}, {0.150, 0.060, 1.0}};
static const cmsCIExyYTRIPLE p3_primaries = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};

// A 17³ table of `from` to `to` (16-bit) between identity curves, as a pipeline (the shape both
// lut16Type and lutAtoBType / lutBtoAType hold).
static cmsPipeline *table16(cmsHPROFILE from, cmsUInt32Number from_type, cmsHPROFILE to, cmsUInt32Number to_type) {
    sampled = cmsCreateTransform(from, from_type, to, to_type, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE);
    cmsPipeline *lut = cmsPipelineAlloc(NULL, 3, 3);
    cmsStage *clut = cmsStageAllocCLut16bit(NULL, GRID, 3, 3, NULL);
    if (!sampled || !lut || !clut || !cmsStageSampleCLut16bit(clut, sample16, NULL, 0) ||
        !cmsPipelineInsertStage(lut, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, NULL)) ||
        !cmsPipelineInsertStage(lut, cmsAT_END, clut) ||
        !cmsPipelineInsertStage(lut, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, NULL))) {
        fprintf(stderr, "cannot make a table\n");
        exit(1);
    }
    cmsDeleteTransform(sampled);
    return lut;
}

// The sRGB matrix/TRC profile named `name`, to which LUT tags are added.
static cmsHPROFILE described(const char *name, double version, cmsColorSpaceSignature pcs) {
    cmsHPROFILE p = rgb(&srgb_primaries);
    cmsSetProfileVersion(p, version);
    cmsSetPCS(p, pcs);
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(mlu, "en", "US", name);
    cmsWriteTag(p, cmsSigProfileDescriptionTag, mlu);
    cmsMLUfree(mlu);
    cmsMLU *copyright = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(copyright, "en", "US", "Made for Frost's tests (Tests/Fixtures/colour/make-profiles.c); no copyright claimed");
    cmsWriteTag(p, cmsSigCopyrightTag, copyright);
    cmsMLUfree(copyright);
    return p;
}

static void save(cmsHPROFILE p, const char *path) {
    if (!cmsSaveProfileToFile(p, path)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    cmsCloseProfile(p);
}

int main(void) {
    cmsHPROFILE p3 = rgb(&p3_primaries), xyz = cmsCreateXYZProfile(), lab = cmsCreateLab4Profile(NULL);

    // v2, PCS XYZ, A2B0/A2B1/A2B2 as lut16 (mft2): Little CMS's check_full.jpeg's shape. lcms2
    // reads the LUT for every intent.
    cmsHPROFILE v2 = described("Frost test: sRGB matrix, Display P3 A2B0-2 (v2 mft2)", 2.1, cmsSigXYZData);
    cmsPipeline *a2b = table16(p3, TYPE_RGB_16, xyz, TYPE_XYZ_16);
    cmsWriteTag(v2, cmsSigAToB0Tag, a2b);
    cmsLinkTag(v2, cmsSigAToB1Tag, cmsSigAToB0Tag);
    cmsLinkTag(v2, cmsSigAToB2Tag, cmsSigAToB0Tag);
    save(v2, "profiles/matrix-and-a2b0.icc");

    // v2, A2B1 alone: lcms2 reads it for relative (and absolute) colorimetric, the matrix for
    // perceptual and saturation (no A2B0 to fall back to).
    cmsHPROFILE relative = described("Frost test: sRGB matrix, Display P3 A2B1 only (v2 mft2)", 2.1, cmsSigXYZData);
    cmsWriteTag(relative, cmsSigAToB1Tag, a2b);
    save(relative, "profiles/matrix-and-a2b1.icc");
    cmsPipelineFree(a2b);

    // v4, PCS Lab, A2B0 and B2A0 (lutAtoBType, lutBtoAType): the LUT wins in both directions, as
    // a source and as the target of `--colorspace PROFILE.icc`.
    cmsHPROFILE v4 = described("Frost test: sRGB matrix, Display P3 A2B0 and B2A0 (v4)", 4.3, cmsSigLabData);
    cmsPipeline *to_lab = table16(p3, TYPE_RGB_16, lab, TYPE_Lab_16), *from_lab = table16(lab, TYPE_Lab_16, p3, TYPE_RGB_16);
    cmsWriteTag(v4, cmsSigAToB0Tag, to_lab);
    cmsWriteTag(v4, cmsSigBToA0Tag, from_lab);
    save(v4, "profiles/matrix-and-luts-v4.icc");
    cmsPipelineFree(to_lab);
    cmsPipelineFree(from_lab);

    // v4, PCS XYZ, D2B0 (multiProcessElementType, a float table): the float tag wins over all.
    cmsHPROFILE mpe = described("Frost test: sRGB matrix, Display P3 D2B0 (v4 float)", 4.3, cmsSigXYZData);
    sampled = cmsCreateTransform(p3, TYPE_RGB_FLT, xyz, TYPE_XYZ_FLT, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE);
    cmsPipeline *d2b = cmsPipelineAlloc(NULL, 3, 3);
    cmsStage *clut = cmsStageAllocCLutFloat(NULL, GRID, 3, 3, NULL);
    if (!sampled || !d2b || !clut || !cmsStageSampleCLutFloat(clut, sample_float, NULL, 0) || !cmsPipelineInsertStage(d2b, cmsAT_END, clut)) {
        fprintf(stderr, "cannot make the float table\n");
        return 1;
    }
    cmsDeleteTransform(sampled);
    cmsWriteTag(mpe, cmsSigDToB0Tag, d2b);
    save(mpe, "profiles/matrix-and-d2b0.icc");
    cmsPipelineFree(d2b);

    // v4 matrix/TRC whose curves start above 0 (a raised black, as a display's measured black):
    // lcms2 compensates the black point for perceptual and saturation where a v4 profile is in
    // the transform (its built-in sRGB is one), which moves the darks.
    cmsCIExyY d65 = {0.3127, 0.3290, 1.0};
    cmsFloat64Number raised[5] = {2.2, 0.9, 0.1, 0, 0};   // lcms2 type 4 (IEC 61966-3) with d = 0: Y = (0.9 X + 0.1)^2.2
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, raised);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE black = cmsCreateRGBProfile(&d65, &srgb_primaries, curves);
    cmsFreeToneCurve(curve);
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(mlu, "en", "US", "Frost test: sRGB primaries, raised black (v4)");
    cmsWriteTag(black, cmsSigProfileDescriptionTag, mlu);
    cmsMLUfree(mlu);
    save(black, "profiles/raised-black-v4.icc");

    cmsCloseProfile(p3);
    cmsCloseProfile(xyz);
    cmsCloseProfile(lab);
    return 0;
}
