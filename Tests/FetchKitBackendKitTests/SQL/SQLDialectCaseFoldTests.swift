@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitBackendKit

/// The case fold composed from `lower` and `upper` (PostgreSQL with ICU): written around each folded
/// operand, inside the fold collation, on both sides of a comparison and in case-insensitive sorts.
@Suite("SQLDialect: composed case fold")
struct SQLDialectCaseFoldTests {
    static var compiler: SQLCompiler {
        var dialect = SQLDialect(name: "Dollar", placeholderStyle: .dollarNumbered, textOrderCollation: "C")
        dialect.caseFoldCollation = "und-x-icu"
        dialect.caseFoldComposition = .lowerUpperLower
        return SQLCompiler(schema: Fixtures.schema, dialect: dialect)
    }

    static let fold = #"replace(lower(upper(lower(t0."title" COLLATE "und-x-icu"))), 'ς', 'σ')"#

    @Test func equalityFoldsBothSides() throws {
        let statement = try Self.compiler.count(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "title ==[c] 'ß'")).erased)
        #expect(
            statement.sql.hasSuffix(Self.fold + #" = replace(lower(upper(lower($1 COLLATE "und-x-icu"))), 'ς', 'σ')"#),
            "\(statement.sql)")
        #expect(statement.bindings == [.text("ß")])
    }

    @Test func orderComparisonsCollateTheFoldedBound() throws {
        let statement = try Self.compiler.count(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "title <[c] 'b'")).erased)
        #expect(
            statement.sql.hasSuffix(
                Self.fold
                    + #" COLLATE "C" < (replace(lower(upper(lower($1 COLLATE "und-x-icu"))), 'ς', 'σ') COLLATE "C")"#),
            "\(statement.sql)")
    }

    @Test func caseInsensitiveSortsFold() throws {
        let fetch = try Self.compiler.fetch(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title", caseInsensitive: true)]).erased)
        #expect(fetch.statement.sql.contains("ORDER BY " + Self.fold + #" COLLATE "C" ASC"#), "\(fetch.statement.sql)")
    }

    @Test func aSingleFunctionIsTheDefault() {
        let dialect = SQLDialect(placeholderStyle: .questionMark)
        #expect(dialect.caseFoldComposition == .single)
    }
}
