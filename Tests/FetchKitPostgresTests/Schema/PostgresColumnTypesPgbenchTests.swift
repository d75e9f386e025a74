import FetchKit
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// pgbench's tables as `pgbench -i` makes them (integer keys and balances, char(n) fillers), watched as they
/// are: described, followed by live controllers while pgbench's own transaction runs from another client,
/// and by `fetchkit watch`.
@Suite("PostgreSQL column types: pgbench's tables", .requiresPostgreSQL)
struct PostgresColumnTypesPgbenchTests {
    /// `pgbench -i -s 1`'s tables with 1,000 accounts (pgbench makes 100,000).
    static let ddl = """
        CREATE TABLE pgbench_branches (bid integer NOT NULL PRIMARY KEY, bbalance integer, filler character(88));
        CREATE TABLE pgbench_tellers (tid integer NOT NULL PRIMARY KEY, bid integer, tbalance integer, filler \
        character(84));
        CREATE TABLE pgbench_accounts (aid integer NOT NULL PRIMARY KEY, bid integer, abalance integer, filler \
        character(84));
        CREATE TABLE pgbench_history (tid integer, bid integer, aid integer, delta integer, mtime timestamp,
        filler \
        character(22));
        INSERT INTO pgbench_branches (bid, bbalance) VALUES (1, 0);
        INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT g, 1, 0 FROM generate_series(1, 10) AS g;
        INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT g, 1, 0, '' FROM generate_series(1,
        1000) AS g;
        """

    /// pgbench's built-in TPC-B-like transaction for account `aid`, teller `tid` and `delta`.
    static func transaction(aid: Int, tid: Int, delta: Int) -> String {
        """
        BEGIN;
        UPDATE pgbench_accounts SET abalance = abalance + \(delta) WHERE aid = \(aid);
        SELECT abalance FROM pgbench_accounts WHERE aid = \(aid);
        UPDATE pgbench_tellers SET tbalance = tbalance + \(delta) WHERE tid = \(tid);
        UPDATE pgbench_branches SET bbalance = bbalance + \(delta) WHERE bid = 1;
        INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (\(tid), 1, \(aid), \(delta), \
        CURRENT_TIMESTAMP);
        END;
        """
    }

    @Test func pgbenchTablesAreDescribedAndFollowedAsTheyAre() async throws {
        let namespace = try await NativeTables.namespace(Self.ddl)
        let accounts = try await NativeTables.describe("pgbench_accounts", in: namespace)
        #expect(accounts.primaryKey == .integer("aid"))
        #expect(
            accounts.attributes.map { "\($0.name) \($0.type.rawValue) \($0.isOptional)" }
                == ["aid integer false", "bid integer true", "abalance integer true", "filler text true"])
        await NativeTables.expectError(containing: ["pgbench_history", "primary key"]) {
            _ = try await NativeTables.describe("pgbench_history", in: namespace)
        }
        let tellers = try await NativeTables.describe("pgbench_tellers", in: namespace)
        let store = try await NativeTables.open(try Schema([accounts, tellers]), in: namespace)
        let requests = [
            FetchRequest(
                entity: "pgbench_accounts", predicate: .key("abalance") != 0,
                sortDescriptors: [.descending("abalance")]
            ),
            FetchRequest(entity: "pgbench_accounts", sortDescriptors: [.ascending("abalance")], fetchLimit: 5),
            FetchRequest(entity: "pgbench_tellers", sortDescriptors: [.ascending("tbalance"), .ascending("filler")])
        ]
        var followed: [(ResultsController<Row>, ResultsRecorder<Row>)] = []
        for request in requests { followed.append(try await NativeTables.follow(request, on: store)) }
        for (round, (aid, tid, delta)) in [(17, 3, -4000), (999, 3, 2500), (17, 9, 4000), (5, 1, -1)].enumerated() {
            try await NativeTables.otherClient(Self.transaction(aid: aid, tid: tid, delta: delta), in: namespace)
            if round == 2 {
                try await store.write { tx in
                    try tx.update("pgbench_accounts", key: 1000, set: ["abalance": 7, "filler": "touched"])
                    try tx.update("pgbench_tellers", key: 2, set: ["filler": "b"])
                }
            }
            for (controller, recorder) in followed {
                try await ResultsOracle.converge(
                    controller, recorder, in: store,
                    primaryKey: controller.request.entityName == "pgbench_tellers" ? "tid" : "aid")
            }
        }
        #expect(followed[0].0.fetchedObjects.map { $0["aid"] } == [999, 1000, 5])
        #expect(followed[1].0.fetchedObjects.first?["aid"] == 5)
        let touched = try await store.fetch(
            FetchRequest(entity: "pgbench_accounts", predicate: .key("filler") == "touched"))
        #expect(touched.map { $0["aid"] } == [1000])
        await store.close()
    }

    @Test func fetchkitWatchFollowsPgbenchAccounts() async throws {
        let namespace = try await NativeTables.namespace(Self.ddl)
        let watch = try ChildProcess(
            try BuildProducts.executable("fetchkit"),
            [
                "watch", "--store", try PostgresServer.urlText(searchPath: namespace), "--entity",
                "pgbench_accounts", "--where", "abalance != 0", "--sort=-abalance", "--json"
            ], mergingStandardError: false)
        let results = try await watch.line(0)
        #expect(results.hasPrefix(#"{"type":"results""#), "\(results)")
        try await NativeTables.otherClient(Self.transaction(aid: 42, tid: 1, delta: 300), in: namespace)
        let batch = try await watch.line(1)
        #expect(batch.hasPrefix(#"{"type":"batch""#) && batch.contains("300"), "\(batch)")
        #expect(batch.contains(#""countsBefore":[0]"#) && batch.contains(#""countsAfter":[1]"#), "\(batch)")
        watch.interrupt()
        #expect(try await watch.exit() == 0)
    }
}
