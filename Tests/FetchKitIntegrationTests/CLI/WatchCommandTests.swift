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
            path: file, schema: Fixtures.schema, options: .testing())
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

    /// The index of the first line from `start` that satisfies `matches`.
    static func line(
        of watch: ChildProcess, from start: Int, where matches: (String) -> Bool
    ) async throws -> Int {
        var index = start
        while !matches(try await watch.line(index)) { index += 1 }
        return index
    }

    /// As a table: which change feed it reads (on standard error) first, the results, then for each batch what it
    /// changed and only the rows it inserted or changed — or the whole table again with `--full`.
    @Test(arguments: [false, true])
    func printsOnlyWhatABatchChangedUnlessFull(full: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("watched.sqlite")
        let store = try await SQLiteStore.open(path: file, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let watch = try ChildProcess(
            try FetchKitBinary.url,
            ["watch", "--store", "sqlite://\(file)", "--entity", "todo", "--sort", "title"] + (full ? ["--full"] : []))
        let feed = try await watch.line(0)
        #expect(feed.hasPrefix("change feed: SQLite's update and commit hooks"), "\(feed)")
        _ = try await Self.line(of: watch, from: 1) { $0.contains("Write report") }
        for title in ["Aaa first", "Bbb second"] {
            try await store.write { tx in _ = try tx.insert(Fixtures.TodoRecord(title: title, categoryID: 1)) }
            _ = try await Self.line(of: watch, from: 1) { $0.contains(title) && !$0.contains("batch") }
        }
        let lines = watch.output.split(separator: "\n").map(String.init)
        let batches = lines.indices.filter { lines[$0].contains("── batch") }
        try #require(batches.count == 2, "\(lines)")
        let first = lines[batches[0]..<batches[1]].joined(separator: "\n")
        #expect(first.contains("+ row") && first.contains("Aaa first"), "\(first)")
        #expect(first.contains("Write report") == full, "the first batch's output:\n\(first)")
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
            path: file, schema: Fixtures.schema, options: .testing())
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
        // JSON stays exact — decoding it gives the values back — but no control is raw on the wire.
        let json = try await run(["--json"])
        #expect(
            HostileText.unsafeScalars(in: json) == [], "a control reached the JSON output: \(json.debugDescription)")
        let decoded = HostileText.strings(inJSON: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        #expect((decoded.first { $0 == "results" }) != nil, "\(json)")
        for title in hostile {
            #expect(decoded.contains(title), "\(title.debugDescription) not exact")
        }
        await store.close()
    }

    @Test(
        "a store URL's password never reaches the CLI's output, whatever it holds and however the URL is mistyped",
        arguments: [
            "postgresql://app:pa#ss-W0rd-1@127.0.0.1:1/db", "postgresql://app:pa/ss-W0rd-2@127.0.0.1:1/db",
            "postgresql://app:pa?ss-W0rd-3@127.0.0.1:1/db", "postgres//app:pass-W0rd-4@127.0.0.1:1/db",
            "postgresql://app:pa@ss-W0rd-5@127.0.0.1:1/db?connect_timeout=2",
            "postgres:/app:pass-W0rd-6@127.0.0.1:1/db",
            "postgresql://app@127.0.0.1:1/db?connect_timeout=2&sslpassword=W0rd-7",
            "postgresql://app@127.0.0.1:1/db?connect_timeout=2&PASSWORD=W0rd-8",
            "postgresql://app@127.0.0.1:1/db?connect_timeout=2&Password=W0rd-9a&password=W0rd-9b",
            "postgresql://app:W0rd-10a@127.0.0.1:1/db?connect_timeout=2&SSLPASSWORD=W0rd-10b&sslpassword=W0rd-10c",
            "host=127.0.0.1 port=1 password = W0rd-11", "host=127.0.0.1 port=1 password='W0rd 12'",
            #"host=127.0.0.1 port=1 sslpassword = 'it\'s W0rd-13'"#, "postgresql://app:W0rd14/db",
            "postgresql://app:90210W0rd15/db", "sqlite://user:W0rd-16@var/app.sqlite", "sqlite:user:W0rd-17@app.sqlite",
            "postgresql://127.0.0.1:1/?connect_timeout=2&dbname=host%3Dx%20password%3DW0rd-18"
        ])
    func passwordsStayOutOfTheOutput(_ url: String) async throws {
        // Every secret holds "W0rd"; nothing else in the URLs does.
        let (status, text) = try await FetchKitBinary.run(["watch", "--store", url, "--entity", "todo"])
        #expect(status != 0, "\(text)")
        #expect(!text.contains("W0rd"), "the password reached the output: \(text)")
        #expect(!text.isEmpty, "no message at all")
    }
}
