import FrostCodecs
import FrostCore
@testable import FrostService
import Testing

@Suite struct ServicePathTests {
    @Test func plainSourcesWithAnExtension() throws {
        let path = try ServicePath(parsing: "/sig/g:ce/rs:fit:300:200:0/plain/local:///photos/a%20b.jpg@webp")
        #expect(path.signature == "sig" && path.signed == "/g:ce/rs:fit:300:200:0/plain/local:///photos/a%20b.jpg@webp")
        #expect(path.options == [.init(name: "g", arguments: ["ce"]), .init(name: "rs", arguments: ["fit", "300", "200", "0"])])
        #expect(path.source == "local:///photos/a b.jpg" && path.format == .webp)
        let bare = try ServicePath(parsing: "/_/plain/local:///a.png")
        #expect(bare.options.isEmpty && bare.format == nil && bare.source == "local:///a.png")
    }

    @Test func base64SourcesSplitAnywhere() throws {
        let path = try ServicePath(parsing: "/sig/w:10/bG9jYWw6Ly8v/cGhvdG8uanBn.png")
        #expect(path.source == "local:///photo.jpg" && path.format == .png && path.options.count == 1)
        #expect(try ServicePath(parsing: "/sig/bG9jYWw6Ly8vcGhvdG8uanBn").format == nil)
    }

    @Test func brokenPathsAre400s() {
        for bad in ["", "nosig", "/sig", "/sig/rs:fit:1:1", "/sig/plain/", "/sig/plain/local:///a.jpg@bmp", "/sig/plain/a%zz",
                    "/sig/!!!.png", "/sig/plain/local:///a%00b.png"] {
            #expect(throws: ServiceError.self, "\(bad)") { try ServicePath(parsing: bad) }
        }
    }

    @Test func optionsTakeImgproxysMeanings() throws {
        func options(_ text: String, presets: [String: [ServicePath.Option]] = [:]) throws -> ProcessingOptions {
            try ProcessingOptions(try ServicePath(parsing: "/_/" + text + "/plain/local:///a.jpg").options, presets: presets)
        }
        let o = try options("rs:fill:300:200:1:1/g:soea:5:6/dpr:2/bl:3/sh:0.5/q:70/f:webp/bg:ff0000/cb:v2")
        #expect(o.resizingType == .fill && o.width == 300 && o.height == 200 && o.enlarge && o.extend)
        #expect(o.gravity == ProcessingOptions.Gravity(x: 1, y: 1, offsetX: 5, offsetY: 6))
        #expect(o.dpr == 2 && o.blur == 3 && o.sharpen == 0.5 && o.quality == 70 && o.format == .webp && o.cacheBuster == "v2")
        #expect(o.background == Color(red: 1, green: 0, blue: 0))
        // Later options override earlier ones; empty arguments keep the value.
        let later = try options("rs:fit:300:200/s::100/rt:force")
        #expect(later.resizingType == .force && later.width == 300 && later.height == 100)
        // Presets, the default one first.
        let presets = ["default": [ServicePath.Option(name: "q", arguments: ["60"])], "thumb": [.init(name: "rs", arguments: ["fill", "64", "64"])]]
        let p = try options("pr:thumb", presets: presets)
        #expect(p.quality == 60 && p.width == 64 && p.resizingType == .fill)
        // Frost's own.
        let f = try options("fx:dark/br:0.1/co:1.2/sa:0.5/ga:2/kernel:lanczos3")
        #expect(f.effect != nil && f.adjustment.brightness == 0.1 && f.adjustment.gamma == 2 && f.kernel == .lanczos3)
        // The cache buster is part of the identity.
        #expect(try options("cb:1").identity != options("cb:2").identity)
    }

    @Test func badOptionsAre400sNamingTheOption() throws {
        for (text, said) in [("zz:1", "unknown option 'zz'"), ("rs:squash:1:1", "rs: unknown resizing type"), ("w:-1", "w:"),
                             ("g:obj", "g: gravity 'obj'"), ("ex:1:sm", "ex: sm gravity places crops only"), ("q:101", "q:"), ("q:0.5", "q:"), ("pr:nope", "unknown preset"), ("el:maybe", "el:"),
                             ("bl:1:2", "bl: at most 1"), ("f:bmp", "unknown output format")] {
            do {
                _ = try ProcessingOptions(try ServicePath(parsing: "/_/" + text + "/plain/local:///a.jpg").options)
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.status == 400 && error.message.contains(said), "\(text): \(error)")
            }
        }
    }
}

