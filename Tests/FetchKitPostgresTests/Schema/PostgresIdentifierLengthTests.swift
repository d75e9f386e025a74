@_spi(Backend) import FetchKit
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// PostgreSQL keeps 63 bytes of an identifier and cuts the rest without an error: a store refuses a schema
/// whose table or column is longer when it opens, naming it, before it creates anything; 63 bytes work.
@Suite("PostgreSQL: identifiers longer than 63 bytes", .requiresPostgreSQL)
struct PostgresIdentifierLengthTests {
    private static func schema(table: String, column: String = "title") throws -> Schema {
        try Schema([
            Entity(
                "Item", table: table,
                attributes: [Attribute("title", .text, column: column, indexed: true), Attribute("rank", .integer)])
        ])
    }

    /// The relations in `namespace` (tables, indexes, sequences).
    private static func relations(in namespace: String) async throws -> [String] {
        try await PostgresServer.query(
            "SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = '\(namespace)' ORDER BY 1"
        ).compactMap { $0["name", as: String.self] }
    }

    @Test("the dialect's limit is NAMEDATALEN - 1")
    func limit() {
        #expect(SQLDialect.postgres.maxIdentifierBytes == 63)
    }

    @Test("a 64-byte table or column is refused with invalidSchema naming it; nothing is created")
    func refused() async throws {
        let long = "item_" + String(repeating: "x", count: 59)
        for (what, schema) in [
            ("table", try Self.schema(table: long)), ("column", try Self.schema(table: "item", column: long))
        ] {
            let namespace = PostgresServer.uniqueName("fkt")
            let error = await #expect(throws: FetchKitError.self) {
                let store = try await PostgresServer.isolatedStore(schema: schema, namespace: namespace)
                await store.close()
            }
            #expect(error?.code == .invalidSchema, "\(what): \(String(describing: error))")
            #expect(error?.entity == "Item", "\(what): \(String(describing: error))")
            let message = error?.message ?? ""
            #expect(
                message.contains("'\(long)'") && message.contains("64 bytes") && message.contains("63 bytes"),
                "\(what): \(message)")
            #expect(try await Self.relations(in: namespace).isEmpty, "\(what): a refused schema created relations")
            try await PostgresServer.administer("DROP SCHEMA \(namespace) CASCADE")
        }
    }

    @Test("63-byte names work: written, read, reopened; the index name is cut as PostgreSQL would")
    func longestAccepted() async throws {
        let table = "item_" + String(repeating: "t", count: 58)
        let column = "title_" + String(repeating: "c", count: 57)
        let schema = try Self.schema(table: table, column: column)
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(schema: schema, namespace: namespace)
        try await store.write { tx in _ = try tx.insert(["title": "kept", "rank": 1], into: "Item") }
        let rows = try await store.fetch(FetchRequest(entity: "Item", predicate: .key("title") == "kept"))
        #expect(rows.map { $0["rank"] } == [.integer(1)])
        await store.close()
        let relations = try await Self.relations(in: namespace)
        #expect(
            relations.contains(table) && relations.contains(SQLDialect.postgres.indexName(table: table, column: column))
        )
        // An existing table with such names validates.
        let reopened = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: schema, options: .init(readerCount: 1))
        #expect(try await reopened.count(FetchRequest(entity: "Item")) == 1)
        await reopened.close()
        try await PostgresServer.administer("DROP SCHEMA \(namespace) CASCADE")
    }
}
