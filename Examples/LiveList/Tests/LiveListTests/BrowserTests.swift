import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation
import Testing

@testable import LiveList

/// The live board in headless Chromium, on each backend: after writes through another connection and drags in
/// the page, the page shows exactly the database's rows, in order (see ``BoardDrive``).
@Suite("Live board in a browser", .serialized)
struct BrowserTests {
    @Test("SQLite: the page follows another connection's writes and the user's drags", .timeLimit(.minutes(5)))
    func sqlite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "live-list-\(UUID().uuidString).sqlite"
        ).path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try await SQLiteStore.open(path: path, schema: try Board.schema())
        let writer = try await SQLiteStore.open(path: path, schema: try Board.schema())
        do {
            try await BoardDrive(store: store, writer: writer).run()
        } catch {
            await store.close()
            await writer.close()
            throw error
        }
        await store.close()
        await writer.close()
    }

    @Test("PostgreSQL: the page follows another connection's writes and the user's drags", .timeLimit(.minutes(5)))
    func postgres() async throws {
        let url = try #require(
            ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
            "DATABASE_URL is not set: run the tests with Integration/test.sh, which starts a PostgreSQL server")
        let table = "live_list_card_\(UInt32.random(in: 0...UInt32.max))"
        let schema = try Board.schema(table: table)
        let store = try await PostgresStore.open(url: url, schema: schema)
        let writer = try await PostgresStore.open(url: url, schema: schema)
        do {
            try await BoardDrive(store: store, writer: writer).run()
        } catch {
            await store.close()
            await writer.close()
            throw error
        }
        _ = try await writer.write { tx in try tx.execute("DROP TABLE \"\(table)\" CASCADE", []) }
        await store.close()
        await writer.close()
    }

    @Test("The page's commands are checked before anything is written")
    func commands() throws {
        #expect(try ClientCommand(json: #"{"type":"move","key":3,"before":7}"#) == .move(key: 3, .before(7)))
        #expect(
            try ClientCommand(json: #"{"type":"move","key":3,"section":"Done"}"#)
                == .move(key: 3, .endOfSection("Done")))
        #expect(
            try ClientCommand(json: #"{"type":"add","title":"  Write tests ","lane":"Doing"}"#)
                == .add(title: "Write tests", lane: "Doing"))
        for bad in [
            #"{"type":"add","title":"","lane":"Doing"}"#, #"{"type":"add","title":"x","lane":"Elsewhere"}"#,
            #"{"type":"move","key":3}"#, #"{"type":"move","key":3,"before":1,"section":"Done"}"#,
            #"{"type":"toggle"}"#, #"{"type":"drop table"}"#, "not json"
        ] {
            #expect(throws: ClientCommand.Invalid.self) { try ClientCommand(json: bad) }
        }
    }

    @Test("A page's ?where= is parsed as a format string; a bad one is a clear error")
    func predicate() throws {
        #expect(try LiveListServer.predicate(query: nil) == .true)
        #expect(try LiveListServer.predicate(query: "where=done%20%3D%3D%20NO") == FetchPredicate(format: "done == NO"))
        #expect(throws: FetchKitError.self) { try LiveListServer.predicate(query: "where=done%20%3D%3D") }
    }
}
