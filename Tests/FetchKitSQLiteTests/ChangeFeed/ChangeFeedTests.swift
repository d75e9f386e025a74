import CSQLite
import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitSQLite

@Suite("SQLite change feed: what a committed write reports")
struct ChangeFeedTests {
    typealias TodoRecord = Fixtures.TodoRecord
    typealias CategoryRecord = Fixtures.CategoryRecord
    typealias NoteRecord = Fixtures.NoteRecord

    @Test("insert, update and delete by record: one change each, naming the key")
    func byRecord() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let inserted = try await store.write { tx in try tx.insert(TodoRecord(title: "new")) }
        var updated = inserted
        updated.title = "renamed"
        try await store.write { [updated] tx in try tx.update(updated) }
        try await store.write { [updated] tx in try tx.delete(updated) }
        let changes = try await recorder.wait(for: 3)
        try #require(changes.count == 3)
        #expect(changes[0].tables == ["todo": TableChange(inserted: [.integer(11)])])
        #expect(changes[1].tables == ["todo": TableChange(updated: [.integer(11)])])
        #expect(changes[2].tables == ["todo": TableChange(deleted: [.integer(11)])])
        #expect(changes.allSatisfy { !$0.isResync })
        await store.close()
    }

    @Test("insert, update and delete by row and key")
    func byRow() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            _ = try tx.insert(["title": "row"], into: "Todo")
        }
        try await store.write { tx in
            _ = try tx.update("Todo", key: 3, set: ["priority": 9])
            _ = try tx.update("Todo", key: 999, set: ["priority": 9])
        }
        try await store.write { tx in _ = try tx.delete("Todo", key: 4) }
        let changes = try await recorder.wait(for: 3)
        try #require(changes.count == 3)
        #expect(changes[0].tables == ["todo": TableChange(inserted: [.integer(11)])])
        #expect(changes[1].tables == ["todo": TableChange(updated: [.integer(3)])])
        #expect(changes[2].tables == ["todo": TableChange(deleted: [.integer(4)])])
        await store.close()
    }

    @Test("update and delete by predicate name exactly the matching rows")
    func byPredicate() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let updatedCount = try await store.write { tx in
            try tx.update("Todo", where: try FetchPredicate(format: "priority >= 3"), set: ["done": true])
        }
        let deletedCount = try await store.write { tx in
            try tx.delete("Todo", where: try FetchPredicate(format: "notes == nil"))
        }
        let highPriority = Set(Fixtures.sampleTodos.filter { $0.priority >= 3 }.compactMap(\.id).map(Value.integer))
        let withoutNotes = Set(Fixtures.sampleTodos.filter { $0.notes == nil }.compactMap(\.id).map(Value.integer))
        #expect(updatedCount == highPriority.count)
        #expect(deletedCount == withoutNotes.count)
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        #expect(changes[0].tables == ["todo": TableChange(updated: highPriority)])
        #expect(changes[1].tables == ["todo": TableChange(deleted: withoutNotes)])
        await store.close()
    }

    @Test("a multi-row statement and a multi-statement write are one change")
    func multiRow() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.execute("UPDATE todo SET priority = priority + 1", [])
            try tx.execute("INSERT INTO todo (title, priority, done) VALUES ('a', 0, 0), ('b', 0, 0)", [])
            try tx.insert(CategoryRecord(name: "Garden"))
        }
        let changes = try await recorder.wait(for: 1)
        let change = try #require(changes.first)
        #expect(
            change.tables["todo"]
                == TableChange(
                    inserted: [.integer(11), .integer(12)], updated: Set((1...10).map { Value.integer($0) })))
        #expect(change.tables["category"] == TableChange(inserted: [.integer(4)]))
        #expect(change.tables.count == 2)
        await store.close()
    }

    @Test("DELETE FROM todo without WHERE reports every deleted key (no truncate optimisation)")
    func deleteWithoutWhere() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let deleted = try await store.write { tx in try tx.execute("DELETE FROM todo", []) }
        #expect(deleted == 10)
        #expect(try await store.count(of: "Todo") == 0)
        let change = try #require(try await recorder.wait(for: 1).first)
        #expect(change.tables == ["todo": TableChange(deleted: Set((1...10).map { Value.integer($0) }))])
        await store.close()
    }

    @Test("DELETE without WHERE on a table SQLite would truncate reports every key")
    func truncateOptimisationDefeated() async throws {
        // A table without triggers or foreign keys: SQLite's truncate optimisation applies to it.
        let schema = try Schema([ChangeFeedFixture.item])
        let store = try await SQLiteStore.inMemory(schema: schema)
        try await store.write { tx in
            for name in ["a", "b", "c", "d"] { _ = try tx.insert(["name": .text(name)], into: "Item") }
        }
        let recorder = ChangeRecorder(store.changes())
        let deleted = try await store.write { tx in try tx.execute("DELETE FROM item", []) }
        #expect(deleted == 4)
        let change = try #require(try await recorder.wait(for: 1).first)
        #expect(change.tables == ["item": TableChange(deleted: Set((1...4).map { Value.integer($0) }))])
        // DROP TABLE still drops (the authorizer lets the drop's own delete through).
        try await store.write { tx in try tx.execute("DROP TABLE item", []) }
        let dropped = try await recorder.wait(for: 2)
        #expect(dropped.last?.tables == ["item": TableChange(isWholeTable: true)])
        let tables = try await store.writer.run { connection in
            try connection.scalarInteger("SELECT count(*) FROM sqlite_master WHERE name = 'item'")
        }
        #expect(tables == 0)
        await store.close()
    }

    @Test("control: without the feed's authorizer SQLite truncates and the update hook sees nothing")
    func truncateOptimisationControl() throws {
        var db: OpaquePointer?
        try #require(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        let setup = "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item (name) VALUES ('a'), ('b')"
        try #require(sqlite3_exec(db, setup, nil, nil, nil) == SQLITE_OK)
        final class Counter { var calls = 0 }
        let counter = Counter()
        sqlite3_update_hook(
            db,
            { context, _, _, _, _ in
                guard let context else { return }
                Unmanaged<Counter>.fromOpaque(context).takeUnretainedValue().calls += 1
            }, Unmanaged.passUnretained(counter).toOpaque())
        try #require(sqlite3_exec(db, "DELETE FROM item WHERE id > 1", nil, nil, nil) == SQLITE_OK)
        try #require(sqlite3_exec(db, "DELETE FROM item", nil, nil, nil) == SQLITE_OK)
        sqlite3_update_hook(db, nil, nil)
        // One row went through the hook; the other was truncated away unseen (yet counted as changed).
        #expect(counter.calls == 1)
        #expect(sqlite3_changes(db) == 1)
    }

    @Test("deleting a category reports its todos' ON DELETE SET NULL updates")
    func foreignKeySetNull() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in _ = try tx.delete("Category", key: 1) }
        try await store.write { tx in try tx.execute("DELETE FROM category", []) }
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        let work = Set(Fixtures.sampleTodos.filter { $0.categoryID == 1 }.compactMap(\.id).map(Value.integer))
        let others = Set(
            Fixtures.sampleTodos.filter { $0.categoryID == 2 || $0.categoryID == 3 }
                .compactMap(\.id).map(Value.integer))
        #expect(
            changes[0].tables == [
                "category": TableChange(deleted: [.integer(1)]), "todo": TableChange(updated: work)
            ])
        #expect(
            changes[1].tables == [
                "category": TableChange(deleted: [.integer(2), .integer(3)]), "todo": TableChange(updated: others)
            ])
        let todos = try await store.allTodos()
        #expect(todos.allSatisfy { $0.categoryID == nil })
        await store.close()
    }

    @Test("INSERT OR REPLACE over an existing key names the key; replaced then deleted is a deletion")
    func insertOrReplace() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.execute("INSERT OR REPLACE INTO todo (id, title, priority, done) VALUES (2, 'replaced', 0, 0)", [])
            try tx.execute("REPLACE INTO todo (id, title, priority, done) VALUES (20, 'fresh', 0, 0)", [])
        }
        try await store.write { tx in
            try tx.execute("INSERT OR REPLACE INTO todo (id, title, priority, done) VALUES (3, 'again', 0, 0)", [])
            try tx.execute("DELETE FROM todo WHERE id = 3", [])
        }
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        let first = try #require(changes[0].tables["todo"])
        #expect(first.allKeys == [.integer(2), .integer(20)])
        #expect(first.deleted.isEmpty)
        #expect(changes[1].tables == ["todo": TableChange(deleted: [.integer(3)])])
        await store.close()
    }

    @Test("REPLACE that deletes another row through a UNIQUE index marks the table whole-table")
    func replaceThroughUniqueIndex() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.execute("CREATE UNIQUE INDEX category_name_unique ON category (name)", [])
        }
        try await store.write { tx in
            // Deletes category 1 ("Work") without the update hook saying so.
            try tx.execute("INSERT OR REPLACE INTO category (id, name, position) VALUES (10, 'Work', 5)", [])
        }
        try await store.write { tx in _ = try tx.update("Category", key: 2, set: ["position": 7]) }
        try await store.write { tx in _ = try tx.delete("Category", key: 3) }
        let changes = try await recorder.wait(for: 4)
        try #require(changes.count == 4)
        // The index is a schema change: every table whole-table (nothing else changed).
        #expect(changes[0].tables.count == 3)
        #expect(changes[0].tables.values.allSatisfy { $0.isWholeTable && $0.allKeys.isEmpty })
        let replaced = try #require(changes[1].tables["category"])
        #expect(replaced.isWholeTable)
        #expect(replaced.inserted.contains(.integer(10)))
        // Every insert or update on such a table is whole-table; deletes are reported exactly.
        #expect(changes[2].tables["category"]?.isWholeTable == true)
        #expect(changes[3].tables["category"] == TableChange(deleted: [.integer(3)]))
        let left = try await store.fetch(
            FetchRequest(CategoryRecord.self, sortDescriptors: [.ascending("id")]),
            as: CategoryRecord.self)
        #expect(left.map(\.id) == [2, 10])
        await store.close()
    }

    @Test("upsert: a new key is inserted, an existing one updated")
    func upsert() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.upsert(TodoRecord(id: 5, title: "upserted"))
            try tx.upsert(["id": 50, "title": "new by upsert"], into: "Todo")
            try tx.upsert(NoteRecord(slug: "n", body: "first"))
        }
        try await store.write { tx in try tx.upsert(NoteRecord(slug: "n", body: "second")) }
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        #expect(
            changes[0].tables == [
                "todo": TableChange(inserted: [.integer(50)], updated: [.integer(5)]),
                "note": TableChange(inserted: [.text("n")])
            ])
        #expect(changes[1].tables == ["note": TableChange(updated: [.text("n")])])
        await store.close()
    }

    @Test("text-keyed rows are reported by key: insert, update, key change, delete, DELETE without WHERE")
    func textKeys() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.insert(NoteRecord(slug: "a", body: "1"))
            try tx.insert(NoteRecord(slug: "b", body: "2"))
            try tx.insert(NoteRecord(slug: "c", body: "3"))
        }
        try await store.write { tx in _ = try tx.update("Note", key: "a", set: ["pinned": true]) }
        try await store.write { tx in try tx.execute("UPDATE note SET slug = 'z' WHERE slug = 'b'", []) }
        try await store.write { tx in _ = try tx.delete("Note", key: "c") }
        try await store.write { tx in try tx.execute("INSERT OR REPLACE INTO note VALUES ('a', 'new', 0)", []) }
        try await store.write { tx in try tx.execute("DELETE FROM note", []) }
        let changes = try await recorder.wait(for: 6)
        try #require(changes.count == 6)
        #expect(changes[0].tables == ["note": TableChange(inserted: [.text("a"), .text("b"), .text("c")])])
        #expect(changes[1].tables == ["note": TableChange(updated: [.text("a")])])
        #expect(changes[2].tables == ["note": TableChange(updated: [.text("z")], deleted: [.text("b")])])
        #expect(changes[3].tables == ["note": TableChange(deleted: [.text("c")])])
        #expect(changes[4].tables["note"]?.allKeys == [.text("a")])
        #expect(changes[4].tables["note"]?.deleted.isEmpty == true)
        #expect(changes[5].tables == ["note": TableChange(deleted: [.text("a"), .text("z")])])
        await store.close()
    }

    @Test("changing an integer primary key reports the old key deleted and the new one")
    func integerKeyChange() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in try tx.execute("UPDATE todo SET id = 100 WHERE id = 8", []) }
        try await store.write { tx in try tx.execute("UPDATE todo SET rowid = 200 WHERE id = 9", []) }
        try await store.write { tx in
            try tx.execute("UPDATE todo SET id = 300 WHERE id = 6", [])
            try tx.execute("UPDATE todo SET id = 6 WHERE id = 300", [])
        }
        let changes = try await recorder.wait(for: 3)
        try #require(changes.count == 3)
        for (change, (old, new)) in zip(changes, [(8, 100), (9, 200)]) {
            let todo = try #require(change.tables["todo"])
            #expect(todo.deleted == [.integer(Int64(old))])
            #expect(todo.inserted.union(todo.updated) == [.integer(Int64(new))])
        }
        #expect(changes[2].tables == ["todo": TableChange(updated: [.integer(6)], deleted: [.integer(300)])])
        await store.close()
    }
}

