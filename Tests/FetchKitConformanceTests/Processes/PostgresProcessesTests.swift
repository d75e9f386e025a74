import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Synchronization
import Testing

/// Two app instances as two processes on one database: this test process and FetchKitPeer
/// (Integration/Peer), each with its own connections, change listener and live controllers.
@Suite("PostgreSQL: app instances in separate processes", .requiresPostgreSQL)
struct PostgresProcessesTests {
    /// Runs FetchKitPeer with `arguments` to its end (stopped after 400 s); returns its last line of output,
    /// parsed.
    static func runPeer(_ arguments: String...) async throws -> [String: Int] {
        let (status, output) = try await ChildProcess.run(
            try BuildProducts.executable("FetchKitPeer"), arguments, within: .seconds(400))
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Int]
        else {
            throw PeerFailure(
                description: "FetchKitPeer \(arguments.joined(separator: " ")) ended with \(status): \(output)")
        }
        return object
    }

    /// A peer that failed, or a note it never wrote.
    struct PeerFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A flag one task sets and another reads.
    final class Flag: Sendable {
        private let value = Atomic(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// Waits until the note `slug` exists (`peer` wrote it); fails at once with the peer's error if it ended.
    static func waitForNote(
        _ slug: String, in store: PostgresStore, from peer: Task<[String: Int], any Error>,
        ended: Flag
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        let request = FetchRequest(entity: "Note", predicate: try FetchPredicate(format: "slug == %@", slug))
        while try await store.count(request) == 0 {
            if ended.isSet {
                let result = try await peer.value
                throw PeerFailure(description: "the peer ended without writing \(slug): \(result)")
            }
            guard ContinuousClock.now < deadline else {
                throw PeerFailure(description: "no note \(slug)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A watching peer and a writing peer beside this process, which watches and writes too: the random
    /// transactions of both writers reach the live controllers of both watchers, every controller converges
    /// to a fresh fetch and every batch each heard passes ListSimulator.
    @Test func writesInEachProcessReachControllersInTheOther() async throws {
        let namespace = ConformanceServer.uniqueName("fkc")
        let store = try await ConformanceServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let url = try ConformanceServer.urlText(searchPath: namespace)

        let watched = try await StoreConformance.liveControllers(on: store)
        let watcherEnded = Flag()
        let watcher = Task {
            defer { watcherEnded.set() }
            return try await Self.runPeer("watch", url, "peer")
        }
        do {
            try await Self.waitForNote("ready-peer", in: store, from: watcher, ended: watcherEnded)
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
            #expect(
                committed > 100 && (written["committed"] ?? 0) > 100,
                "this process \(committed), the peer \(written)")
            #expect(batches > 300, "this process heard \(batches) batches")
            #expect(watchedThere["controllers"] == StoreConformance.liveRequests.count)
            #expect((watchedThere["batches"] ?? 0) > 300, "the peer heard \(watchedThere)")
        } catch {
            // Let the watching peer end, then report.
            _ = try? await store.write { tx in _ = try tx.upsert(Fixtures.NoteRecord(slug: "done-peer", body: "")) }
            _ = try? await watcher.value
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Three app instances — this process and two FetchKitPeer processes — each with its own store reading the
    /// write-ahead log (one WAL sender and one slot each) and 300 live controllers, on one database; all three
    /// write random transactions, and so does a connection of no store, as psql would. Every controller of every
    /// instance ends equal to a fresh fetch, with every batch valid.
    @Test(.timeLimit(.minutes(10))) func threeInstancesWithThreeHundredControllersEachStayExact() async throws {
        let namespace = ConformanceServer.uniqueName("fkc")
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = .logical
        let store = try await ConformanceServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let url = try ConformanceServer.urlText(searchPath: namespace)
        let requests = (0..<300).map { StoreConformance.liveRequests[$0 % StoreConformance.liveRequests.count] }
        let watched = try await StoreConformance.liveControllers(on: store, requests: requests)
        let names = ["a", "b"]
        let ended = names.map { _ in Flag() }
        let peers = names.enumerated().map { index, name in
            Task {
                defer { ended[index].set() }
                return try await Self.runPeer("instance", url, name, "\(21 + index)", "150", "300", "logical")
            }
        }
        do {
            for (index, name) in names.enumerated() {
                try await Self.waitForNote("ready-\(name)", in: store, from: peers[index], ended: ended[index])
            }
            let outside = Task {
                for id in 500..<560 {
                    try await ConformanceServer.administer(
                        "INSERT INTO \(namespace).todo (id, title, done, priority, category_id) VALUES (\(id), "
                            + "'psql \(id)', false, \(id % 5), \(1 + id % 3)); UPDATE \(namespace).todo SET priority = "
                            + "priority + 1 WHERE id = \(id - 1)")
                }
            }
            var random = SeededRandom(seed: 20)
            let committed = try await RandomOperation.writeTransactions(150, to: store, using: &random)
            try await outside.value
            for (index, name) in names.enumerated() {
                try await Self.waitForNote("written-\(name)", in: store, from: peers[index], ended: ended[index])
            }
            try await store.write { tx in _ = try tx.insert(Fixtures.NoteRecord(slug: "done", body: "")) }
            for (controller, recorder) in watched {
                _ = try await ResultsOracle.converge(controller, recorder, in: store)
            }
            for peer in peers {
                let result = try await peer.value
                #expect(result["controllers"] == 300, "\(result)")
                #expect((result["committed"] ?? 0) > 50, "\(result)")
            }
            #expect(committed > 50)
        } catch {
            _ = try? await store.write { tx in _ = try tx.upsert(Fixtures.NoteRecord(slug: "done", body: "")) }
            for peer in peers { _ = try? await peer.value }
            await store.close()
            throw error
        }
        await store.close()
    }

    /// `fetchkit watch` attaches to a PostgreSQL table it did not create the store for: the results, then a
    /// batch for this process's write, as JSON lines; SIGINT ends it with status 0.
    @Test func fetchkitWatchFollowsATable() async throws {
        let namespace = ConformanceServer.uniqueName("fkc")
        let store = try await ConformanceServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let watch = try ChildProcess(
            try BuildProducts.executable("fetchkit"),
            [
                "watch", "--store", try ConformanceServer.urlText(searchPath: namespace), "--entity", "category",
                "--sort", "name", "--json"
            ], mergingStandardError: false)
        let results = try await watch.line(0)
        #expect(results.contains(#""type":"results""#) && results.contains("Errands"), "\(results)")
        try await store.write { tx in _ = try tx.insert(Fixtures.CategoryRecord(name: "Garden", position: 4)) }
        let batch = try await watch.line(1)
        #expect(batch.contains(#""type":"batch""#) && batch.contains("Garden"), "\(batch)")
        watch.interrupt()
        #expect(try await watch.exit() == 0)
        await store.close()
    }

    /// `fetchkit watch` on a table without capture installs the triggers its feed needs and removes them when it
    /// exits; on a table that had them, it leaves them.
    @Test func fetchkitWatchRemovesOnlyTheTriggersItInstalled() async throws {
        let namespace = ConformanceServer.uniqueName("fkc")
        var options = PostgresStore.Options(readerCount: 1)
        options.changeCapture = false
        let store = try await ConformanceServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let url = try PostgresURL(try ConformanceServer.urlText(searchPath: namespace))
        func watchOnce(_ table: String) async throws -> String {
            let watch = try ChildProcess(
                try BuildProducts.executable("fetchkit"),
                [
                    "watch", "--store", try ConformanceServer.urlText(searchPath: namespace), "--entity", table,
                    "--json",
                    "--feed", "triggers"
                ])
            // Standard error (which feed, then what it removed) is merged: the results come after the feed's line.
            var line = 0
            while !(try await watch.line(line)).contains(#""type":"results""#) { line += 1 }
            #expect(try await PostgresStore.hasChangeCaptureTriggers(onTable: table, url: url))
            watch.interrupt()
            #expect(try await watch.exit() == 0)
            return watch.output
        }
        let said = try await watchOnce("todo")
        #expect(said.contains("removed the change-capture triggers watch installed on todo"), "\(said)")
        #expect(try await PostgresStore.hasChangeCaptureTriggers(onTable: "todo", url: url) == false)
        // Installed beforehand (by a migration): they stay.
        try await PostgresStore.runCaptureScript(
            try await PostgresStore.changeCaptureSQL(forTables: ["category"], url: url), url: url)
        let kept = try await watchOnce("category")
        #expect(!kept.contains("removed"), "\(kept)")
        #expect(try await PostgresStore.hasChangeCaptureTriggers(onTable: "category", url: url))
        await store.close()
    }

    /// `fetchkit explain` on a PostgreSQL table: the route and the SQL with `$n` parameters, and no trigger left on
    /// the table (the store is opened without change capture).
    @Test func fetchkitExplainInstallsNothing() async throws {
        let namespace = ConformanceServer.uniqueName("fkc")
        var options = PostgresStore.Options(readerCount: 1)
        options.changeCapture = false
        let store = try await ConformanceServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        await store.close()
        let (status, output) = try await ChildProcess.run(
            try BuildProducts.executable("fetchkit"),
            [
                "explain", "--store", try ConformanceServer.urlText(searchPath: namespace), "--entity", "todo",
                "--where", "priority BETWEEN {1, 3}", "--sort", "title"
            ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("route: range on priority"), "\(output)")
        #expect(output.contains("BETWEEN $1 AND $2") && output.contains("  $1 = 1"), "\(output)")
        // Fails (the DO block raises) if any trigger is on the table.
        try await ConformanceServer.administer(
            "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '\(namespace).todo'::regclass "
                + "AND NOT tgisinternal) THEN RAISE EXCEPTION 'explain left a trigger on todo'; END IF; END $$")
    }
}
