import FetchKit
import FetchKitFixtures
import Foundation

/// The value checks: every attribute type, at its extremes, comes back exactly as written, through records and
/// rows; values a column cannot hold are rejected before anything is written; records that do not fit their
/// table fail with an error naming the property.
extension StoreConformance {
    /// The value checks.
    static var valueChecks: [Check] {
        [
            Check(
                name: "records: extremes of every type come back bit for bit",
                body: { try await $0.checkExtremeRecords(on: $1) }),
            Check(
                name: "rows: each attribute reads back in its canonical case",
                body: { try await $0.checkCanonicalRows(on: $1) }),
            Check(
                name: "NaN and NUL in text are rejected and nothing is written",
                body: { try await $0.checkInvalidValues(on: $1) }),
            Check(
                name: "NUL in text is invalidValue on every path, naming the attribute; the write rolls back whole",
                body: { try await $0.checkNulText(on: $1) }),
            Check(
                name: "text primary keys: unicode and quotes survive",
                body: { try await $0.checkUnicodeTextKeys(on: $1) }),
            Check(
                name: "every Swift type, required and optional, nil and at its extremes, round-trips",
                schema: allTypesSchema, body: { try await $0.checkEveryType(on: $1) }),
            Check(
                name: "a record that does not fit its row names the property", schema: allTypesSchema,
                body: { try await $0.checkRecordMismatches(on: $1) })
        ]
    }

    /// Todos at the extremes of every attribute type.
    static let extremeTodos: [Fixtures.TodoRecord] = [
        .init(
            title: "min", notes: "", priority: Int.min, ordering: -0.0, done: false,
            due: Date(microsecondsSince1970: -62_135_596_800_000_000), attachment: Data()),
        .init(
            title: "max", notes: "日本語 🎉 e\u{301} Zürich \"quoted\" 'single'", priority: Int.max,
            ordering: .infinity, done: true, due: Date(microsecondsSince1970: 1_700_000_000_123_456),
            attachment: Data([0, 0, 255])),
        .init(
            title: "x'); DROP TABLE todo; --", notes: nil, priority: 0, ordering: -.infinity, done: false,
            due: Date(microsecondsSince1970: 1), attachment: Data(repeating: 7, count: 100_000)),
        .init(title: "tiny", priority: 1, ordering: .leastNonzeroMagnitude, due: Date(microsecondsSince1970: -1)),
        .init(title: "", priority: -1, ordering: 0.0)
    ]

    private func todos(after key: Int64, _ store: any PersistentStore) async throws -> [Fixtures.TodoRecord] {
        try await store.fetch(
            FetchRequest(
                Fixtures.TodoRecord.self, predicate: try FetchPredicate(format: "id > %d", key),
                sortDescriptors: [.ascending("id")]),
            as: Fixtures.TodoRecord.self)
    }

    func checkExtremeRecords(on store: any PersistentStore) async throws {
        let inserted = try await store.write { tx in try Self.extremeTodos.map { try tx.insert($0) } }
        try ConformanceFailure.require(inserted.map(\.id) == [11, 12, 13, 14, 15], "keys \(inserted.map(\.id))")
        let fetched = try await todos(after: 10, store)
        try ConformanceFailure.require(
            fetched == inserted, "fetched \(fetched.map(\.title)) differ from those inserted")
        let zero = fetched.first?.ordering
        try ConformanceFailure.require(
            zero == 0 && zero?.sign == .minus, "-0.0 came back as \(String(describing: zero))")
        try ConformanceFailure.require(fetched.first?.attachment == Data(), "an empty blob is not NULL")
        try ConformanceFailure.require(fetched.last?.ordering?.sign == .plus, "+0.0 kept its sign")
    }

