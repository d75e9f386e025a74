import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// PostgreSQL's refusals as typed errors: a read-only transaction, a missing right, a full disk.
@Suite("PostgreSQL errors")
struct PostgresErrorTests {
    @Test(
        "a read-only transaction and a role without the right are typed errors; the write rolls back whole",
        .requiresPostgreSQL)
    func readOnlyAndPermissionDenied() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                _ = try tx.execute("SET TRANSACTION READ ONLY", [])
                try tx.insert(Fixtures.TodoRecord(title: "refused"))
            }
        }
        do {
            try await store.write { tx in
                _ = try tx.execute("SET TRANSACTION READ ONLY", [])
                try tx.insert(Fixtures.TodoRecord(title: "refused"))
            }
        } catch let error as FetchKitError where error.code == .readOnly {
            let message = error.message
            #expect(message.contains("read-only"), "\(message)")
        }
        let role = PostgresServer.uniqueName("fk_nobody")
        // The role may use the schema, but has no right on its tables.
        try await PostgresServer.administer("CREATE ROLE \(role) NOLOGIN")
        try await PostgresServer.administer("GRANT USAGE ON SCHEMA \(namespace) TO \(role)")
        do {
            try await store.write { tx in
                _ = try tx.execute("SET LOCAL ROLE \(role)", [])
                try tx.insert(Fixtures.TodoRecord(title: "refused"))
            }
            Issue.record("a role without rights wrote")
        } catch let error as FetchKitError where error.code == .permissionDenied {
            let message = error.message
            #expect(message.contains("permission denied"), "\(message)")
        }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10, "a refused write left rows")
        await store.close()
        try await PostgresServer.administer("REVOKE USAGE ON SCHEMA \(namespace) FROM \(role)")
        try await PostgresServer.administer("DROP ROLE \(role)")
    }

    @Test(
        "an entity whose table is a view is refused when the store opens, with a message that says so",
        .requiresPostgreSQL)
    func viewAsEntity() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer("CREATE SCHEMA \(namespace)")
        try await PostgresServer.administer("CREATE TABLE \(namespace).items (id bigint PRIMARY KEY, name text)")
        try await PostgresServer.administer(
            "CREATE VIEW \(namespace).item_view AS SELECT * FROM \(namespace).items")
        let schema = try Schema([
            Entity(
                "Item", table: "item_view", primaryKey: .integer("id"), attributes: [Attribute("name", .text)])
        ])
        do {
            let store = try await PostgresStore.open(url: PostgresServer.url(searchPath: namespace), schema: schema)
            await store.close()
            Issue.record("a view opened as an entity's table")
        } catch let error as FetchKitError where error.code == .unsupported {
            let message = error.message
            #expect(message.contains("'item_view' is a view") && message.contains("Item"), "\(message)")
        }
    }

    @Test("SQLSTATEs of a full disk, a read-only transaction and a missing right map to their cases")
    func mapping() {
        func error(_ state: String) -> FetchKitError {
            PostgresErrorMapping.error(state: state, message: "m", constraint: nil, column: nil, sql: nil)
        }
        #expect(error("53100") == .diskFull("m"))
        #expect(error("25006") == .readOnly("m"))
        #expect(error("42501") == .permissionDenied("m"))
    }

    @Test("the backend, not the core, says which SQLSTATEs are transient")
    func transience() {
        func error(_ state: String) -> FetchKitError {
            PostgresErrorMapping.error(state: state, message: "m", constraint: nil, column: nil, sql: nil)
        }
        for state in ["57014", "53200", "58030", "40001", "08006", "57P01", "55P03"] {
            #expect(error(state).isTransient, "\(state)")
        }
        for state in ["42P01", "22P02", "XX000", "23505", "42501"] {
            #expect(!error(state).isTransient, "\(state)")
        }
        #expect(error("57014").code == .database && error("57014").message.hasPrefix("SQLSTATE 57014"))
        #expect(!FetchKitError(.database, message: "SQLSTATE 57014: canceled", databaseCode: 0).isTransient)
    }
}
