import FetchKit
import FetchKitFixtures
import Foundation

/// The bulk insert checks: `insert(contentsOf:)` writes every value exactly as single inserts do, returns the
/// keys the store assigned, moves the key sequence past keys the caller chose, rolls the whole write back on
/// an error and leaves the store usable, and live controllers see every row.
extension StoreConformance {
    /// The bulk insert checks.
    static var bulkInsertChecks: [Check] {
        [
            Check(
                name: "bulk insert: extremes of every type come back bit for bit",
                body: { try await $0.checkBulkExtremes(on: $1) }),
            Check(
                name: "bulk insert: every Swift type, nil and at its extremes, round-trips", schema: allTypesSchema,
                body: { try await $0.checkBulkEveryType(on: $1) }),
            Check(
                name: "bulk insert: rows take defaults, NULLs and text keys",
                body: { try await $0.checkBulkRows(on: $1) }),
            Check(name: "bulk insert: nothing to insert writes nothing", body: { try await $0.checkBulkEmpty(on: $1) }),
            Check(
                name: "bulk insert: an error in any row rolls the whole write back",
                body: { try await $0.checkBulkRollback(on: $1) }),
            Check(
                name: "bulk insert: a caught error leaves nothing of the call, and the write goes on",
                body: { try await $0.checkBulkCaughtError(on: $1) }),
            Check(
                name: "bulk insert: chosen keys move the key sequence",
                body: { try await $0.checkBulkChosenKeys(on: $1) }),
            Check(name: "bulk insert: a live controller sees every row", body: { try await $0.checkBulkLive(on: $1) })
        ]
    }

    /// Text that a text format would have to escape, and text that looks like its escapes.
    static let awkwardTexts = [
        "tab\there", "new\nline", "carriage\rreturn", "back\\slash", "\\N", "\\.", "end\\", "\r\n\t\\",
        "naïve 日本語 🎉 e\u{301}", "x'); DROP TABLE todo; --", "", " ", "\"quoted\" 'single'"
    ]

    func checkBulkExtremes(on store: any PersistentStore) async throws {
        let texts = Self.awkwardTexts.map { Fixtures.TodoRecord(title: $0, notes: $0 + "|" + $0) }
        let doubles: [Double] = [
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
            -.leastNormalMagnitude, 0.1, 1.0 / 3.0, 123_456_789.123_456_78
        ]
        let numbers = doubles.map { Fixtures.TodoRecord(title: "double \($0)", ordering: $0) }
        let dates = [
            Date(microsecondsSince1970: 1_700_000_000_000_001), Date(microsecondsSince1970: -999_999),
            Date(microsecondsSince1970: 253_402_300_799_999_999)
        ]
        .map { Fixtures.TodoRecord(title: "date", due: $0) }
        let records =
            Self.extremeTodos + texts + numbers + dates
            + [Fixtures.TodoRecord(title: "blob", attachment: Data((0...255).map { UInt8($0) } + [0, 0]))]
        let inserted = try await store.write { tx in try tx.insert(contentsOf: records) }
        let keys = inserted.map(\.id)
        try expect(keys == (11...Int64(10 + records.count)).map(Optional.some), "keys \(keys)")
        try expect(
            inserted.map {
                var copy = $0
                copy.id = nil
                return copy
            } == records, "the returned records differ")
        let fetched = try await store.fetch(
            FetchRequest(
                Fixtures.TodoRecord.self, predicate: try FetchPredicate(format: "id > 10"),
                sortDescriptors: [.ascending("id")]),
            as: Fixtures.TodoRecord.self)
        for (got, wrote) in zip(fetched, inserted) where got != wrote {
            throw ConformanceFailure("bulk-inserted \(wrote) came back as \(got)")
        }
        try expect(fetched.count == inserted.count, "\(fetched.count) of \(inserted.count) rows came back")
        let zero = fetched.first?.ordering
        try expect(zero == 0 && zero?.sign == .minus, "-0.0 came back as \(String(describing: zero))")
    }

