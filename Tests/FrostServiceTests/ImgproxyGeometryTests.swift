import FrostCodecs
import FrostCore
@testable import FrostService
import FrostTestSupport
import Testing

/// Frost's sizes against imgproxy's: every size case of imgproxy's processing tests
/// (processing/processing_test.go: a 200×100 source, each resizing type with `el`, `ex`, `exar`,
/// and `IMGPROXY_MAX_RESULT_DIMENSION` with `rot` and `pd`), run through the whole pipeline
/// (`ServiceProcessor`) to a PNG whose size is read back; the cases issue 66 found apart on a
/// 400×300 source; and gravity offsets as imgproxy places them.
@Suite struct ImgproxyGeometryTests {
    /// A source whose every pixel differs from its neighbours (x, y and their high bits in B).
    static func source(_ width: Int, _ height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(x & 255)
                pixels[i + 1] = UInt8(y & 255)
                let high: Int = (x >> 8) * 64 + (y >> 8) * 16 + 8
                pixels[i + 2] = UInt8(high)
            }
        }
        return try Image(width: width, height: height, pixels: pixels).encoded(as: .png)
    }

    static func processed(_ source: [UInt8], _ url: String, maxResultDimension: Int = 0) throws -> Image {
        var processor = ServiceProcessor()
        processor.defaults.maxResultDimension = maxResultDimension
        let options = try ProcessingOptions(try ServicePath(parsing: "/_/" + url + "/plain/local:///a.png").options)
        return try Image(decoding: processor.process(source, options: options, format: OutputFormat(explicit: .png)).bytes)
    }

    /// imgproxy's 167 size cases: (max result dimension, options, the size imgproxy makes).
    static let imgproxyCases: [(limit: Int, options: String, width: Int, height: Int)] = [
        (0, "rs:fit:50:50", 50, 25),
        (0, "rs:fit:50:20", 40, 20),
        (0, "rs:fit:20:50", 20, 10),
        (0, "rs:fit:300:300", 200, 100),
        (0, "rs:fit:300:50", 100, 50),
        (0, "rs:fit:100:300", 100, 50),
        (0, "rs:fit:0:50", 100, 50),
        (0, "rs:fit:50:0", 50, 25),
        (0, "rs:fit:0:200", 200, 100),
        (0, "rs:fit:300:0", 200, 100),
        (0, "rs:fit:50:50/el:1", 50, 25),
        (0, "rs:fit:50:20/el:1", 40, 20),
        (0, "rs:fit:20:50/el:1", 20, 10),
        (0, "rs:fit:300:300/el:1", 300, 150),
        (0, "rs:fit:300:125/el:1", 250, 125),
        (0, "rs:fit:250:300/el:1", 250, 125),
        (0, "rs:fit:0:50/el:1", 100, 50),
        (0, "rs:fit:50:0/el:1", 50, 25),
        (0, "rs:fit:0:200/el:1", 400, 200),
        (0, "rs:fit:300:0/el:1", 300, 150),
        (0, "rs:fit:50:50/ex:1", 50, 50),
        (0, "rs:fit:50:20/ex:1", 50, 20),
        (0, "rs:fit:20:50/ex:1", 20, 50),
        (0, "rs:fit:300:300/ex:1", 300, 300),
        (0, "rs:fit:300:125/ex:1", 300, 125),
        (0, "rs:fit:250:300/ex:1", 250, 300),
        (0, "rs:fit:0:50/ex:1", 100, 50),
        (0, "rs:fit:50:0/ex:1", 50, 25),
        (0, "rs:fit:0:200/ex:1", 200, 200),
        (0, "rs:fit:300:0/ex:1", 300, 100),
        (0, "rs:fit:50:50/exar:1", 50, 50),
        (0, "rs:fit:50:20/exar:1", 50, 20),
        (0, "rs:fit:20:50/exar:1", 20, 50),
        (0, "rs:fit:300:300/exar:1", 200, 200),
        (0, "rs:fit:300:125/exar:1", 240, 100),
        (0, "rs:fit:250:500/exar:1", 200, 400),
        (0, "rs:fit:0:50/exar:1", 100, 50),
        (0, "rs:fit:50:0/exar:1", 50, 25),
        (0, "rs:fit:0:200/exar:1", 200, 100),
        (0, "rs:fit:300:0/exar:1", 200, 100),
        (0, "rs:fill:50:50", 50, 50),
        (0, "rs:fill:50:20", 50, 20),
        (0, "rs:fill:20:50", 20, 50),
        (0, "rs:fill:300:300", 200, 100),
        (0, "rs:fill:300:50", 200, 50),
        (0, "rs:fill:100:300", 100, 100),
        (0, "rs:fill:0:50", 100, 50),
        (0, "rs:fill:50:0", 50, 25),
        (0, "rs:fill:0:200", 200, 100),
        (0, "rs:fill:300:0", 200, 100),
        (0, "rs:fill:50:50/el:1", 50, 50),
        (0, "rs:fill:50:20/el:1", 50, 20),
        (0, "rs:fill:20:50/el:1", 20, 50),
        (0, "rs:fill:300:300/el:1", 300, 300),
        (0, "rs:fill:300:125/el:1", 300, 125),
        (0, "rs:fill:250:300/el:1", 250, 300),
        (0, "rs:fill:0:50/el:1", 100, 50),
        (0, "rs:fill:50:0/el:1", 50, 25),
        (0, "rs:fill:0:200/el:1", 400, 200),
        (0, "rs:fill:300:0/el:1", 300, 150),
        (0, "rs:fill:50:50/ex:1", 50, 50),
        (0, "rs:fill:50:20/ex:1", 50, 20),
        (0, "rs:fill:20:50/ex:1", 20, 50),
        (0, "rs:fill:300:300/ex:1", 300, 300),
        (0, "rs:fill:300:125/ex:1", 300, 125),
        (0, "rs:fill:250:300/ex:1", 250, 300),
        (0, "rs:fill:300:50/ex:1", 300, 50),
        (0, "rs:fill:100:300/ex:1", 100, 300),
        (0, "rs:fill:0:50/ex:1", 100, 50),
        (0, "rs:fill:50:0/ex:1", 50, 25),
        (0, "rs:fill:0:200/ex:1", 200, 200),
        (0, "rs:fill:300:0/ex:1", 300, 100),
        (0, "rs:fill:50:50/exar:1", 50, 50),
        (0, "rs:fill:50:20/exar:1", 50, 20),
        (0, "rs:fill:20:50/exar:1", 20, 50),
        (0, "rs:fill:300:300/exar:1", 200, 200),
        (0, "rs:fill:300:125/exar:1", 240, 100),
        (0, "rs:fill:250:500/exar:1", 200, 400),
        (0, "rs:fill:300:50/exar:1", 300, 50),
        (0, "rs:fill:100:300/exar:1", 100, 300),
        (0, "rs:fill:0:50/exar:1", 100, 50),
        (0, "rs:fill:50:0/exar:1", 50, 25),
        (0, "rs:fill:0:200/exar:1", 200, 100),
        (0, "rs:fill:300:0/exar:1", 200, 100),
        (0, "rs:fill-down:50:50", 50, 50),
        (0, "rs:fill-down:50:20", 50, 20),
        (0, "rs:fill-down:20:50", 20, 50),
        (0, "rs:fill-down:300:300", 100, 100),
        (0, "rs:fill-down:300:125", 200, 83),
        (0, "rs:fill-down:250:300", 83, 100),
        (0, "rs:fill-down:0:50", 100, 50),
        (0, "rs:fill-down:50:0", 50, 25),
        (0, "rs:fill-down:0:200", 200, 100),
        (0, "rs:fill-down:300:0", 200, 100),
        (0, "rs:fill-down:50:50/el:1", 50, 50),
        (0, "rs:fill-down:50:20/el:1", 50, 20),
        (0, "rs:fill-down:20:50/el:1", 20, 50),
        (0, "rs:fill-down:300:300/el:1", 300, 300),
        (0, "rs:fill-down:300:125/el:1", 300, 125),
        (0, "rs:fill-down:250:300/el:1", 250, 300),
        (0, "rs:fill-down:0:50/el:1", 100, 50),
        (0, "rs:fill-down:50:0/el:1", 50, 25),
        (0, "rs:fill-down:0:200/el:1", 400, 200),
        (0, "rs:fill-down:300:0/el:1", 300, 150),
        (0, "rs:fill-down:50:50/ex:1", 50, 50),
        (0, "rs:fill-down:50:20/ex:1", 50, 20),
        (0, "rs:fill-down:20:50/ex:1", 20, 50),
        (0, "rs:fill-down:300:300/ex:1", 300, 300),
        (0, "rs:fill-down:300:125/ex:1", 300, 125),
        (0, "rs:fill-down:250:300/ex:1", 250, 300),
        (0, "rs:fill-down:300:50/ex:1", 300, 50),
        (0, "rs:fill-down:100:300/ex:1", 100, 300),
        (0, "rs:fill-down:0:50/ex:1", 100, 50),
        (0, "rs:fill-down:50:0/ex:1", 50, 25),
        (0, "rs:fill-down:0:200/ex:1", 200, 200),
        (0, "rs:fill-down:300:0/ex:1", 300, 100),
        (0, "rs:fill-down:50:50/exar:1", 50, 50),
        (0, "rs:fill-down:50:20/exar:1", 50, 20),
        (0, "rs:fill-down:20:50/exar:1", 20, 50),
        (0, "rs:fill-down:300:300/exar:1", 100, 100),
        (0, "rs:fill-down:300:125/exar:1", 200, 83),
        (0, "rs:fill-down:250:300/exar:1", 83, 100),
        (0, "rs:fill-down:0:50/exar:1", 100, 50),
        (0, "rs:fill-down:50:0/exar:1", 50, 25),
        (0, "rs:fill-down:0:200/exar:1", 200, 100),
        (0, "rs:fill-down:300:0/exar:1", 200, 100),
        (1000, "rs:fit:100:100", 100, 50),
        (50, "rs:fit:100:100", 50, 25),
        (50, "rs:fit:0:0", 50, 25),
        (100, "rs:fit:0:100", 100, 50),
        (50, "rs:fit:150:0", 50, 25),
        (100, "rs:fit:1000:1000", 100, 50),
        (100, "rs:fit:1000:1000/el:1", 100, 50),
        (100, "rs:fit:1000:2000/ex:1", 50, 100),
        (100, "rs:fit:1000:2000/exar:1", 50, 100),
        (100, "rs:fit:100:150/rot:90", 50, 100),
        (100, "rs:fit:0:0/rot:90", 50, 100),
        (200, "rs:fit:100:100/pd:100:200:300:400", 200, 129),
        (1000, "rs:fill:100:100", 100, 100),
        (50, "rs:fill:100:100", 50, 50),
        (50, "rs:fill:1000:50", 50, 13),
        (50, "rs:fill:100:1000", 50, 50),
        (50, "rs:fill:0:0", 50, 25),
        (100, "rs:fill:0:100", 100, 50),
        (50, "rs:fill:150:0", 50, 25),
        (100, "rs:fill:1000:1000", 100, 50),
        (100, "rs:fill:1000:1000/el:1", 100, 100),
        (100, "rs:fill:1000:2000/ex:1", 50, 100),
        (100, "rs:fill:1000:2000/exar:1", 50, 100),
        (100, "rs:fill:100:150/rot:90", 67, 100),
        (100, "rs:fill:0:0/rot:90", 50, 100),
        (200, "rs:fill:100:100/pd:100:200:300:400", 200, 144),
        (1000, "rs:fill-down:100:100", 100, 100),
        (50, "rs:fill-down:100:100", 50, 50),
        (50, "rs:fill-down:1000:50", 50, 3),
        (50, "rs:fill-down:100:1000", 5, 50),
        (50, "rs:fill-down:0:0", 50, 25),
        (100, "rs:fill-down:0:100", 100, 50),
        (50, "rs:fill-down:150:0", 50, 25),
        (100, "rs:fill-down:1000:1000", 100, 100),
        (100, "rs:fill-down:1000:1000/el:1", 100, 100),
        (100, "rs:fill-down:1000:2000/ex:1", 50, 100),
        (100, "rs:fill-down:1000:2000/exar:1", 50, 100),
        (100, "rs:fill-down:1000:1500/rot:90", 67, 100),
        (100, "rs:fill-down:0:0/rot:90", 50, 100),
        (200, "rs:fill-down:100:100/pd:100:200:300:400", 200, 144),
        (200, "rs:fill-down:1000:1000/pd:100:200:300:400", 200, 144),
    ]

    @Test func imgproxysSizeCases() throws {
        let source = try Self.source(200, 100)
        var differing: [String] = []
        for c in Self.imgproxyCases {
            let image = try Self.processed(source, c.options, maxResultDimension: c.limit)
            if (image.width, image.height) != (c.width, c.height) {
                differing.append("\(c.options) limit \(c.limit): \(image.width)×\(image.height), imgproxy \(c.width)×\(c.height)")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(Self.imgproxyCases.count):\n\(differing.joined(separator: "\n"))")
    }

    /// The sizes issue 66 found apart from imgproxy's.
    @Test func theIssuesCases() throws {
        let large = try Self.source(400, 300), small = try Self.source(200, 100)
        for (source, url, width, height) in [(large, "rs:fill:300:200/dpr:2", 400, 267), (large, "rs:fit:600:600:0:1/dpr:2", 600, 600),
                                             (large, "rs:force:200:0", 200, 300), (large, "rs:force:800:100", 400, 50),
                                             (small, "rs:fit:300:0:0:1", 300, 100), (large, "rs:fill-down:800:600:1", 800, 600),
                                             (large, "rs:fill:800:600:1", 800, 600), (large, "s:600:600:0:1:so/dpr:2", 600, 600),
                                             (large, "rs:fit:0:100/mw:300", 300, 100), (large, "rs:fit:100:100/z:2", 200, 150),
                                             (large, "c:200:100/rs:fit:400:0:1", 400, 200), (large, "c:0.5:0.5", 200, 150),
                                             (large, "rs:fit:200:200/pd:10:20/dpr:2", 480, 340), (large, "rs:fill:200:100/exar:1", 200, 100),
                                             (large, "rs:fit:200:100/exar:1", 200, 100), (large, "rot:90/rs:fit:150:0", 150, 200)] {
            let image = try Self.processed(source, url)
            #expect((image.width, image.height) == (width, height), "\(url): \(image.width)×\(image.height), imgproxy \(width)×\(height)")
        }
    }

    /// Offsets move the crop inward from the edge the gravity names, a fraction of the size under
    /// 1, in pixels × dpr from 1; an odd centre rounds half to even.
    @Test func gravityOffsetsAsImgproxys() throws {
        let bytes = try Self.source(400, 300), source = try Image(decoding: bytes)
        for (url, bounds) in [("rs:fill:300:300/g:ea:10", PixelBounds(x: 90, y: 0, width: 300, height: 300)),
                              ("rs:fill:300:300/g:ea:0.1", PixelBounds(x: 60, y: 0, width: 300, height: 300)),
                              ("rs:fill:300:300/g:we:10", PixelBounds(x: 10, y: 0, width: 300, height: 300)),
                              ("rs:fill:300:300/g:ce:-20", PixelBounds(x: 30, y: 0, width: 300, height: 300)),
                              ("rs:fill:400:200/g:so:0:10", PixelBounds(x: 0, y: 90, width: 400, height: 200)),
                              ("rs:fill:250:300", PixelBounds(x: 76, y: 0, width: 250, height: 300)),
                              ("rs:fill:251:300", PixelBounds(x: 75, y: 0, width: 251, height: 300)),
                              ("rs:fill:150:100/dpr:2/g:nowe:10:5", nil),
                              ("c:100:100:soea:10:20", PixelBounds(x: 290, y: 180, width: 100, height: 100)),
                              ("c:100:100/g:fp:0.25:0.5", PixelBounds(x: 50, y: 100, width: 100, height: 100))] {
            let served = try Self.processed(bytes, url)
            if let bounds {
                #expect(PixelDifference(served, source.cropped(to: bounds)).max == 0, "\(url)")
            } else {
                // dpr 2 on a 300×225 scale: the offset of 5 is 10 of the scaled picture (x has no room).
                let scaled = source.resized(width: 300, height: 225)
                #expect(PixelDifference(served, scaled.cropped(to: PixelBounds(x: 0, y: 10, width: 300, height: 200))).max == 0, "\(url)")
            }
        }
        // `ex` takes `fp`: the picture centred on the point of the canvas, kept inside.
        let extended = try Self.processed(bytes, "rs:fit:1000:300/ex:1:fp:0.75:0.5")
        #expect(extended.width == 1000 && extended.pixel(x: 549, y: 150)[3] == 0 && extended.pixel(x: 550, y: 150) == source.pixel(x: 0, y: 150))
    }

    /// A non-centre gravity costs what the centred one costs: only the crop is made.
    @Test func aFillChecksOnlyItsCrop() throws {
        var processor = ServiceProcessor()
        processor.limits.maxPixels = 1_000_000
        let bytes = try Self.source(300, 400)
        for gravity in ["", "/g:no", "/g:soea:5:5"] {
            let options = try ProcessingOptions(try ServicePath(parsing: "/_/rs:fill:7000:100:1\(gravity)/plain/local:///a.png").options)
            let image = try Image(decoding: processor.process(bytes, options: options, format: OutputFormat(explicit: .png)).bytes)
            #expect(image.width == 7000 && image.height == 100, "\(gravity)")
        }
    }
}
