import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

@Suite("SQLite store: values round-trip exactly")
struct SQLiteStoreRoundTripTests {
    typealias Task = Fixtures.TaskRecord

    static let extremes: [Task] = [
        Task(title: "min", notes: "", priority: Int.min, ordering: -0.0, done: false,
             due: Date(microsecondsSince1970: -62_135_596_800_000_000), attachment: Data()),
        Task(title: "max", notes: "日本語 🎉 e\u{301} Zürich \"quoted\" 'single'", priority: Int.max,
             ordering: .infinity, done: true, due: Date(microsecondsSince1970: 1_700_000_000_123_456),
             attachment: Data([0, 0, 255])),
        Task(title: "x'); DROP TABLE task; --", notes: nil, priority: 0, ordering: -.infinity, done: false,
             due: Date(microsecondsSince1970: 1), attachment: Data(repeating: 7, count: 100_000)),
        Task(title: "tiny", priority: 1, ordering: .leastNonzeroMagnitude, due: Date(microsecondsSince1970: -1)),
        Task(title: "", priority: -1, ordering: 0.0),
    ]

    @Test("records: extremes of every type come back bit for bit", arguments: [false, true])
    func records(inMemory: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = inMemory
            ? try await SQLiteStore.inMemory(schema: Fixtures.schema)
            : try await SQLiteStore.open(path: directory.path("values.sqlite"), schema: Fixtures.schema,
                                         options: .testing())
        let inserted = try await store.write { tx in try Self.extremes.map { try tx.insert($0) } }
        #expect(inserted.map(\.id) == [1, 2, 3, 4, 5])
        let fetched = try await store.allTasks()
        #expect(fetched == inserted)
        let first = try #require(fetched.first)
        let ordering = try #require(first.ordering)
        #expect(ordering == 0 && ordering.sign == .minus)
        #expect(first.attachment == Data())
        #expect(fetched.last?.ordering?.sign == .plus)
        #expect(try await store.count(of: "Task") == Self.extremes.count)
        await store.close()
    }

    @Test("rows: each attribute reads back in its canonical case")
    func rows() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        let due = Date(microsecondsSince1970: 1_767_225_600_654_321)
        let row: Row = [
            "title": "row", "notes": .null, "priority": .integer(Int64.min), "ordering": .double(-0.0),
            "done": true, "due": .date(due), "attachment": .blob(Data()),
        ]
        let key = try await store.write { tx in try tx.insert(row, into: "Task") }
        #expect(key == .integer(1))
        let rows = try await store.fetch(FetchRequest(entity: "Task"))
        let fetched = try #require(rows.first)
        #expect(fetched["id"] == .integer(1))
        #expect(fetched["title"] == .text("row"))
        #expect(fetched["notes"] == .null)
        #expect(fetched["priority"] == .integer(Int64.min))
        #expect(fetched["ordering"] == .double(-0.0))
        #expect(fetched["done"] == .bool(true))
        #expect(fetched["due"] == .date(due))
        #expect(fetched["attachment"] == .blob(Data()))
        #expect(fetched["categoryID"] == .null)
        await store.close()
    }

    @Test("NaN and NUL in text are rejected and nothing is written")
    func invalidValues() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.insert(Task(title: "nan", ordering: .nan)) }
        }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.insert(Task(title: "nul\u{0}byte")) }
        }
        #expect(try await store.count(of: "Task") == 0)
        await store.close()
    }

    @Test("text primary keys: unicode and quotes survive")
    func textKeys() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        let notes = [
            Fixtures.NoteRecord(slug: "ça-va 🎉", body: "unicode"),
            Fixtures.NoteRecord(slug: "it's \"quoted\"", body: "quotes", pinned: true),
        ]
        try await store.write { tx in for note in notes { try tx.insert(note) } }
        let fetched = try await store.fetch(
            FetchRequest(Fixtures.NoteRecord.self, sortDescriptors: [.ascending("slug")]), as: Fixtures.NoteRecord.self)
        #expect(fetched == notes.sorted { $0.slug < $1.slug })
        await store.close()
    }
}
