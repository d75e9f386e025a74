import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// No control or bidirectional character from the data or from an identifier reaches a terminal or a JSON
/// consumer raw, on any output path: `fetchkit watch`'s table and section headers, its `--json` lines (which
/// decode back to the exact text), the CLI's error messages, and `FetchKitError` descriptions.
@Suite("Hostile text never reaches a terminal raw (SQLite)")
struct HostileTextOutputTests {
    /// A column named with an OSC sequence and a right-to-left override.
    static let column = "\u{1B}]0;col\u{07}\u{202E}"

    /// A database with a table `hostile`: a text `title` per hostile string, and an integer column named
    /// ``column``.
    static func database(in directory: TemporaryDirectory) async throws -> String {
        let file = directory.path("hostile.sqlite")
        let store = try await SQLiteStore.open(path: file, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in
            let quoted = "\"" + Self.column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            try tx.execute("CREATE TABLE hostile (id INTEGER PRIMARY KEY, title TEXT NOT NULL, \(quoted) INTEGER)", [])
            for (index, title) in HostileText.strings.enumerated() {
                try tx.execute(
                    "INSERT INTO hostile (title, \(quoted)) VALUES (?, ?)", [.text(title), .integer(Int64(index))])
            }
        }
        await store.close()
        return file
    }

    @Test("table output, section headers and --json lines")
    func watchOutput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await Self.database(in: directory)
        let arguments = ["watch", "--store", "sqlite://\(file)", "--entity", "hostile", "--sort", "title"]
        // The results: a header line, then per section a heading and a table of one row.
        let table = try await HostileText.firstLines(
            of: try FetchKitBinary.url, arguments + ["--section", "title"], count: 1 + HostileText.strings.count * 4)
        #expect(HostileText.unsafeScalars(in: table, allowingLineBreaks: true) == [], "\(table.debugDescription)")
        #expect(table.contains(#"\u{1B}]0;pwned\u{7}"#) && table.contains(#"\u{1B}]0;col\u{7}\u{202E}"#), "\(table)")
        let json = try await HostileText.firstLines(of: try FetchKitBinary.url, arguments + ["--json"], count: 1)
        #expect(
            HostileText.unsafeScalars(in: json) == [], "a control reached the JSON output: \(json.debugDescription)")
        let decoded = HostileText.strings(inJSON: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        for text in HostileText.strings + [Self.column] {
            #expect(decoded.contains(text), "\(text.debugDescription) does not decode back exactly from \(json)")
        }
    }

    @Test("the CLI's error messages")
    func cliErrors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await Self.database(in: directory)
        let variants = HostileText.strings.flatMap { name in
            [["--entity", "hostile", "--sort", name], ["--entity", name], ["--entity", "hostile", "--section", name]]
        }
        let problems = try await HostileText.failuresShowingRawText(
            of: try FetchKitBinary.url, ["watch", "--store", "sqlite://\(file)"], variants: variants)
        #expect(problems == [])
    }

    @Test("FetchKitError descriptions quote identifiers safely")
    func errorDescriptions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await Self.database(in: directory)
        let entity = try await SQLiteStore.describeTable("hostile", path: file)
        let schema = try Schema([entity])
        let store = try await SQLiteStore.open(path: file, schema: schema, options: .testing())
        var errors: [any Error] = []
        func record(_ body: () async throws -> Void) async {
            do { try await body() } catch { errors.append(error) }
        }
        for name in HostileText.withNUL {
            await record { _ = try FetchPredicate(format: "%K == 1", name).validated(for: entity, in: schema) }
            await record {
                _ = try await store.fetch(FetchRequest(entity: "hostile", sortDescriptors: [.ascending(name)]))
            }
            await record { _ = try await store.fetch(FetchRequest(entity: name)) }
            await record {
                // The table has no such column: a schema mismatch naming it.
                let missing = Entity("hostile", attributes: [Attribute(name, .text, optional: true)])
                _ = try await SQLiteStore.open(path: file, schema: try Schema([missing]), options: .testing())
            }
        }
        // A text compared with the integer column named with escapes.
        await record { _ = try FetchPredicate(format: "%K == 'x'", Self.column).validated(for: entity, in: schema) }
        await store.close()
        #expect(errors.count == HostileText.withNUL.count * 4 + 1, "some hostile request did not fail")
        for error in errors {
            let description = "\(error)"
            #expect(HostileText.unsafeScalars(in: description) == [], "\(description.debugDescription)")
        }
    }
}
