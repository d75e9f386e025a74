import FetchKitTestSupport
import Foundation
import Testing

/// A `fetchkit …` command line as a document shows it.
struct DocumentedCommand: CustomStringConvertible, CustomTestStringConvertible, Sendable {
    /// Where it is shown: `README.md:115`, `CONTRIBUTING.md:40`, or the `--help` text of a subcommand.
    let source: String
    /// The line as written.
    let line: String
    /// The words after `fetchkit`.
    let arguments: [String]
    /// The output the document shows after it (a `$ ` prompt followed by lines), if any.
    let expectedOutput: [String]
    /// A synopsis (`fetchkit demo <name>`): only the words before its placeholder are a command.
    let isSynopsis: Bool

    var description: String { "\(source): \(line)" }

    var testDescription: String { description }

    /// The subcommand, if the line names one.
    var subcommand: String? { arguments.first }
}

/// Finds every `fetchkit …` command line in the repository's documents: the lines of fenced code blocks,
/// after an optional `$ ` prompt, and inline code spans outside them. A span's alternatives
/// (`fetchkit demo [todos|multi]`) give one command each.
enum DocumentedCommands {
    /// The values of the variables the documents use: they only need to parse; a test that runs the
    /// command puts its own store in.
    static let variables = ["DATABASE_URL": "postgres://app@127.0.0.1:1/app"]

    /// The repository's root: the package this file belongs to.
    static let root = BuildProducts.packageRoot()

    /// The documents, relative to the root: README.md, CONTRIBUTING.md and every DocC article. (BENCHMARKS.md and
    /// docs/ are records of past runs: the command lines they quote are kept as they were run.)
    static func documents() throws -> [String] {
        var paths = ["README.md", "CONTRIBUTING.md"]
        let catalogs =
            ["Sources/FetchKit", "Sources/FetchKitBackendKit", "Sources/FetchKitSession"]
            + (try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("Backends").path
            ).map { "Backends/\($0)" })
        for folder in catalogs {
            let url = root.appendingPathComponent(folder)
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            where entry.hasSuffix(".docc") {
                let articles = FileManager.default.enumerator(atPath: url.appendingPathComponent(entry).path)
                while let article = articles?.nextObject() as? String {
                    if article.hasSuffix(".md") { paths.append("\(folder)/\(entry)/\(article)") }
                }
            }
        }
        return paths.sorted()
    }

    /// Every command line of every document.
    static func all() throws -> [DocumentedCommand] {
        try documents().flatMap { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return try extract(from: text, source: path)
        }
    }

    /// The command lines of one Markdown text.
    static func extract(from text: String, source: String) throws -> [DocumentedCommand] {
        let lines = text.components(separatedBy: "\n")
        var commands: [DocumentedCommand] = []
        var fenced = false
        for (index, raw) in lines.enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fenced.toggle()
                continue
            }
            let place = "\(source):\(index + 1)"
            if fenced {
                let prompted = trimmed.hasPrefix("$ ")
                let line = prompted ? String(trimmed.dropFirst(2)) : trimmed
                guard let command = try command(line, source: place) else { continue }
                let output =
                    prompted
                    ? Array(
                        lines[(index + 1)...].prefix { line in
                            let next = line.trimmingCharacters(in: .whitespaces)
                            return !next.hasPrefix("$ ") && !next.hasPrefix("```") && !next.isEmpty
                        }) : []
                commands.append(command.with(expectedOutput: output))
            } else {
                for span in inlineCode(trimmed) {
                    for alternative in alternatives(span) {
                        if let command = try command(alternative, source: place) { commands.append(command) }
                    }
                }
            }
        }
        return commands
    }

    /// A command if `line` runs `fetchkit` (or `swift run fetchkit`).
    static func command(_ line: String, source: String) throws -> DocumentedCommand? {
        guard line.hasPrefix("fetchkit ") || line.hasPrefix("swift run fetchkit ") else { return nil }
        let synopsis = line.range(of: " <")
        let commandLine = synopsis.map { String(line[..<$0.lowerBound]) } ?? line
        var words = try ShellWords.split(commandLine, variables: variables)
        if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
        guard words.first == "fetchkit" else { return nil }
        return DocumentedCommand(
            source: source, line: line, arguments: Array(words.dropFirst()), expectedOutput: [],
            isSynopsis: synopsis != nil)
    }

    /// The contents of the inline code spans of a line.
    static func inlineCode(_ line: String) -> [String] {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }

    /// One line per alternative of a `[a|b|c]` group, or the line itself.
    static func alternatives(_ line: String) -> [String] {
        guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]"),
            line[open..<close].contains("|")
        else { return [line] }
        return line[line.index(after: open)..<close].split(separator: "|").map {
            String(line[..<open]) + $0 + String(line[line.index(after: close)...])
        }
    }
}

extension DocumentedCommand {
    func with(expectedOutput: [String]) -> DocumentedCommand {
        DocumentedCommand(
            source: source, line: line, arguments: arguments, expectedOutput: expectedOutput,
            isSynopsis: isSynopsis)
    }
}
