import FetchKit
import FetchKitPostgres
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// No control or bidirectional character from PostgreSQL's data or identifiers reaches a terminal or a JSON
/// consumer raw: `fetchkit watch`'s table and section headers, its `--json` lines (which decode back to the
/// exact text), the CLI's error messages, and `FetchKitError` descriptions.
@Suite("Hostile text never reaches a terminal raw (PostgreSQL)", .requiresPostgreSQL)
struct PostgresHostileTextTests {
    /// A column named with an OSC sequence and a right-to-left override.
    static let column = "\u{1B}]0;col\u{07}\u{202E}"

    /// A namespace holding a table `hostile`: a text `title` per hostile string, and an integer column named
    /// ``column``; its URL for another process.
    static func database() async throws -> (namespace: String, url: String) {
        let namespace = PostgresServer.uniqueName("fkt")
        func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }
        let quoted = "\"" + column.replacing("\"", with: "\"\"") + "\""
        let rows = HostileText.strings.enumerated().map { "(\($0.offset + 1), \(literal($0.element)), \($0.offset))" }
        try await PostgresServer.administer(
            "CREATE SCHEMA \(namespace); "
                + "CREATE TABLE \(namespace).hostile (id bigint PRIMARY KEY, title text NOT NULL, \(quoted) bigint); "
                + "INSERT INTO \(namespace).hostile VALUES \(rows.joined(separator: ", "))")
        return (namespace, try PostgresServer.urlText(searchPath: namespace))
    }

    @Test("table output, section headers, --json lines and the CLI's error messages")
    func cliOutput() async throws {
        let (_, url) = try await Self.database()
        let arguments = ["watch", "--store", url, "--entity", "hostile", "--sort", "title"]
        let table = try await HostileText.firstLines(
            of: try BuildProducts.executable("fetchkit"), arguments + ["--section", "title"],
            count: 1 + HostileText.strings.count * 4)
        #expect(HostileText.unsafeScalars(in: table, allowingLineBreaks: true) == [], "\(table.debugDescription)")
        let json = try await HostileText.firstLines(
            of: try BuildProducts.executable("fetchkit"), arguments + ["--json"], count: 1)
        #expect(
            HostileText.unsafeScalars(in: json) == [], "a control reached the JSON output: \(json.debugDescription)")
        let decoded = HostileText.strings(inJSON: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        for text in HostileText.strings + [Self.column] {
            #expect(decoded.contains(text), "\(text.debugDescription) does not decode back exactly from \(json)")
        }
        let variants = HostileText.strings.flatMap { name in
            [["--entity", "hostile", "--sort", name], ["--entity", name]]
        }
        let problems = try await HostileText.failuresShowingRawText(
            of: try BuildProducts.executable("fetchkit"), ["watch", "--store", url], variants: variants)
        #expect(problems == [])
    }

    @Test("FetchKitError descriptions quote identifiers safely")
    func errorDescriptions() async throws {
        let (namespace, _) = try await Self.database()
        let url = try PostgresServer.url(searchPath: namespace)
        let entity = try await PostgresStore.describeTable("hostile", url: url)
        let schema = try Schema([entity])
        var errors: [any Error] = []
        for name in HostileText.withNUL {
            do {
                _ = try FetchPredicate(format: "%K == 1", name).validated(for: entity, in: schema)
            } catch {
                errors.append(error)
            }
            do {
                // The table has no such column: a schema mismatch naming it.
                let missing = Entity("hostile", attributes: [Attribute(name, .text, optional: true)])
                let store = try await PostgresStore.open(
                    url: url, schema: try Schema([missing]), options: .init(readerCount: 1, schemaPolicy: .validateOnly)
                )
                await store.close()
            } catch {
                errors.append(error)
            }
        }
        do {
            _ = try FetchPredicate(format: "%K == 'x'", Self.column).validated(for: entity, in: schema)
        } catch {
            errors.append(error)
        }
        #expect(errors.count == HostileText.withNUL.count * 2 + 1, "some hostile request did not fail")
        for error in errors {
            let description = "\(error)"
            #expect(HostileText.unsafeScalars(in: description) == [], "\(description.debugDescription)")
        }
    }
}
