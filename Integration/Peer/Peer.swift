import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTesting
import Foundation

/// What went wrong in a peer.
enum PeerError: Error, CustomStringConvertible {
    case usage
    case timedOut(String)

    var description: String {
        switch self {
        case .usage:
            "usage: FetchKitPeer write URL SEED TRANSACTIONS | FetchKitPeer watch URL NAME | "
                + "FetchKitPeer instance URL NAME SEED TRANSACTIONS CONTROLLERS FEED"
        case .timedOut(let what): "timed out waiting for \(what)"
        }
    }
}

/// One app instance: a store of the fixture schema with its own connections and change listener.
struct Peer {
    let url: String
    /// The change feed its store reads.
    var feed = PostgresStore.ChangeFeedKind.triggers

    private func open() async throws -> PostgresStore {
        try await PostgresStore.open(
            url: url, schema: Fixtures.schema, options: .init(readerCount: 2, changeFeed: feed))
    }

    /// A whole app instance: `controllers` live controllers (the live-results check's requests, over and over),
    /// the note `ready-NAME`, `count` random transactions from `seed`, the note `written-NAME`; then, once the
    /// note `done` appears, every controller checked against a fresh fetch and every batch it heard against
    /// ListSimulator.
    func instance(name: String, seed: UInt64, transactions count: Int, controllers: Int) async throws -> String {
        let store = try await open()
        let requests = (0..<controllers).map {
            StoreConformance.liveRequests[$0 % StoreConformance.liveRequests.count]
        }
        let watched = try await StoreConformance.liveControllers(on: store, requests: requests)
        try await store.write { tx in _ = try tx.insert(Fixtures.NoteRecord(slug: "ready-\(name)", body: "")) }
        var random = SeededRandom(seed: seed)
        let committed = try await RandomOperation.writeTransactions(count, to: store, using: &random)
        try await store.write { tx in _ = try tx.insert(Fixtures.NoteRecord(slug: "written-\(name)", body: "")) }
        try await waitForNote("done", in: store)
        var batches = 0
        for (controller, recorder) in watched {
            batches += try await ResultsOracle.converge(controller, recorder, in: store)
        }
        await store.close()
        return #"{"controllers": \#(watched.count), "batches": \#(batches), "committed": \#(committed)}"#
    }

    /// Waits (up to 300 s) until the note `slug` exists.
    private func waitForNote(_ slug: String, in store: PostgresStore) async throws {
        let request = FetchRequest(entity: "Note", predicate: try FetchPredicate(format: "slug == %@", slug))
        let deadline = ContinuousClock.now + .seconds(300)
        while try await store.count(request) == 0 {
            guard ContinuousClock.now < deadline else { throw PeerError.timedOut("the note \(slug)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs `count` random transactions from `seed`; those a constraint or another instance's concurrent
    /// write rolls back are counted, not fatal.
    func write(seed: UInt64, transactions count: Int) async throws -> String {
        let store = try await open()
        var random = SeededRandom(seed: seed)
        let committed = try await RandomOperation.writeTransactions(count, to: store, using: &random)
        await store.close()
        return #"{"committed": \#(committed), "rolledBack": \#(count - committed)}"#
    }

    /// Opens a live controller per request of the live-results check, says it is ready by writing the note
    /// `ready-NAME`, waits for the note `done-NAME`, then checks every controller against a fresh fetch and
    /// every batch it heard against ListSimulator.
    func watch(name: String) async throws -> String {
        let store = try await open()
        let watched = try await StoreConformance.liveControllers(on: store)
        let done = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Note", predicate: try FetchPredicate(format: "slug == %@", "done-\(name)")))
        try await done.performFetch()
        try await store.write { tx in _ = try tx.insert(Fixtures.NoteRecord(slug: "ready-\(name)", body: "")) }

        let deadline = ContinuousClock.now + .seconds(300)
        while done.fetchedObjects.isEmpty {
            guard ContinuousClock.now < deadline else { throw PeerError.timedOut("the note done-\(name)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        var batches = 0
        var incremental = 0
        for (controller, recorder) in watched {
            batches += try await ResultsOracle.converge(controller, recorder, in: store)
            incremental += controller.statistics.incrementalUpdates
        }
        await store.close()
        return #"{"controllers": \#(watched.count), "batches": \#(batches), "incremental": \#(incremental)}"#
    }
}
