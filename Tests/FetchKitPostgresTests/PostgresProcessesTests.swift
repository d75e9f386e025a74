import FetchKit
import FetchKitPostgres
import FetchKitTesting
import Foundation
import Testing

/// Two app instances as two processes on one database: this test process and FetchKitPeer
/// (Integration/Peer), each with its own connections, change listener and live controllers.
@Suite("PostgreSQL: app instances in separate processes")
struct PostgresProcessesTests {
    /// FetchKitPeer, built beside this test binary by `swift build --build-tests` (Integration/test.sh).
    static func peer() throws -> String {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = binary.deletingLastPathComponent().appendingPathComponent("FetchKitPeer").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw PeerMissing(path: path) }
        return path
    }

    struct PeerMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "FetchKitPeer is not at \(path): build it first (swift build --build-tests)" }
    }

    /// Runs FetchKitPeer with `arguments` on a thread of its own; returns its last line of output, parsed.
    static func runPeer(_ arguments: String...) async throws -> [String: Int] {
        let command = "'\(try peer())' " + arguments.map { "'\($0)'" }.joined(separator: " ") + " 2>&1"
        let output = try await PrivateServer.onThread { try PrivateServer.run(command) }
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Int] else {
            throw PrivateServer.ScriptFailure(output: output)
        }
        return object
    }

    /// Waits until the note `slug` exists (another process wrote it).
    static func waitForNote(_ slug: String, in store: PostgresStore) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        let request = FetchRequest(entity: "Note", predicate: try FetchPredicate(format: "slug == %@", slug))
        while try await store.count(request) == 0 {
            guard ContinuousClock.now < deadline else { throw PrivateServer.ScriptFailure(output: "no note \(slug)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A watching peer and a writing peer beside this process, which watches and writes too: the random
    /// transactions of both writers reach the live controllers of both watchers, every controller converges
    /// to a fresh fetch and every batch each heard passes ListSimulator.
    @Test func writesInEachProcessReachControllersInTheOther() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let url = try PostgresServer.urlText(searchPath: namespace)

        let watched = try await StoreConformance.liveControllers(on: store)
        let watcher = Task { try await Self.runPeer("watch", url, "peer") }
        try await Self.waitForNote("ready-peer", in: store)

        let writer = Task { try await Self.runPeer("write", url, "7", "300") }
        var random = SeededRandom(seed: 11)
        let committed = try await RandomOperation.writeTransactions(300, to: store, using: &random)
        let written = try await writer.value
        try await store.write { tx in _ = try tx.insert(Fixtures.NoteRecord(slug: "done-peer", body: "")) }

        var batches = 0
        for (controller, recorder) in watched {
            batches += try await ResultsOracle.converge(controller, recorder, in: store)
        }
        let watchedThere = try await watcher.value
        #expect(committed > 100 && (written["committed"] ?? 0) > 100, "this process \(committed), the peer \(written)")
        #expect(batches > 300, "this process heard \(batches) batches")
        #expect(watchedThere["controllers"] == StoreConformance.liveRequests.count)
        #expect((watchedThere["batches"] ?? 0) > 300, "the peer heard \(watchedThere)")
        await store.close()
    }
}
