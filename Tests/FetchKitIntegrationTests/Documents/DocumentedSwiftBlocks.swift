import Foundation
import Testing

/// A ```` ```swift ```` block of a document, as a user would paste it into a file of their app: its own code, after
/// the code of the blocks it continues.
struct DocumentedSwiftBlock: CustomStringConvertible, CustomTestStringConvertible, Sendable {
    /// One line of code and where the document shows it.
    struct Line: Sendable {
        let text: String
        /// `README.md:120`
        let source: String
    }

    /// Where the block's fence opens: `README.md:103`.
    let source: String
    /// The lines to compile: the blocks it continues (`<!-- continues -->`), then its own.
    let lines: [Line]

    var description: String { source }

    var testDescription: String { source }

    /// The code, one line per element of `lines`.
    var code: String { lines.map(\.text).joined(separator: "\n") + "\n" }

    /// A package manifest (`// swift-tools-version:…` on its first line): compiled against PackageDescription.
    var isManifest: Bool { lines.first?.text.hasPrefix("// swift-tools-version:") ?? false }

    /// The web frameworks it imports (`Hummingbird`, `Vapor`), whose modules only a build with their traits has.
    var frameworks: Set<String> {
        var frameworks: Set<String> = []
        for line in lines where line.text.hasPrefix("import ") {
            let module = line.text.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
            for framework in ["Hummingbird", "Vapor"] where module.contains(framework) { frameworks.insert(framework) }
        }
        return frameworks
    }
}

/// Finds every Swift block of the documents `DocumentedCommands` reads (README.md, CONTRIBUTING.md, the DocC
/// articles).
///
/// The line before a block's fence may mark it with an HTML comment, which DocC and GitHub do not show:
/// - `<!-- continues -->`: the block continues the previous one of the same document; it is compiled after it
///   (and after whatever that one continues).
/// - `<!-- not compiled: reason -->`: the block is not compiled, for the reason given (an excerpt of a larger
///   file, say).
enum DocumentedSwiftBlocks {
    /// The marker of a block compiled after the previous one.
    static let continues = "<!-- continues -->"
    /// The start of the marker of a block left out, followed by its reason and `-->`.
    static let notCompiled = "<!-- not compiled:"

    /// The blocks of every document, to compile, and the markers of those left out.
    static func all() throws -> (blocks: [DocumentedSwiftBlock], leftOut: [String]) {
        var blocks: [DocumentedSwiftBlock] = []
        var leftOut: [String] = []
        for path in try DocumentedCommands.documents() {
            let text = try String(contentsOf: DocumentedCommands.root.appendingPathComponent(path), encoding: .utf8)
            let found = try extract(from: text, source: path)
            blocks += found.blocks
            leftOut += found.leftOut
        }
        return (blocks, leftOut)
    }

    /// The blocks of one Markdown text, and each left-out block's place and marker (`file:line: <!-- … -->`).
    static func extract(from text: String, source: String) throws -> (
        blocks: [DocumentedSwiftBlock], leftOut: [String]
    ) {
        let lines = text.components(separatedBy: "\n")
        var blocks: [DocumentedSwiftBlock] = []
        var leftOut: [String] = []
        var chain: [DocumentedSwiftBlock.Line] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") || fence.hasPrefix("~~~") else {
                index += 1
                continue
            }
            let place = "\(source):\(index + 1)"
            guard
                let end = lines[(index + 1)...].firstIndex(where: {
                    $0.trimmingCharacters(in: .whitespaces) == fence.prefix(3)
                })
            else { throw UnclosedFence(source: place) }
            defer { index = end + 1 }
            guard fence.dropFirst(3).trimmingCharacters(in: .whitespaces) == "swift" else { continue }
            let marker = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            if marker.hasPrefix(notCompiled) {
                leftOut.append("\(place): \(marker)")
                continue
            }
            let indent = lines[index].prefix { $0 == " " }.count
            let own = (index + 1..<end).map { line in
                DocumentedSwiftBlock.Line(text: String(lines[line].dropFirst(indent)), source: "\(source):\(line + 1)")
            }
            if marker == continues {
                guard !chain.isEmpty else { throw NothingToContinue(source: place) }
                chain += own
            } else {
                chain = own
            }
            blocks.append(DocumentedSwiftBlock(source: place, lines: chain))
        }
        return (blocks, leftOut)
    }

    /// A fence that no fence closes.
    struct UnclosedFence: Error, CustomStringConvertible {
        let source: String
        var description: String { "\(source): the code block is never closed" }
    }

    /// A `<!-- continues -->` block with no compiled block before it in its document.
    struct NothingToContinue: Error, CustomStringConvertible {
        let source: String
        var description: String {
            "\(source): marked \(DocumentedSwiftBlocks.continues), but follows no compiled block"
        }
    }
}
