import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// Connections recycled under a running store — idle timeouts, poolers, failover, a DBA's
/// `pg_terminate_backend` — cost a reconnection, never a lost change: the next write and every live
/// controller's reads work on the first try.
@Suite("PostgreSQL recycled connections", .requiresPostgreSQL)
struct PostgresRecycledConnectionTests {
    /// A store whose connections carry an application name of their own, so a test terminates only them.
    static func store(named name: String, readers: Int) async throws -> PostgresStore {
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer("CREATE SCHEMA \(namespace)")
        let url = try PostgresURL(PostgresServer.urlText(searchPath: namespace) + "&application_name=\(name)")
        return try await PostgresStore.open(url: url, schema: Fixtures.schema, options: .init(readerCount: readers))
    }

    /// Terminates every connection named `name` except the listener's; with `waitingForExit`, returns once
    /// the server processes are gone (their sockets closed), else at once (they may still be exiting).
    static func terminateStoreConnections(_ store: PostgresStore, named name: String, waitingForExit: Bool)
        async throws
    {
        let listener = try #require(store.listener?.backendPID)
        let terminated = try await PostgresServer.query(
            """
            SELECT pid, pg_terminate_backend(pid) AS done FROM pg_stat_activity
            WHERE application_name = '\(name)' AND pid <> \(listener)
            """)
        // The readers and the writer — those not opened again since an earlier termination.
        #expect(!terminated.isEmpty)
        guard waitingForExit else { return }
        let deadline = ContinuousClock.now + .seconds(10)
        // Those processes: the listener's probe session is opened again at once, and is no process to wait for.
        let pids = terminated.compactMap { $0["pid", as: Int64.self] }.map(String.init).joined(separator: ",")
        guard !pids.isEmpty else { return }
        while ContinuousClock.now < deadline {
            let left = try await PostgresServer.query("SELECT pid FROM pg_stat_activity WHERE pid IN (\(pids))")
            if left.isEmpty { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the terminated connections did not exit within 10 s")
    }

    /// Several controllers, each with its own request and recorder.
    static func controllers(on store: PostgresStore) async throws -> [(
        ResultsController<Row>, ResultsRecorder<Row>
    )] {
        let requests = [
            PostgresLiveResultsTests.request,
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "priority >= 2"),
                sortDescriptors: [.descending("priority"), .ascending("id")]),
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
                sortDescriptors: [.ascending("title")], fetchLimit: 4),
            FetchRequest(entity: "Category", sortDescriptors: [.ascending("position")])
        ]
        return try await StoreConformance.liveControllers(on: store, requests: requests).map {
            ($0.controller, $0.recorder)
        }
    }

    /// After one write, every controller holds a fresh fetch's content at once — no retry, no stale spell
    /// — and every batch it emitted is valid.
    static func expectConverged(
        _ controllers: [(ResultsController<Row>, ResultsRecorder<Row>)], in store: PostgresStore
    ) async throws {
        for (controller, recorder) in controllers {
            await controller.sync()
            // Following, not retrying (behind, maybe, while a loaded server delivers the feed late).
            switch controller.status {
            case .live, .catchingUp: break
            default: Issue.record("status \(controller.status) after sync()")
            }
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            try recorder.checkCallbackOrder()
            for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
            recorder.reset()
        }
    }

    @Test(arguments: [true, false])
    func terminatingEveryStoreConnectionLosesNoChange(waitingForExit: Bool) async throws {
        let name = PostgresServer.uniqueName("fk_recycle")
        let store = try await Self.store(named: name, readers: 2)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controllers = try await Self.controllers(on: store)
        for round in 0..<3 as Range<Int64> {
            try await Self.terminateStoreConnections(store, named: name, waitingForExit: waitingForExit)
            // The first write after the terminations: no retry by the caller.
            try await store.write { tx in
                _ = try tx.update(
                    "Todo", key: .integer(1 + round), set: ["priority": .integer(9 - round), "done": .bool(false)])
                try tx.insert(
                    Fixtures.TodoRecord(id: 100 + round, title: "round \(round)", priority: 2, categoryID: 2))
                _ = try tx.update("Category", key: 2, set: ["position": .integer(10 + round)])
            }
            try await Self.expectConverged(controllers, in: store)
        }
        await store.close()
    }

    @Test func aReadOnATerminatedConnectionRunsAgainOnAFreshOne() async throws {
        let name = PostgresServer.uniqueName("fk_recycle")
        let store = try await Self.store(named: name, readers: 1)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        for _ in 0..<3 {
            try await Self.terminateStoreConnections(store, named: name, waitingForExit: false)
            #expect(try await store.count(FetchRequest(entity: "Todo")) == 10)
            #expect(try await store.fetch(FetchRequest(entity: "Category")).count == 3)
            #expect(
                try await store.fetch(FetchRequest(Fixtures.TodoRecord.self), as: Fixtures.TodoRecord.self).count
                    == 10)
        }
        await store.close()
    }

    @Test func aConnectionThatBreaksInsideAWriteFailsTheWholeWriteAndTheNextOneWorks() async throws {
        let name = PostgresServer.uniqueName("fk_recycle")
        let store = try await Self.store(named: name, readers: 1)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        // The writer's server process is terminated while the write's transaction is open: its later
        // statements fail rather than run outside the transaction on a new session.
        let error = await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                try tx.insert(Fixtures.TodoRecord(id: 50, title: "inside", categoryID: 1))
                _ = try tx.execute("SELECT pg_terminate_backend(pg_backend_pid())", [])
            }
        }
        if error?.code == .connectionLost {
        } else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
        }
        let afterwards = await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                do { _ = try tx.execute("SELECT pg_terminate_backend(pg_backend_pid())", []) } catch {}
                // The transaction is gone with the session: this insert must not land outside it.
                try tx.insert(Fixtures.TodoRecord(id: 51, title: "after the break", categoryID: 1))
            }
        }
        if afterwards?.code == .connectionLost {
        } else {
            Issue.record("expected connectionLost, got \(String(describing: afterwards))")
        }
        #expect(
            try await store.count(
                FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id IN {50, 51}")))
                == 0)
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(id: 52, title: "next write", categoryID: 1))
        }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 11)
        await store.close()
    }
}
