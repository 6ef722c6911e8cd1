import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost page` in a real browser: headless Chromium opens the page scrolled to an offset
/// (`#scroll=Y`: the page's own `scrollTo`, so its scroll handler picks the frame) and takes a
/// screenshot, compared with `frost fade` at the same offset: within 2 levels max; mean 0.3 where
/// the browser shows full-size levels, 0.55 where it enlarges a compact one (its bilinear
/// enlargement floors: a compact level alone is 0.47 off, docs/cache-format.md). Chromium's
/// `--screenshot` draws the document from its origin, so the sticky stage, held at the top of the
/// scrolled viewport, is found at y = the offset: where it is proves the page scrolled.
@Suite struct PageTests {
    static let chromium = "/usr/bin/chromium"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium),
                   "chromium is not installed (make deps installs it): the page was not tested in a browser"))
    func pageShowsWhatFadeShows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("coffee.frost")
        #expect(try FrostRun.run(["cache", Corpus.path("photos/coffee.png"), "-o", cache, "--levels", "6", "--max-sigma", "24"]).status == 0)
        let manifest = try String(contentsOfFile: cache + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"placement\"") && manifest.contains("\"factor\" : 2"))
        for mode in ["blend", "nearest", "alpha"] {
            let page = folder.file("page-\(mode).html")
            let made = try FrostRun.run(["page", cache, "-o", page, "--height", "300", "--mode", mode])
            #expect(made.status == 0, "\(made.stderr)")
            // Offsets 0 and 41 show levels 0–1 (full size); from 100 on, levels 3–6 are compact.
            for offset in [0, 41, 130, 222, 300] {
                let shot = folder.file("shot-\(mode)-\(offset).png")
                let url = URL(fileURLWithPath: page).absoluteString + "#scroll=\(offset)"
                let browser = try FrostRun.run(["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                "--force-device-scale-factor=1", "--window-size=600,760", "--virtual-time-budget=3000",
                                                "--screenshot=\(shot)", url], executable: Self.chromium)
                #expect(browser.status == 0, "\(browser.stderr.suffix(300))")
                let expected = folder.file("fade-\(mode)-\(offset).png")
                #expect(try FrostRun.run(["fade", cache, "--offset", "\(offset)", "--start", "0", "--end", "300", "--mode", mode, "-o", expected]).status == 0)
                let fade = try Image(contentsOfFile: expected)
                let seen = try Image(contentsOfFile: shot).cropped(to: PixelBounds(x: 0, y: offset, width: fade.width, height: fade.height))
                let difference = PixelDifference(seen, fade, channels: 3)
                let enlarged = mode == "alpha" ? offset > 0 : offset >= 100
                #expect(difference.max <= 2 && difference.mean <= (enlarged ? 0.55 : 0.3), "\(mode) at \(offset): \(difference)")
                print("page \(mode) offset \(offset): \(difference)")
            }
        }
    }

    /// A transparent cache: the stage is black, so the screenshot is `frost fade`'s frame over
    /// black, its premultiplied color (plus-lighter sums premultiplied levels: right for alpha too).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium),
                   "chromium is not installed (make deps installs it): the page was not tested in a browser"))
    func transparentLevelsBlendOverBlack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("cutout.frost"), page = folder.file("page.html"), shot = folder.file("shot.png")
        #expect(try FrostRun.run(["cache", Corpus.repository + "/SampleImages/coffee-cutout.png", "-o", cache, "--levels", "6", "--max-sigma", "24"]).status == 0)
        #expect(try FrostRun.run(["page", cache, "-o", page, "--height", "300"]).status == 0)
        let url = URL(fileURLWithPath: page).absoluteString + "#scroll=130"
        let browser = try FrostRun.run(["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                                        "--window-size=600,760", "--virtual-time-budget=3000", "--screenshot=\(shot)", url], executable: Self.chromium)
        #expect(browser.status == 0, "\(browser.stderr.suffix(300))")
        #expect(try FrostRun.run(["fade", cache, "--offset", "130", "--start", "0", "--end", "300", "-o", folder.file("fade.png")]).status == 0)
        let fade = try Image(contentsOfFile: folder.file("fade.png")).premultiplied()
        let seen = try Image(contentsOfFile: shot).cropped(to: PixelBounds(x: 0, y: 130, width: fade.width, height: fade.height))
        let difference = PixelDifference(seen, fade, channels: 3)
        #expect(difference.max <= 2 && difference.mean <= 0.55, "\(difference)")
        print("page of a transparent cache at 130: \(difference)")
    }
}