    func checkCanonicalRows(on store: any PersistentStore) async throws {
        let due = Date(microsecondsSince1970: 1_767_225_600_654_321)
        let row: Row = [
            "title": "row", "notes": .null, "priority": .integer(Int64.min), "ordering": .double(-0.0),
            "done": true, "due": .date(due), "attachment": .blob(Data())
        ]
        let key = try await store.write { tx in try tx.insert(row, into: "Todo") }
        try ConformanceFailure.require(key == .integer(11), "the row's key \(key)")
        let rows = try await store.fetch(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id == 11")))
        guard let fetched = rows.first else { throw ConformanceFailure("the inserted row was not found") }
        let expected: [String: Value] = [
            "id": .integer(11), "title": .text("row"), "notes": .null, "priority": .integer(Int64.min),
            "ordering": .double(-0.0), "done": .bool(true), "due": .date(due), "attachment": .blob(Data()),
            "categoryID": .null
        ]
        for (name, value) in expected {
            try ConformanceFailure.require(
                fetched[name] == value, "\(name) came back as \(String(describing: fetched[name])), not \(value)")
        }
        if case .double(let zero) = fetched["ordering"] {
            try ConformanceFailure.require(zero.sign == .minus, "-0.0 lost its sign in a row")
        }
    }

    func checkInvalidValues(on store: any PersistentStore) async throws {
        for (what, todo) in [
            ("NaN", Fixtures.TodoRecord(title: "nan", ordering: .nan)),
            ("NUL", Fixtures.TodoRecord(title: "nul\u{0}byte"))
        ] {
            do {
                try await store.write { tx in
                    try tx.insert(Fixtures.TodoRecord(title: "written first"))
                    try tx.insert(todo)
                }
                throw ConformanceFailure("a \(what) value was written")
            } catch is FetchKitError {}
        }
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try ConformanceFailure.require(count == 10, "rejected writes left \(count - 10) rows")
    }

    func checkUnicodeTextKeys(on store: any PersistentStore) async throws {
        let notes = [
            Fixtures.NoteRecord(slug: "ça-va 🎉", body: "unicode"),
            Fixtures.NoteRecord(slug: "it's \"quoted\"", body: "quotes", pinned: true),
            Fixtures.NoteRecord(slug: "e\u{301}", body: "decomposed")
        ]
        try await store.write { tx in for note in notes { try tx.insert(note) } }
        let fetched = try await store.fetch(
            FetchRequest(Fixtures.NoteRecord.self, sortDescriptors: [.ascending("slug")]), as: Fixtures.NoteRecord.self)
        let expected = notes.sorted { Array($0.slug.utf8).lexicographicallyPrecedes(Array($1.slug.utf8)) }
        try ConformanceFailure.require(fetched == expected, "notes \(fetched.map(\.slug))")
        let found = try await store.fetch(
            FetchRequest(entity: "Note", predicate: try FetchPredicate(format: "slug == %@", "it's \"quoted\"")))
        try ConformanceFailure.require(found.first?["body"] == "quotes", "lookup by a quoted key: \(found)")
    }

    func checkEveryType(on store: any PersistentStore) async throws {
        let records = [AllTypes(), AllTypes.extremes, AllTypes(text: "third")]
        let inserted = try await store.write { tx in try records.map { try tx.insert($0) } }
        let fetched = try await store.fetch(
            FetchRequest(AllTypes.self, sortDescriptors: [.ascending("id")]), as: AllTypes.self)
        try ConformanceFailure.require(fetched == inserted, "Codable records differ: \(fetched) vs \(inserted)")
        let extreme = fetched.dropFirst().first
        try ConformanceFailure.require(
            extreme?.double.sign == .minus && extreme?.maybeText == "", "extremes \(String(describing: extreme))")
        let rows = try await store.fetch(
            FetchRequest(RowTypes.self, sortDescriptors: [.ascending("id")]), as: RowTypes.self)
        try ConformanceFailure.require(rows == inserted.map(RowTypes.init), "RowDecodable records differ: \(rows)")
    }

    func checkRecordMismatches(on store: any PersistentStore) async throws {
        try await store.write { tx in _ = try tx.insert(AllTypes()) }
        let cases: [(String, @Sendable () async throws -> Void)] = [
            (
                "'maybeText' expected String, found NULL",
                {
                    _ = try await store.fetch(FetchRequest(RequiredText.self), as: RequiredText.self)
                }
            ),
            (
                "'nope' expected Int, but the row has no column 'nope'",
                {
                    _ = try await store.fetch(FetchRequest(Extra.self), as: Extra.self)
                }
            )
        ]
        for (detail, fetch) in cases {
            do {
                try await fetch()
                throw ConformanceFailure("a record needing \(detail) decoded")
            } catch let error as FetchKitError {
                let expected = FetchKitError.recordMapping(entity: "AllTypes", detail: detail)
                try ConformanceFailure.require(error == expected, "got \(error), expected \(expected)")
            }
        }
    }
}
