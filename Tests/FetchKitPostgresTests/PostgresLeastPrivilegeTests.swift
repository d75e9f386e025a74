import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// An app role as production grants it: SELECT, INSERT, UPDATE and DELETE on its tables, nothing more — no
/// `CREATE` on the database, no ownership. It opens a store, writes and follows live results once a DBA has
/// installed change capture; without it, opening says which right is missing and how to install it.
@Suite("PostgreSQL least privilege", .requiresPostgreSQL)
struct PostgresLeastPrivilegeTests {
    /// A role that may only read and write the tables of `namespace`, and the URL that logs in as it.
    static func appRole(for namespace: String) async throws -> (role: String, url: PostgresURL) {
        let role = PostgresServer.uniqueName("fk_app")
        try await PostgresServer.administer(
            """
            CREATE ROLE \(role) LOGIN;
            GRANT USAGE ON SCHEMA \(namespace) TO \(role);
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(namespace) TO \(role);
            """)
        let server = try PostgresServer.url()
        let host = try #require(server["host"])
        let port = server["port"] ?? "5432"
        let database = try #require(server["dbname"])
        let url = try PostgresURL(
            "postgresql://\(role)@\(host):\(port)/\(database)?options=-c%20search_path%3D\(namespace),public")
        return (role, url)
    }

    /// The schema's tables, change capture and sample rows, made by the server's superuser (the DBA).
    static func provisioned() async throws -> String {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        await store.close()
        return namespace
    }

    @Test func anAppRoleWithOnlyTableRightsOpensWritesAndFollowsLiveResults() async throws {
        let namespace = try await Self.provisioned()
        let (role, url) = try await Self.appRole(for: namespace)
        #expect(
            try await PostgresServer.query(
                "SELECT has_database_privilege('\(role)', current_database(), 'CREATE') AS c"
            ).first?["c"] == .bool(false))
        let store = try await PostgresStore.open(url: url, schema: Fixtures.schema, options: .init(readerCount: 2))
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        try await store.write { tx in
            // A chosen key (the role may not move the identity sequence: it is left alone) and an assigned one.
            try tx.insert(Fixtures.TodoRecord(id: 500, title: "chosen key", categoryID: 2))
            let inserted = try tx.insert(Fixtures.TodoRecord(id: nil, title: "assigned key", categoryID: 1))
            #expect(inserted.id == 11)
            _ = try tx.update("Todo", key: 2, set: ["categoryID": 2])
            _ = try tx.delete("Todo", key: 5)
        }
        await controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        // Another client's write reaches the app's controller through the triggers the DBA installed.
        try await PostgresServer.administer("UPDATE \(namespace).todo SET title = 'by the DBA' WHERE id = 3")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        await store.close()
    }

    @Test func missingCaptureIsAPermissionErrorThatSaysWhatToRun() async throws {
        let namespace = try await Self.provisioned()
        let (_, url) = try await Self.appRole(for: namespace)
        try await PostgresServer.administer("DROP TRIGGER fetchkit_capture_update ON \(namespace).todo")
        let error = await #expect(throws: FetchKitError.self) {
            try await PostgresStore.open(url: url, schema: Fixtures.schema)
        }
        guard let error, error.code == .permissionDenied else {
            Issue.record("expected permissionDenied, got \(String(describing: error))")
            return
        }
        let message = error.message
        #expect(
            message.contains("triggers of table 'todo'") && message.contains("ownership of the table"), "\(message)"
        )
        #expect(message.contains("fetchkit capture-sql"), "\(message)")

        // The DBA runs the script — from the schema, or read from the database as `fetchkit capture-sql` does.
        let script = PostgresStore.changeCaptureSQL(for: Fixtures.schema, namespace: namespace)
        let read = try await PostgresStore.changeCaptureSQL(
            forTables: Fixtures.schema.entities.map(\.table), url: PostgresServer.url(searchPath: namespace))
        #expect(script == read)
        #expect(script.hasPrefix("BEGIN;\n") && script.hasSuffix("COMMIT;\n"))
        #expect(
            script.contains("CREATE TRIGGER \"fetchkit_capture_update\" AFTER UPDATE ON \"\(namespace)\".\"todo\""))
        try await PostgresServer.administer(script)
        let store = try await PostgresStore.open(url: url, schema: Fixtures.schema)
        try await store.write { tx in try tx.insert(Fixtures.CategoryRecord(id: 9, name: "Garden", position: 4)) }
        #expect(try await store.count(FetchRequest(entity: "Category")) == 4)
        await store.close()
    }

    @Test func theScriptIsIdempotentAndNamesEveryTable() async throws {
        let script = PostgresStore.changeCaptureSQL(
            for: Fixtures.schema, options: .init(channel: "app_changes", notificationRowLimit: 50))
        for entity in Fixtures.schema.entities {
            for event in ["insert", "update", "delete", "truncate"] {
                #expect(
                    script.contains("DROP TRIGGER IF EXISTS \"fetchkit_capture_\(event)\" ON \"\(entity.table)\""))
            }
        }
        #expect(script.contains("'50', 'app_changes')"))
        #expect(script.contains("CREATE OR REPLACE FUNCTION \"fetchkit\".capture()"))
        let namespace = try await Self.provisioned()
        try await PostgresServer.administer("SET search_path = \(namespace); " + script + script)
    }
}
