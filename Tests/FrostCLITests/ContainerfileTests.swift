import Foundation
import FrostFiles
import FrostTestSupport
import Testing

/// deploy/Containerfile's runtime stage installs every Debian package that owns a library the
/// built `frost` loads (`ldd`, then `dpkg -S`), and the build stage links the Swift runtime in.
/// (The image itself cannot be built here: no container engine runs on these machines.)
@Suite struct ContainerfileTests {
    static let containerfile = Corpus.repository + "/deploy/Containerfile"

    /// The packages after `apt-get install` in the last stage (from its FROM on).
    static func runtimePackages(_ text: String) -> Set<String> {
        let lastStage = text.components(separatedBy: "\nFROM ").last!
        let joined = lastStage.replacingOccurrences(of: "\\\n", with: " ")
        var packages = Set<String>()
        for line in joined.split(separator: "\n") where line.contains("apt-get install") {
            let words = line.components(separatedBy: "apt-get install").last!.split(separator: " ")
            for word in words {
                if word == "&&" { break }
                if !word.hasPrefix("-") { packages.insert(String(word)) }
            }
        }
        return packages
    }

    static func output(_ program: String, _ arguments: [String]) throws -> String {
        try FrostRun.run(arguments, executable: program).stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg"), "not a Debian system: dpkg is needed to map libraries to packages"))
    func runtimeStageHasEveryLibraryFrostLoads() throws {
        let text = try String(contentsOfFile: Self.containerfile, encoding: .utf8)
        let installed = Self.runtimePackages(text)
        #expect(installed.contains("libwebp7") && installed.contains("fonts-dejavu-core"), "\(installed)")
        let ldd = try Self.output("/usr/bin/ldd", [FrostRun.binary])
        let libraries = ldd.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ")
            guard let arrow = parts.firstIndex(of: "=>"), arrow + 1 < parts.count, parts[arrow + 1].hasPrefix("/") else { return nil }
            return String(parts[arrow + 1])
        }
        #expect(libraries.count > 8, "ldd found too little: \(ldd)")
        var swiftRuntime = false
        for library in libraries {
            let real = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
            let owner = try FrostRun.run(["-S", real], executable: "/usr/bin/dpkg")
            let fallback = owner.status == 0 ? owner : try FrostRun.run(["-S", library], executable: "/usr/bin/dpkg")
            guard fallback.status == 0, let package = fallback.stdout.split(separator: ":").first else {
                // Not from a Debian package: the Swift toolchain's runtime, which the build links in.
                #expect(library.contains("/swift/"), "\(library) belongs to no package and is not Swift's")
                swiftRuntime = true
                continue
            }
            #expect(installed.contains(String(package)), "\(library) comes from \(package), which the runtime stage does not install")
        }
        if swiftRuntime { #expect(text.contains("--static-swift-stdlib"), "the Swift runtime must be linked in") }
    }

    /// The Job runs as the image's user with volumes it can write (fsGroup, without a recursive
    /// chown at every start; a read-only root and an emptyDir at /tmp for its downloads and
    /// staged caches), and its failure policy does not retry a shard that finished with failed
    /// inputs (exit 3, `frost cache --batch`'s), while it writes its report into the bucket.
    @Test func theJobCanWriteItsVolumeAndDoesNotRetryFailedInputs() throws {
        let job = try String(contentsOfFile: Corpus.repository + "/deploy/frost-cache-indexed-job.yaml", encoding: .utf8)
        let image = try String(contentsOfFile: Self.containerfile, encoding: .utf8)
        #expect(image.contains("\nUSER 65534:65534\n"))
        for line in ["runAsUser: 65534", "runAsGroup: 65534", "fsGroup: 65534", "fsGroupChangePolicy: OnRootMismatch", "runAsNonRoot: true"] {
            #expect(job.contains("\n        " + line + "\n"), "the pod's securityContext lacks \(line)")
        }
        #expect(job.contains("podFailurePolicy:") && job.contains("- action: FailIndex\n        onExitCodes: { containerName: frost, operator: In, values: [3] }"))
        #expect(job.contains("backoffLimitPerIndex:") && job.contains("restartPolicy: Never"))
        #expect(job.contains("--report \"s3://frost-assets/caches/reports/shard-${JOB_COMPLETION_INDEX}-of-8.jsonl\"") && job.contains("--shard \"${JOB_COMPLETION_INDEX}/8\""))
        #expect(job.contains("readOnlyRootFilesystem: true") && job.contains("- { name: tmp, mountPath: /tmp }") && job.contains("emptyDir: { sizeLimit: "))
        let help = try FrostRun.run(["cache", "--help"])
        #expect(help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("3 when it finished but some inputs failed"))
    }
}
