@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitBackendKit

/// NSPredicate's empty needle in SQL: `BEGINSWITH ''`, `ENDSWITH ''`, `CONTAINS ''` match nothing, with or
/// without `[c]` / `[d]`; a key path needle must not be empty; `LIKE ''` matches the empty text only.
@Suite("SQLCompiler: empty needles")
struct SQLCompilerEmptyNeedleTests {
    let compiler = SQLCompiler(schema: Fixtures.schema, dialect: SQLDialect(name: "Q", placeholderStyle: .questionMark))

    /// The `WHERE` clause of a count of todos with `format`, and its bindings.
    func whereClause(_ format: String) throws -> SQLStatement {
        let statement = try compiler.count(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: format)).erased)
        let prefix = "SELECT COUNT(*) FROM \"todo\" AS t0 WHERE "
        #expect(statement.sql.hasPrefix(prefix), "no plain WHERE in \(statement.sql)")
        return SQLStatement(sql: String(statement.sql.dropFirst(prefix.count)), bindings: statement.bindings)
    }

    @Test(arguments: [
        "title BEGINSWITH ''", "title ENDSWITH ''", "title CONTAINS ''", "title CONTAINS[c] ''",
        "notes BEGINSWITH[c] ''", "title == 'x' OR title CONTAINS ''"
    ])
    func constantEmptyNeedleIsFalse(format: String) throws {
        let statement = try whereClause(format)
        #expect(statement.sql.contains("1 = 0"), "\(statement.sql)")
        #expect(!statement.sql.contains("LIKE"), "\(statement.sql)")
    }

    @Test func anOptionTheBackendLacksIsStillRefused() throws {
        // Refused by the backend, at the comparison's place in the format string.
        #expect(throws: FetchKitError.unsupported("diacritic-insensitive comparison ([d]) on Q", offset: 0)) {
            try whereClause("title CONTAINS[d] ''")
        }
    }

    @Test func keyPathNeedleMustNotBeEmpty() throws {
        let statement = try whereClause("title CONTAINS[c] notes")
        #expect(statement.sql.hasPrefix("(lower(t0.\"title\") LIKE lower('%' || replace("), "\(statement.sql)")
        #expect(statement.sql.hasSuffix(#"ESCAPE '\' AND t0."notes" <> '')"#), "\(statement.sql)")
    }

    @Test func likeEmptyKeepsItsMeaning() throws {
        #expect(
            try whereClause("title LIKE ''")
                == SQLStatement(sql: #"t0."title" LIKE ? ESCAPE '\'"#, bindings: [.text("")]))
    }
}
