@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

@testable import FetchKitBackendKit

@Suite("SQLite dialect: capabilities and golden SQL")
struct SQLiteDialectTests {
    let compiler = SQLCompiler(schema: Fixtures.schema, dialect: .sqlite)

    @Test func capabilities() {
        let dialect = SQLDialect.sqlite
        #expect(dialect.placeholderStyle == .questionMark)
        #expect(dialect.placeholder(3) == "?")
        #expect(dialect.caseFoldFunction == "fk_casefold")
        #expect(dialect.diacriticFoldFunction == "fk_unaccent")
        #expect(dialect.textOrderCollation == nil)
        #expect(dialect.nullSafeEqualOperator == "IS")
        #expect(dialect.nullSafeNotEqualOperator == "IS NOT")
        #expect(dialect.supportsNullsOrdering)
        #expect(dialect.largeListExpansion == .jsonEach)
        #expect(!dialect.supportsRegex)
        #expect(dialect.upsertSyntax == .onConflictDoUpdate)
        #expect(dialect.supportsReturning)
        #expect(dialect.offsetWithoutLimit == "LIMIT -1")
        #expect(dialect.integerPrimaryKeyDefinition == "INTEGER PRIMARY KEY")
        #expect(
            AttributeType.allCases.map(dialect.columnType(for:))
                == ["INTEGER", "FLOAT8_BLOB", "TEXT", "INTEGER", "INTEGER", "BLOB"])
        // SQLite gives a declared type containing "BLOB" (and no "INT", "CHAR", "CLOB" or "TEXT") BLOB affinity.
        let double = dialect.columnType(for: .double)
        #expect(double.contains("BLOB") && !["INT", "CHAR", "CLOB", "TEXT"].contains { double.contains($0) })
    }

    @Test func fetchWithSectionsSortsAndWindow() throws {
        var request = FetchRequest(
            entity: "Todo",
            predicate: try FetchPredicate(format: "done == NO AND category.name BEGINSWITH[c] %@", "w"),
            sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
            fetchLimit: 10, fetchOffset: 5, propertiesToFetch: ["title"])
        request.sectionNameKeyPath = "category.name"
        let fetch = try compiler.fetch(request.erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id", t0."title" AS "title", "#
                + #"t1."name" AS "category.name", t0."ordering" AS "ordering" FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE (t0."done" = ? AND fk_casefold(t1."name") LIKE fk_casefold(?) ESCAPE '\') "#
                + #"ORDER BY t1."name" ASC NULLS FIRST, t0."ordering" ASC NULLS FIRST, t0."id" ASC LIMIT ? OFFSET ?"#)
        #expect(fetch.statement.bindings == [.bool(false), .text("w%"), .integer(10), .integer(5)])
    }

    @Test func longListsUseJSONEach() throws {
        let ids = (1...65).map { Value.integer(Int64($0)) }
        let predicate = FetchPredicate.comparison(.init(.object, .in, .list(ids)))
        let count = try compiler.count(FetchRequest(entity: "Todo", predicate: predicate).erased)
        #expect(count.sql == #"SELECT COUNT(*) FROM "todo" AS t0 WHERE t0."id" IN (SELECT value FROM json_each(?))"#)
        #expect(count.bindings == [.text("[" + (1...65).map(String.init).joined(separator: ",") + "]")])
        let short = try compiler.count(
            FetchRequest(
                entity: "Todo", predicate: .comparison(.init(.object, .in, .list(Array(ids.prefix(64)))))
            ).erased)
        #expect(short.bindings.count == 64)
    }

    @Test func writesAndTables() throws {
        #expect(
            try compiler.insert(["slug": "a", "body": "b"], into: Fixtures.note)
                == SQLStatement(
                    sql: #"INSERT INTO "note" ("slug", "body", "pinned") VALUES (?, ?, ?) RETURNING "slug""#,
                    bindings: [.text("a"), .text("b"), .bool(false)]))
        #expect(
            compiler.createTable(Fixtures.category).map(\.sql) == [
                #"CREATE TABLE IF NOT EXISTS "category" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "#
                    + #""position" INTEGER NOT NULL)"#,
                #"CREATE INDEX IF NOT EXISTS "category_name_idx" ON "category" ("name")"#
            ])
        let matches = FetchKitError.unsupported(
            "MATCHES", detail: "regular expressions differ between backends", offset: 0)
        #expect(throws: matches) {
            let predicate = try FetchPredicate(format: "title MATCHES 'a.*'")
            return try compiler.count(FetchRequest(entity: "Todo", predicate: predicate).erased)
        }
    }
}
