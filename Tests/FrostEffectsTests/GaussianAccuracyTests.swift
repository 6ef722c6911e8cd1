@testable import FrostEffects
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Gaussian accuracy against the exact float64 reference on real photographs, over σ 0.3…250:
/// the bound is max error ≤ 2 levels and mean ≤ 0.25.
@Suite struct GaussianAccuracyTests {
    /// Crops with detail: the coffee cup's rim, the rocket's plume, the transparent cutout's edge.
    static let photos: [Image] = {
        let coffee = try! Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        let rocket = try! Image(contentsOfFile: Corpus.path("photos/rocket.jpg"))
        let cutout = try! Image(contentsOfFile: Corpus.repository + "/SampleImages/coffee-cutout.png")
        return [coffee.cropped(x: 200, y: 100, width: 160, height: 120),
                rocket.cropped(x: 250, y: 150, width: 150, height: 130),
                cutout.cropped(x: 20, y: 40, width: 170, height: 110)]
    }()

    static let sigmas: [Double] = [0.3, 0.5, 0.8, 1, 1.4, 2, 2.9, 3, 3.5, 4, 5, 6, 7.9, 8, 11, 16, 20, 31, 40, 64, 100, 250]

    @Test(arguments: sigmas)
    func withinTwoLevelsOfExactGaussian(sigma: Double) {
        for (n, photo) in Self.photos.enumerated() {
            let blurred = photo.gaussianBlurred(sigma: sigma, threads: 1)
            let (worst, mean) = GaussianReference.error(blurred, GaussianReference.blur(photo, sigma: sigma))
            print("ACCURACY sigma \(sigma) photo \(n) plan \(GaussianPlan(sigma: sigma).factor) max \(worst) mean \(mean)")
            #expect(worst <= 2, "σ \(sigma), photo \(n): max \(worst)")
            #expect(mean <= 0.25, "σ \(sigma), photo \(n): mean \(mean)")
        }
    }

    @Test func belowThresholdIsACopy() {
        let photo = Self.photos[0]
        #expect(photo.gaussianBlurred(sigma: 0.29).pixels == photo.premultiplied().pixels)
    }
}