    func checkBulkEveryType(on store: any PersistentStore) async throws {
        let records = [AllTypes(), AllTypes.extremes, AllTypes(id: 40, text: "chosen key")]
        let inserted = try await store.write { tx in try tx.insert(contentsOf: records) }
        // The store may assign keys above the chosen one (PostgreSQL moves its sequence past it first).
        let keys = inserted.compactMap(\.id)
        try expect(keys.count == 3 && keys[2] == 40 && Set(keys).count == 3, "keys \(keys)")
        let fetched = try await store.fetch(
            FetchRequest(AllTypes.self, sortDescriptors: [.ascending("id")]), as: AllTypes.self)
        let expected = inserted.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        try expect(fetched == expected, "Codable records differ: \(fetched) vs \(expected)")
    }

    func checkBulkRows(on store: any PersistentStore) async throws {
        let due = Date(microsecondsSince1970: 1_767_225_600_654_321)
        let rows: [Row] = [
            ["title": "defaults"],
            [
                "id": .null, "title": "nulls", "notes": .null, "ordering": .null, "due": .null, "attachment": .null,
                "categoryID": .null
            ],
            [
                "title": "typed", "priority": .double(7), "ordering": .integer(2), "done": .integer(1),
                "due": .date(due),
                "attachment": .blob(Data()), "categoryID": 2
            ]
        ]
        let keys = try await store.write { tx in try tx.insert(contentsOf: rows, into: "Todo") }
        try expect(keys == [.integer(11), .integer(12), .integer(13)], "keys \(keys)")
        let fetched = try await store.fetch(
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "id > 10"), sortDescriptors: [.ascending("id")]))
        let expected: [[String: Value]] = [
            ["title": "defaults", "notes": .null, "priority": 0, "done": false, "attachment": .null],
            ["title": "nulls", "ordering": .null, "due": .null, "categoryID": .null],
            [
                "priority": 7, "ordering": .double(2), "done": true, "due": .date(due), "attachment": .blob(Data()),
                "categoryID": 2
            ]
        ]
        try expect(fetched.count == 3, "\(fetched.count) rows")
        for (row, values) in zip(fetched, expected) {
            for (name, value) in values {
                try expect(row[name] == value, "\(name) came back as \(String(describing: row[name])), not \(value)")
            }
        }
        let notes = Self.awkwardTexts.filter { !$0.isEmpty }.enumerated().map { index, text in
            Fixtures.NoteRecord(slug: text, body: "note \(index)", pinned: index.isMultiple(of: 2))
        }
        let inserted = try await store.write { tx in try tx.insert(contentsOf: notes) }
        try expect(inserted == notes, "text-keyed records came back changed")
        let slugs = try await store.fetch(FetchRequest(Fixtures.NoteRecord.self), as: Fixtures.NoteRecord.self)
        try expect(Set(slugs.map(\.slug)) == Set(notes.map(\.slug)), "text keys \(slugs.map(\.slug))")
    }

    func checkBulkEmpty(on store: any PersistentStore) async throws {
        let (records, keys) = try await store.write { tx in
            (try tx.insert(contentsOf: [Fixtures.TodoRecord]()), try tx.insert(contentsOf: [], into: "Todo"))
        }
        try expect(records.isEmpty && keys.isEmpty, "an empty insert returned \(records) and \(keys)")
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try expect(count == 10, "an empty insert left \(count) todos")
    }

    func checkBulkRollback(on store: any PersistentStore) async throws {
        let many = (0..<500).map { Fixtures.TodoRecord(title: "bulk \($0)", priority: $0) }
        let failures: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            (
                "a duplicate key after 250 rows",
                { tx in
                    try tx.insert(Fixtures.TodoRecord(title: "single, before"))
                    try tx.insert(
                        contentsOf: Array(many[..<250]) + [Fixtures.TodoRecord(id: 5, title: "dup")] + many[250...])
                }
            ),
            (
                "a duplicate key inside the batch",
                { tx in
                    try tx.insert(contentsOf: [
                        Fixtures.TodoRecord(id: 600, title: "a"), Fixtures.TodoRecord(id: 600, title: "b")
                    ])
                }
            ),
            (
                "a missing required value",
                { tx in
                    try tx.insert(contentsOf: [["title": "fine"], ["notes": "no title"]], into: "Todo")
                }
            ),
            ("a NaN", { tx in try tx.insert(contentsOf: many + [Fixtures.TodoRecord(title: "nan", ordering: .nan)]) }),
            (
                "a dangling foreign key",
                { tx in
                    try tx.insert(contentsOf: many + [Fixtures.TodoRecord(title: "orphan", categoryID: 999)])
                }
            )
        ]
        for (what, body) in failures {
            do {
                try await store.write(body)
                throw ConformanceFailure("a bulk insert with \(what) succeeded")
            } catch is FetchKitError {}
            let count = try await store.count(FetchRequest(entity: "Todo"))
            try expect(count == 10, "a bulk insert with \(what) left \(count - 10) rows")
        }
        let after = try await store.write { tx in try tx.insert(contentsOf: many) }
        try expect(
            after.count == 500 && Set(after.compactMap(\.id)).count == 500,
            "the store's next bulk insert: \(after.count)")
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try expect(count == 510, "after the failures, a bulk insert left \(count) todos")
    }

    func checkBulkCaughtError(on store: any PersistentStore) async throws {
        let caught = try await store.write { tx -> Bool in
            try tx.insert(Fixtures.TodoRecord(id: 20, title: "before"))
            do {
                try tx.insert(
                    contentsOf: (Int64(100)..<400).map { id in Fixtures.TodoRecord(id: id, title: "bulk \(id)") }
                        + [Fixtures.TodoRecord(id: 20, title: "duplicate")])
                return false
            } catch is FetchKitError {
                try tx.insert(Fixtures.TodoRecord(id: 21, title: "after"))
                return true
            }
        }
        try expect(caught, "a bulk insert with a duplicate key succeeded")
        let ids = try await store.fetch(FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id > 10")))
            .compactMap { $0["id", as: Int64.self] }
        try expect(Set(ids) == [20, 21], "after a caught bulk error the write committed keys \(ids.sorted())")
    }

    func checkBulkChosenKeys(on store: any PersistentStore) async throws {
        try await store.write { tx in
            _ = try tx.insert(contentsOf: [
                Fixtures.TodoRecord(id: 1000, title: "a"), Fixtures.TodoRecord(id: 1001, title: "b")
            ])
        }
        let next = try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: "after")) }
        try expect(next.id == 1002, "a single insert after chosen keys got \(String(describing: next.id))")
        let mixed = try await store.write { tx in
            try tx.insert(contentsOf: [
                Fixtures.TodoRecord(title: "x"), Fixtures.TodoRecord(id: 2000, title: "y"),
                Fixtures.TodoRecord(title: "z")
            ])
        }
        let keys = mixed.compactMap(\.id)
        try expect(
            keys.count == 3 && keys[1] == 2000 && keys[0] > 1002 && keys[2] > 1002 && Set(keys).count == 3,
            "a mixed batch got keys \(keys)")
        let last = try await store.write { tx in
            (
                try tx.insert(Fixtures.TodoRecord(title: "single")),
                try tx.insert(contentsOf: [["title": "row"]], into: "Todo")
            )
        }
        let later = [last.0.id.map(Value.integer) ?? .null] + last.1
        try expect(
            later.allSatisfy { if case .integer(let key) = $0 { key > 2000 } else { false } },
            "inserts after a chosen key of 2000 got \(later)")
    }

    func checkBulkLive(on store: any PersistentStore) async throws {
        let harness = try await ControllerHarness(
            store, FetchRequest(entity: "Todo", sortDescriptors: [.ascending("priority"), .ascending("title")]))
        for size in [3, 2_500] {
            let records = (0..<size).map { Fixtures.TodoRecord(title: "live \(size) \($0)", priority: $0 % 7) }
            let changeset = try await harness.batch { tx in _ = try tx.insert(contentsOf: records) }
            try expect(!changeset.isEmpty, "the bulk insert of \(size) rows gave an empty batch")
        }
        try expect(harness.controller.fetchedObjects.count == 2_513, "\(harness.controller.fetchedObjects.count) rows")
    }
}
