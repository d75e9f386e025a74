import Foundation
import Testing

/// Every Swift block of README.md, CONTRIBUTING.md and the DocC articles compiles as a user would paste it: the
/// whole block (imports included) as the `main.swift` of an app, type-checked in Swift 6 mode against this build's
/// modules (`SwiftBlockCompiler`). A block that fails is reported at its document's line, with the compiler's errors.
@Suite("The documents' Swift blocks")
struct DocumentedSwiftBlocksTests {
    /// The blocks to compile (when the documents cannot be read, none: the first test fails then).
    static let blocks = (try? DocumentedSwiftBlocks.all().blocks) ?? []

    /// The web frameworks whose traits this build has on (`Integration/test.sh` and CI turn both on). Without
    /// them, FetchKitHummingbird and FetchKitVapor are empty and the frameworks are not built, as their own tests
    /// are left out then.
    static let builtFrameworks: Set<String> = {
        var frameworks: Set<String> = []
        #if Hummingbird
            frameworks.insert("Hummingbird")
        #endif
        #if Vapor
            frameworks.insert("Vapor")
        #endif
        return frameworks
    }()

    static let withoutFrameworks = blocks.filter(\.frameworks.isEmpty)
    static let withFrameworks = blocks.filter { !$0.frameworks.isEmpty }

    /// At most one compiler per core: each takes hundreds of megabytes.
    static let compilers = CompilerSlots(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Made once for every block: it runs pkg-config and looks for the build products.
    static let compiler = Task { try await SwiftBlockCompiler() }

    @Test func theDocumentsHaveBlocksAndFewAreLeftOut() throws {
        let (blocks, leftOut) = try DocumentedSwiftBlocks.all()
        #expect(blocks.count >= 30, "only \(blocks.count) Swift blocks found")
        #expect(Self.withFrameworks.count >= 3, "only \(Self.withFrameworks.count) blocks of web frameworks found")
        // A left-out block says why; there are few of them (the excerpts of the in-memory store, which
        // BackendKitTests compares with its source, and UIKit code).
        #expect(leftOut.count <= 6, "\(leftOut.count) blocks are not compiled:\n\(leftOut.joined(separator: "\n"))")
        for marker in leftOut {
            #expect(marker.hasSuffix("-->") && !marker.hasSuffix(": -->"), "\(marker) gives no reason")
        }
    }

    @Test(arguments: withoutFrameworks)
    func compiles(_ block: DocumentedSwiftBlock) async throws {
        try await Self.expectCompiles(block)
    }

    @Test(
        .enabled(
            if: builtFrameworks == ["Hummingbird", "Vapor"],
            "a web framework's blocks need the build with traits Hummingbird and Vapor (Integration/test.sh)"),
        arguments: withFrameworks)
    func compilesWithItsWebFramework(_ block: DocumentedSwiftBlock) async throws {
        try await Self.expectCompiles(block)
    }

    private static func expectCompiles(_ block: DocumentedSwiftBlock) async throws {
        let compiler = try await Self.compiler.value
        let errors = try await Self.compilers.run { try await compiler.errors(in: block) }
        #expect(errors == nil, "\(block.source): the Swift block does not compile:\n\(errors ?? "")")
    }

    /// The check can fail: a broken block is reported at the document's line of the error.
    @Test func aBrokenBlockIsReportedAtItsLine() async throws {
        let markdown = """
            Text.

            ```swift
            import FetchKit

            let request = FetchRequest(entity: "Todo")
            ```

            <!-- continues -->
            ```swift
            let count: Int = request
            ```
            """
        let (blocks, _) = try DocumentedSwiftBlocks.extract(from: markdown, source: "Broken.md")
        try #require(blocks.count == 2)
        #expect(blocks[1].lines.map(\.source) == ["Broken.md:4", "Broken.md:5", "Broken.md:6", "Broken.md:11"])
        let compiler = try await Self.compiler.value
        #expect(try await Self.compilers.run { try await compiler.errors(in: blocks[0]) } == nil)
        let errors = try await Self.compilers.run { try await compiler.errors(in: blocks[1]) }
        #expect(errors?.contains("Broken.md:11:18: error:") == true, "\(errors ?? "no errors")")
    }
}