// MARK: - Helpers shared by the change feed suites

/// Collects a store's changes in the background so a test can wait for them with a deadline.
final class ChangeRecorder: Sendable {
    private final class Received: Sendable {
        let changes = Mutex<[StoreChange]>([])
        let ended = Mutex(false)
    }

    private let received = Received()
    private let consumer: Task<Void, Never>

    /// Starts consuming `stream` (subscribe before writing: a feed delivers changes from then on); unless
    /// `keepingReferences`, the changes' ``TableChange/references`` are dropped (the suites about keys compare
    /// keys).
    init(_ stream: AsyncStream<StoreChange>, keepingReferences: Bool = false) {
        let received = received
        consumer = Task {
            for await change in stream {
                var change = change
                if !keepingReferences {
                    for table in Array(change.tables.keys) { change.tables[table]?.references = [:] }
                }
                received.changes.withLock { $0.append(change) }
            }
            received.ended.withLock { $0 = true }
        }
    }

    deinit {
        consumer.cancel()
    }

    /// Every change received so far.
    var changes: [StoreChange] { received.changes.withLock { $0 } }

    /// Waits until at least `count` changes arrived, or `timeout` passed (recording an issue), and
    /// returns every change received.
    func wait(
        for count: Int, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [StoreChange] {
        let deadline = ContinuousClock.now + timeout
        while changes.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        let changes = changes
        if changes.count < count {
            Issue.record(
                "expected \(count) changes within \(timeout), got \(changes.count)", sourceLocation: sourceLocation)
        }
        return changes
    }

    /// Waits until the stream ends; `false` when it has not within `timeout`.
    func waitForEnd(timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !received.ended.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        return received.ended.withLock { $0 }
    }

    /// Stops consuming: the stream's iteration ends, which unsubscribes it.
    func cancel() {
        consumer.cancel()
    }
}

enum ChangeFeedFixture {
    /// An entity on its own: no relationships, so no foreign key stops SQLite from truncating its table.
    static let item = Entity("Item", table: "item", primaryKey: .integer("id"), attributes: [Attribute("name", .text)])

    /// A seeded in-memory store and a recorder subscribed after the seeding.
    static func seededInMemory() async throws -> (SQLiteStore, ChangeRecorder) {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        return (store, ChangeRecorder(store.changes()))
    }

    /// A seeded file store in `directory` and a recorder subscribed after the seeding.
    static func seededFile(
        in directory: TemporaryDirectory, pollInterval: Duration? = .milliseconds(20)
    ) async throws -> (SQLiteStore, ChangeRecorder) {
        var options = SQLiteStore.Options.testing()
        options.dataVersionPollInterval = pollInterval
        let store = try await SQLiteStore.open(
            path: directory.path("feed.sqlite"), schema: Fixtures.schema, options: options)
        try await store.seed()
        return (store, ChangeRecorder(store.changes()))
    }

    /// Writes a note with slug `sentinel`: a change that must arrive first proves nothing came before it.
    static func writeSentinel(_ store: SQLiteStore) async throws {
        try await store.write { tx in try tx.insert(Fixtures.NoteRecord(slug: "sentinel", body: "")) }
    }

    /// The change a sentinel write publishes.
    static let sentinelTables = ["note": TableChange(inserted: [.text("sentinel")])]
}