/// `--allow-source`: listed hosts only, and nothing inside the network unless its address is listed.
@Suite struct RemoteSourcesTests {
    @Test func internalAddresses() {
        for inside in ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0",
                       "100.64.0.1", "224.0.0.1", "198.18.0.1", "198.19.255.255", "192.0.2.7", "192.0.0.8", "240.0.0.1",
                       "::1", "::", "fc00::1", "fd12::1", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::127.0.0.1",
                       "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::1", "2002:7f00:1::1", "2002:c0a8:101::", "2001:db8::1",
                       "2001::1", "100::1", "nonsense"] {
            #expect(RemoteSources.isInternal(inside), "\(inside)")
        }
        for outside in ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "198.20.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8",
                        "64:ff9b::808:808", "2002:808:808::1"] {
            #expect(!RemoteSources.isInternal(outside), "\(outside)")
        }
    }

    @Test func onlyListedHostsAndNotInsideUnlessListed() {
        func status(_ url: String, _ hosts: [String]) -> Int {
            do { _ = try RemoteSources(hosts: hosts).check(url); return 200 } catch { return error.status }
        }
        #expect(status("http://127.0.0.1:8080/a.jpg", []) == 403)
        #expect(status("http://127.0.0.1:8080/a.jpg", ["127.0.0.1"]) == 200)
        #expect(status("http://localhost/a.jpg", ["localhost"]) == 403, "a listed name inside the network")
        #expect(status("http://localhost/a.jpg", ["localhost", "127.0.0.1", "::1"]) == 200)
        #expect(status("http://[::1]/a.jpg", ["::1"]) == 200)
        #expect(status("http://[::1]/a.jpg", ["[::1]"]) == 200)
        #expect(status("http://169.254.169.254/latest/meta-data", ["example.com"]) == 403)
        #expect(status("ftp://example.com/a.jpg", ["example.com"]) == 400)
        #expect(status("http:///a.jpg", ["example.com"]) == 400)
        #expect(status("http://no-such-host.invalid/a.jpg", ["no-such-host.invalid"]) == 502)
        // HOST:PORT entries allow that port only (the scheme's when the URL names none).
        #expect(status("http://127.0.0.1:8080/a.jpg", ["127.0.0.1:8080"]) == 200)
        #expect(status("http://127.0.0.1:8081/a.jpg", ["127.0.0.1:8080"]) == 403)
        #expect(status("http://127.0.0.1/a.jpg", ["127.0.0.1:80"]) == 200)
        #expect(status("https://127.0.0.1/a.jpg", ["127.0.0.1:80"]) == 403)
        #expect(status("http://[::1]:8080/a.jpg", ["[::1]:8080"]) == 200)
        #expect(status("http://localhost:8080/a.jpg", ["localhost:8080", "127.0.0.1:8080", "::1"]) == 200)
        #expect(status("http://localhost:8080/a.jpg", ["localhost:8080", "127.0.0.1:9090", "::1"]) == 403, "its address listed for another port")
        // Out-of-range ports and odd forms are a 400 before the list is looked at (they crashed NIO).
        for port in ["99999", "65536", "4294967297", "0", "-1", "+80", "8o", " 80", "000000080"] {
            #expect(status("http://127.0.0.1:\(port)/a.jpg", ["127.0.0.1"]) == 400, "\(port)")
            #expect(status("http://localhost:\(port)/a.jpg", ["localhost", "127.0.0.1", "::1"]) == 400, "\(port)")
        }
    }

    /// The address checked is the one the download connects to: a name's first IPv4 address.
    @Test func theCheckedAddressIsTheOneConnectedTo() throws {
        let pinned = try RemoteSources(hosts: ["localhost", "127.0.0.1", "::1"]).check("http://LocalHost:8080/a.jpg")
        #expect(pinned.host == "localhost" && pinned.address == "127.0.0.1" && pinned.url == "http://localhost:8080/a.jpg")
        #expect(try RemoteSources(hosts: ["::1"]).check("http://[::1]/a.jpg").address == "::1")
    }
}

/// Remote URLs read strictly, and downloaded as rebuilt from what was read.
@Suite struct RemoteURLTests {
    @Test func everyPartIsChecked() {
        for bad in ["ftp://a.com/x", "http:/a.com/x", "http//a.com", "http://", "http:///x", "http://user@a.com/x", "http://u:p@a.com/x",
                    "http://a.com@127.0.0.1/x", "http://a b.com/x", "http://a%2Ecom/x", "http://ä.com/x", "http://a..com/x",
                    "http://" + String(repeating: "a", count: 64) + ".com/x", "http://[::1/x", "http://[::1]x/x", "http://[fe80::1%25eth0]/x",
                    "http://[fe80::1%eth0]/x", "http://[1.2.3.4]/x", "http://[::1]:99999/x", "http://127.1/x", "http://2130706433/x",
                    "http://0x7f000001/x", "http://0177.0.0.1/x", "http://127.0.0.256/x", "http://1.2.3.4.5/x", "http://a.com:65536/x",
                    "http://a.com:4294967297/x", "http://a.com:0/x", "http://a.com:1:2/x"] {
            #expect(throws: ServiceError.self, "\(bad)") { try RemoteURL(parsing: bad) }
            #expect((try? RemoteURL(parsing: bad)) == nil)
        }
    }

    @Test func theCanonicalFormIsWhatWasChecked() throws {
        let cases: [(String, String)] = [
            ("HTTP://Example.COM:8080/a b.jpg?x=1&y=ä#frag", "http://example.com:8080/a%20b.jpg?x=1&y=%C3%A4"),
            ("https://example.com:443/a.jpg", "https://example.com/a.jpg"),
            ("http://example.com:/a.jpg", "http://example.com/a.jpg"),
            ("http://example.com", "http://example.com/"),
            ("http://example.com?q", "http://example.com/?q"),
            ("http://[::1]:65535/%41%zz<\"", "http://[::1]:65535/%41%25zz%3C%22"),
            ("http://10.0.0.1:1/x", "http://10.0.0.1:1/x"),
            ("http://my_host-1.example./x", "http://my_host-1.example./x"),
        ]
        for (url, canonical) in cases {
            #expect(try RemoteURL(parsing: url).canonical == canonical, "\(url)")
        }
        let v6 = try RemoteURL(parsing: "http://[::FFFF:127.0.0.1]:8080/a")
        #expect(v6.host == "::ffff:127.0.0.1" && v6.port == 8080 && v6.isIPv6)
    }
}
