import FetchKit
import FetchKitPostgres
import FetchKitTesting
import Foundation

/// What went wrong in a peer.
enum PeerError: Error, CustomStringConvertible {
    case usage
    case timedOut(String)

    var description: String {
        switch self {
        case .usage: "usage: FetchKitPeer write URL SEED TRANSACTIONS | FetchKitPeer watch URL NAME"
        case .timedOut(let what): "timed out waiting for \(what)"
        }
    }
}

/// One app instance: a store of the fixture schema with its own connections and change listener.
struct Peer {
    let url: String

    private func open() async throws -> PostgresStore {
        try await PostgresStore.open(url: url, schema: Fixtures.schema, options: .init(readerCount: 2))
    }

    /// Runs `count` random transactions from `seed`; those a constraint or another instance's concurrent
    /// write rolls back are counted, not fatal.
    func write(seed: UInt64, transactions count: Int) async throws -> String {
        let store = try await open()
        var random = SeededRandom(seed: seed)
        var committed = 0
        for _ in 0..<count {
            let operations = (0..<random.int(1...3)).map { _ in RandomOperation.make(&random) }
            do {
                try await store.write { tx in for operation in operations { try operation.apply(tx, dialect: .postgres) } }
                committed += 1
            } catch is FetchKitError {}
        }
        await store.close()
        return #"{"committed": \#(committed), "rolledBack": \#(count - committed)}"#
    }

    /// Opens a live controller per request of the live-results check, says it is ready by writing the note
    /// `ready-NAME`, waits for the note `done-NAME`, then checks every controller against a fresh fetch and
    /// every batch it heard against ListSimulator.
    func watch(name: String) async throws -> String {
        let store = try await open()
        var watched: [(ResultsController<Row>, ResultsRecorder<Row>)] = []
        for request in StoreConformance.liveRequests {
            let controller = ResultsController(store: store, request: request)
            let recorder = ResultsRecorder<Row>()
            controller.delegate = recorder
            try await controller.performFetch()
            watched.append((controller, recorder))
        }
        let done = ResultsController(store: store, request: FetchRequest(
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
