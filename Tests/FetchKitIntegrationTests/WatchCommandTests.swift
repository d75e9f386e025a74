import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// `fetchkit watch` on an existing SQLite file: the results first, then a batch when another process
/// writes, one JSON object per line; Ctrl-C (SIGINT) ends it cleanly.
@Suite("fetchkit watch")
struct WatchCommandTests {
    @Test func watchesAnExistingSQLiteTable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("watched.sqlite")
        let store = try await SQLiteStore.open(
            path: file, schema: Fixtures.schema, options: SQLiteStore.Options(readerCount: 2, busyTimeout: .seconds(2)))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }

        let watch = try ChildProcess(
            try FetchKitBinary.url,
            [
                "watch", "--store", "sqlite://\(file)", "--entity", "todo", "--where", "done == 0", "--sort",
                "title", "--json"
            ], mergingStandardError: false)

        let first = try await watch.line(0)
        #expect(first.hasPrefix(#"{"type":"results""#), "\(first)")
        #expect(first.contains("Write report") && !first.contains("review PR"), "\(first)")
        try await store.write { tx in
            _ = try tx.insert(Fixtures.TodoRecord(title: "Aaa from another process", categoryID: 1))
        }
        let second = try await watch.line(1)
        #expect(second.hasPrefix(#"{"type":"batch""#) && second.contains("Aaa from another process"), "\(second)")
        #expect(second.contains(#""countsBefore":[6]"#) && second.contains(#""countsAfter":[7]"#), "\(second)")

        watch.interrupt()
        #expect(try await watch.exit() == 0)
        await store.close()
    }

    @Test("table output and section headers escape terminal controls and bidirectional overrides; --json stays exact")
    func hostileTextIsEscapedForTheTerminal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("hostile.sqlite")
        let store = try await SQLiteStore.open(
            path: file, schema: Fixtures.schema, options: SQLiteStore.Options(readerCount: 2, busyTimeout: .seconds(2)))
        let hostile = [
            "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\u{1B}]52;c;SGVsbG8=\u{07}", "abc\u{202E}fed", "\u{9B}31mred",
            "tab\there\nnewline"
        ]
        try await store.write { tx in
            for title in hostile { try tx.insert(Fixtures.TodoRecord(title: title)) }
        }
        let binary = try FetchKitBinary.url
        func run(_ extra: [String]) async throws -> String {
            let arguments =
                ["watch", "--store", "sqlite://\(file)", "--entity", "todo", "--sort", "title", "--section", "title"]
                + extra
            let watch = try ChildProcess(binary, arguments, mergingStandardError: false)
            var output: [String] = []
            // The results: a header line, then per section a heading and a table.
            for index in 0..<(extra.isEmpty ? 1 + hostile.count * 4 : 1) { output.append(try await watch.line(index)) }
            watch.interrupt()
            _ = try await watch.exit()
            return output.joined(separator: "\n")
        }
        let table = try await run([])
        for scalar in table.unicodeScalars where scalar != "\n" {
            #expect(
                scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && scalar.value != 0x202E,
                "a control reached the terminal: U+\(String(scalar.value, radix: 16))")
        }
        #expect(table.contains(#"\u{1B}]0;pwned\u{7}"#) && table.contains(#"abc\u{202E}fed"#), "\(table)")
        // JSON stays exact: decoding it gives the values back.
        let json = try await run(["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "results")
        for title in hostile {
            #expect(json.contains(title) || jsonEscaped(title, in: json), "\(title.debugDescription) not exact")
        }
        await store.close()
    }

    @Test(
        "a store URL's password never reaches the CLI's output, whatever it holds and however the URL is mistyped",
        arguments: [
            "postgresql://app:pa#ss-W0rd-1@127.0.0.1:1/db", "postgresql://app:pa/ss-W0rd-2@127.0.0.1:1/db",
            "postgresql://app:pa?ss-W0rd-3@127.0.0.1:1/db", "postgres//app:pass-W0rd-4@127.0.0.1:1/db",
            "postgresql://app:pa@ss-W0rd-5@127.0.0.1:1/db?connect_timeout=2", "postgres:/app:pass-W0rd-6@127.0.0.1:1/db"
        ])
    func passwordsStayOutOfTheOutput(_ url: String) async throws {
        // Every password holds "W0rd"; nothing else in the URLs does.
        let (status, text) = try await FetchKitBinary.run(["watch", "--store", url, "--entity", "todo"])
        #expect(status != 0, "\(text)")
        #expect(!text.contains("W0rd"), "the password reached the output: \(text)")
        #expect(!text.isEmpty, "no message at all")
    }

    /// Whether `json` holds `text` as JSON writes it (controls escaped).
    private func jsonEscaped(_ text: String, in json: String) -> Bool {
        guard let data = try? JSONEncoder().encode(text) else { return false }
        let encoded = String(decoding: data, as: UTF8.self).dropFirst().dropLast()
        return json.contains(encoded)
    }
}
