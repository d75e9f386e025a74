import FetchKitTestSupport
import Foundation
import Testing

/// The backend kit is enough to write a backend: the in-memory store and the SQLite store type-check outside
/// FetchKit's package, where `package` declarations are invisible and only the public API remains, and the
/// "Writing a backend" article shows the in-memory store's own code.
@Suite("Backend kit")
struct BackendKitTests {
    static let root = BuildProducts.packageRoot()

    /// The sources of `folder` (recursively), relative to the root.
    static func sources(_ folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        let files =
            FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map(\.path) ?? []
        return files.sorted()
    }

    /// Type-checks `files` as a module of another package: no `-package-name`, so `package` declarations of
    /// FetchKit's modules are out of reach, as they are for a third party.
    static func typeCheckOutsideThePackage(_ files: [String], extraArguments: [String] = []) async throws -> String {
        let products = try BuildProducts.executable("fetchkit").deletingLastPathComponent()
        let systemModuleMap = root.appendingPathComponent(".build/checkouts/swift-system/Sources/CSystem/include")
            .appendingPathComponent("module.modulemap").path
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-module-name", "ThirdPartyBackend", "-package-name",
            "thirdparty",
            "-I", products.appendingPathComponent("Modules").path
        ]
        if FileManager.default.fileExists(atPath: systemModuleMap) {
            arguments += ["-Xcc", "-fmodule-map-file=\(systemModuleMap)"]
        }
        let (status, output) = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments + extraArguments + files, within: .seconds(300))
        #expect(status == 0, "swiftc -typecheck failed:\n\(output)")
        return output
    }

    @Test("the in-memory store needs nothing but the kit's public API and the predicate tree's SPI")
    func inMemoryStoreUsesThePublicKit() async throws {
        let files = try Self.sources("Sources/FetchKitInMemory")
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            // The predicate's syntax tree is the one SPI a third-party backend may opt into.
            let otherSPI = text.replacingOccurrences(of: "@_spi(Backend) import FetchKit", with: "")
            #expect(!otherSPI.contains("@_spi"), "\(file) imports an SPI other than the predicate tree's")
            #expect(!text.contains("@testable"), "\(file) imports a module as testable")
        }
        _ = try await Self.typeCheckOutsideThePackage(files)
    }

    @Test("the SQLite store needs nothing but the kit's public API")
    func sqliteStoreUsesThePublicKit() async throws {
        let files = try Self.sources("Backends/SQLite")
        #expect(files.count > 10)
        let moduleMap = Self.root.appendingPathComponent("Backends/CSQLite/module.modulemap").path
        _ = try await Self.typeCheckOutsideThePackage(files, extraArguments: ["-Xcc", "-fmodule-map-file=\(moduleMap)"])
    }

    @Test("every excerpt of the in-memory store in \"Writing a backend\" is its code, as it is")
    func articleExcerptsAreTheStoresCode() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Sources/FetchKitBackendKit/FetchKitBackendKit.docc/WritingABackend.md"),
            encoding: .utf8)
        // An excerpt is a Swift block right after a line that ends "(from `Sources/FetchKitInMemory/….swift`):".
        var excerpts = 0
        var lastLine: Substring = ""
        var block: (source: String?, lines: [Substring])?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if let open = block {
                if line.hasPrefix("```") {
                    if let source = open.source {
                        let code = try String(contentsOf: Self.root.appendingPathComponent(source), encoding: .utf8)
                        #expect(code.contains(open.lines.joined(separator: "\n")), "an excerpt is not in \(source)")
                        excerpts += 1
                    }
                    block = nil
                } else {
                    block = (open.source, open.lines + [line])
                }
            } else if line.hasPrefix("```swift") {
                let marker = lastLine.range(of: "(from `Sources/FetchKitInMemory/")
                let source = marker.flatMap { marker in
                    lastLine[marker.upperBound...].split(separator: "`").first.map { "Sources/FetchKitInMemory/\($0)" }
                }
                block = (source, [])
            } else if !line.isEmpty && !line.hasPrefix("<!--") {
                // (A marker comment before the fence, `<!-- not compiled: … -->`, is not the line that names it.)
                lastLine = line
            }
        }
        #expect(excerpts >= 4, "the article shows \(excerpts) excerpts of the in-memory store")
    }
}
