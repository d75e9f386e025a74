import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitPostgres

/// Two app instances on one database, one reading from a hot standby that holds every commit back (the
/// standby Integration/test.sh starts, `STANDBY_URL`): a write through one instance, then `sync(after:)` its
/// token on the other, and the other's controllers and fetches show it — never an older state.
@Suite("PostgreSQL read replicas and commit tokens", .requiresPostgreSQL)
struct ReadReplicaTests {
    /// How many write → sync → read trials (`FETCHKIT_REPLICA_TRIALS`; 200 in CI, 10,000 for the full run).
    static let trials = Int(ProcessInfo.processInfo.environment["FETCHKIT_REPLICA_TRIALS"] ?? "") ?? 200

    static func standbyURL(searchPath namespace: String, application: String = "fkt-replica") throws -> PostgresURL {
        guard let text = ProcessInfo.processInfo.environment["STANDBY_URL"], !text.isEmpty else {
            throw FetchKitError.unsupported(
                "STANDBY_URL is not set: Integration/test.sh starts a standby (Integration/scripts/pg-standby.sh)")
        }
        return try PostgresURL(
            PostgresEnvironment.url(text, searchPath: namespace) + "&application_name=\(application)")
    }

    static func options(feed: PostgresStore.ChangeFeedKind, replica: PostgresURL? = nil) -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: 2, changeFeed: feed)
        options.readReplica = replica
        return options
    }

    /// Instance A writes categories 1…`trials`, each through `writeReturningToken`; instance B (reading from the
    /// standby with `onStandby`) syncs its controller after each token, then reads the row back. Returns how many
    /// reads missed their write; checks B's controller against the oracle.
    static func staleReads(feed: PostgresStore.ChangeFeedKind, onStandby: Bool, trials: Int) async throws -> Int {
        let namespace = PostgresServer.uniqueName("fkt")
        let writer = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed: feed))
        let reader = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: Fixtures.schema,
            options: Self.options(feed: feed, replica: onStandby ? try Self.standbyURL(searchPath: namespace) : nil))
        let controller = ResultsController(
            store: reader, request: FetchRequest(entity: "Category", sortDescriptors: [.ascending("id")]))
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        var stale = 0
        for id in 1...trials {
            let (_, token) = try await writer.writeReturningToken { tx in
                try tx.insert(
                    ["id": .integer(Int64(id)), "name": .text("c\(id)"), "position": .integer(Int64(id))],
                    into: "Category")
            }
            try await controller.sync(after: token)
            let fetched = try await reader.fetch(
                FetchRequest(entity: "Category", predicate: .key("id") == .integer(Int64(id))))
            if controller.fetchedObjects.last?["id"] != .integer(Int64(id)) || fetched.count != 1 { stale += 1 }
        }
        #expect(controller.fetchedObjects.count == trials)
        try await ResultsOracle.converge(controller, recorder, in: reader)
        await reader.close()
        await writer.close()
        return stale
    }

    /// Instance B reads from the standby, which holds every commit back: 0 stale reads after `sync(after:)`.
    @Test func aWriteThroughOneInstanceIsReadThroughAnotherOnTheStandby() async throws {
        let stale = try await Self.staleReads(feed: .logical, onStandby: true, trials: Self.trials)
        #expect(stale == 0, "\(stale) of \(Self.trials) reads after sync(after:) missed the write")
    }

    /// A thousand controllers open on the standby: every read runs on the standby's connections, none on the
    /// primary's, and each controller equals a fresh fetch.
    @Test func controllersOpenedOnTheStandbyReadNothingFromThePrimary() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let writer = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed: .logical))
        try await writer.write { tx in try Fixtures.insertSampleData(tx) }
        let application = "fkt-replica-\(namespace)"
        let reader = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: Fixtures.schema,
            options: Self.options(
                feed: .logical, replica: try Self.standbyURL(searchPath: namespace, application: application)))
        var controllers: [ResultsController<Row>] = []
        for index in 0..<1_000 {
            let controller = ResultsController(
                store: reader,
                request: FetchRequest(
                    // A thousand distinct requests (equal ones would share one read).
                    entity: "Todo",
                    predicate: .key("priority") >= .integer(Int64(index % 5)) && .key("id") > .integer(Int64(-index)),
                    sortDescriptors: [.ascending("id")]))
            try await controller.performFetch()
            controllers.append(controller)
        }
        #expect(reader.readCount.load(ordering: .relaxed) >= 1_000)
        let onPrimary = try await PostgresServer.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = '\(application)'")
        #expect(onPrimary.first?["n"] == 0, "no reader connection reaches the primary")
        let standby = try PostgresConnection.open(Self.standbyURL(searchPath: namespace, application: "fkt-check"))
        let onStandby = try standby.execute(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = '\(application)'")
        #expect(try onStandby.value(row: 0, column: 0) == 2, "the two readers are the standby's")
        standby.close()
        try await writer.write { tx in _ = try tx.update("Todo", key: 1, set: ["priority": 4]) }
        for (index, controller) in controllers.enumerated() where index % 100 == 0 {
            let fresh = try await reader.fetch(controller.request.erased)
            await controller.sync()
            #expect(fresh.map { $0["id"] } == controller.fetchedObjects.map { $0["id"] })
        }
        await reader.close()
        await writer.close()
    }

    /// With the triggers, a token from another instance is waited for through an empty write's notification.
    @Test func theTriggerFeedWaitsForATokenToo() async throws {
        #expect(try await Self.staleReads(feed: .triggers, onStandby: false, trials: 20) == 0)
    }

    /// A token past the end of the database's log (another database's, or made up) is refused, and reading
    /// from a replica without the logical feed is refused at open.
    @Test func anImpossibleTokenAndAReplicaWithoutTheLogicalFeedAreRefused() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed: .logical))
        await #expect {
            try await store.waitForPublication(through: CommitToken(position: 1 << 62))
        } throws: { error in
            (error as? FetchKitError)?.code == .invalidValue
                && "\(error)".contains("past the end of the database's log")
        }
        await #expect {
            _ = try await PostgresStore.open(
                url: PostgresServer.url(searchPath: namespace), schema: Fixtures.schema,
                options: Self.options(feed: .triggers, replica: try Self.standbyURL(searchPath: namespace)))
        } throws: { error in
            (error as? FetchKitError)?.code == .unsupported && "\(error)".contains("needs the logical change feed")
        }
        await store.close()
    }
}
