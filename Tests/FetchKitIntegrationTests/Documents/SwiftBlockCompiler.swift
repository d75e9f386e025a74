import FetchKitTestSupport
import Foundation

/// Type-checks a documented Swift block with `swiftc` against this build's modules, as the `main.swift` of a small
/// app that depends on FetchKit's products: Swift 6 language mode, the `@Entity` macros' plugin, the C modules' maps
/// (CSQLite, CLibPQ, and the web frameworks' dependencies). A package manifest block is type-checked against the
/// toolchain's PackageDescription instead.
///
/// Everything it needs is required: without `swiftc`, the build products or the macros' plugin it throws, so a
/// check that cannot run fails.
struct SwiftBlockCompiler: Sendable {
    /// The compiler and the arguments every block is type-checked with.
    let swiftc: URL
    let arguments: [String]
    /// The arguments of a package manifest.
    let manifestArguments: [String]

    /// Finds `swiftc` on `PATH` and this build's products (the folder of the `fetchkit` executable).
    init() async throws {
        swiftc = try Self.findOnPath("swiftc")
        let products = try BuildProducts.executable("fetchkit").deletingLastPathComponent()
        let plugin = products.appendingPathComponent("FetchKitMacrosPlugin-tool")
        guard FileManager.default.isExecutableFile(atPath: plugin.path) else { throw Missing(what: plugin.path) }
        let modules = products.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("FetchKit.swiftmodule").path)
        else { throw Missing(what: "FetchKit.swiftmodule in \(modules.path)") }
        var arguments = [
            "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm", "-I", modules.path,
            "-load-plugin-executable", "\(plugin.path)#FetchKitMacrosPlugin"
        ]
        for map in Self.moduleMaps(products: products) { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        // The system libraries' headers where SwiftPM found them (libpq's are in a folder of their own on Debian).
        for library in ["sqlite3", "libpq"] {
            let (status, output) = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--cflags-only-I", library])
            if status == 0 {
                arguments += output.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
            }
        }
        self.arguments = arguments
        let manifestAPI = swiftc.resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../lib/swift/pm/ManifestAPI").standardized
        manifestArguments = [
            "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm", "-I", manifestAPI.path,
            "-package-description-version", "6.1"
        ]
    }

    /// Type-checks `block`: `nil` when it compiles, else the compiler's errors, each at the document's line.
    func errors(in block: DocumentedSwiftBlock) async throws -> String? {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path(block.isManifest ? "Package.swift" : "main.swift")
        try block.code.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, output) = try await ChildProcess.run(
            swiftc, (block.isManifest ? manifestArguments : arguments) + [file], within: .seconds(300))
        guard status != 0 else { return nil }
        return Self.placed(output, file: file, block: block)
    }

    /// The compiler's output with `main.swift:12:5:` turned into the document's `README.md:120:5:`.
    static func placed(_ output: String, file: String, block: DocumentedSwiftBlock) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix(file + ":") else { return String(line) }
            let rest = line.dropFirst(file.count + 1)
            guard let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]),
                block.lines.indices.contains(number - 1)
            else { return String(line) }
            return block.lines[number - 1].source + rest[colon...]
        }.joined(separator: "\n")
    }

    /// The module maps of the C modules the products' modules import: the system libraries' (Backends/C*), the
    /// ones SwiftPM wrote into the build (`*.build/module.modulemap`) and the dependencies' own (`include/`).
    static func moduleMaps(products: URL) -> [String] {
        let files = FileManager.default
        var maps: [String] = []
        let root = DocumentedCommands.root
        for folder in (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Backends").path)) ?? [] {
            maps.append(root.appendingPathComponent("Backends/\(folder)/module.modulemap").path)
        }
        for folder in (try? files.contentsOfDirectory(atPath: products.path)) ?? [] where folder.hasSuffix(".build") {
            maps.append(products.appendingPathComponent("\(folder)/module.modulemap").path)
        }
        // products is <scratch>/<triple>/debug; the checkouts are <scratch>/checkouts.
        let checkouts = products.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("checkouts")
        for package in (try? files.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sources = checkouts.appendingPathComponent("\(package)/Sources")
            for target in (try? files.contentsOfDirectory(atPath: sources.path)) ?? [] {
                maps.append(sources.appendingPathComponent("\(target)/include/module.modulemap").path)
            }
        }
        return maps.filter { files.fileExists(atPath: $0) }.sorted()
    }

    /// The executable `name` in a folder of `PATH`.
    static func findOnPath(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(what: "\(name) on PATH (\(path))")
    }

    /// Something the check needs is not there.
    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "cannot type-check the documents' Swift blocks: no \(what)" }
    }
}
