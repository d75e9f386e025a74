@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitBackendKit

/// Dialects for golden-SQL tests: one shaped like SQLite (`?`), one like PostgreSQL (`$N`).
/// The core's tests cannot import the SQLite backend, so they spell out an equivalent dialect.
enum TestDialects {
    /// `?` placeholders, SQLite-style fold functions and operators, JSON list expansion above 3 values.
    static let question = SQLDialect(
        name: "QuestionSQL", placeholderStyle: .questionMark, caseFoldFunction: "fk_casefold",
        diacriticFoldFunction: "fk_unaccent", nullSafeEqualOperator: "IS", nullSafeNotEqualOperator: "IS NOT",
        largeListExpansion: .jsonEach, inlineListLimit: 3,
        columnTypes: [
            .integer: "INTEGER", .double: "FLOAT8_BLOB", .text: "TEXT", .bool: "INTEGER",
            .date: "INTEGER", .binary: "BLOB"
        ],
        integerPrimaryKeyDefinition: "INTEGER PRIMARY KEY", offsetWithoutLimit: "LIMIT -1")

    /// `$N` placeholders, `lower`, no diacritic fold, `COLLATE "C"`, emulated NULL ordering,
    /// `= ANY(…)` list expansion above 3 values.
    static let dollar = SQLDialect(
        name: "DollarSQL", placeholderStyle: .dollarNumbered, caseFoldFunction: "lower",
        textOrderCollation: "C", supportsNullsOrdering: false, largeListExpansion: .anyArray, inlineListLimit: 3)

    static let questionCompiler = SQLCompiler(schema: Fixtures.schema, dialect: question)
    static let dollarCompiler = SQLCompiler(schema: Fixtures.schema, dialect: dollar)
}

/// Every column of a full `Todo` fetch, as the compiler writes them.
let todoColumns =
    #"t0."id" AS "id", t0."title" AS "title", t0."notes" AS "notes", t0."priority" AS "priority", "#
    + #"t0."ordering" AS "ordering", t0."done" AS "done", t0."due" AS "due", t0."attachment" AS "attachment", "#
    + #"t0."category_id" AS "categoryID""#

@Suite("SQLCompiler: fetch and count")
struct SQLCompilerFetchTests {
    let compiler = TestDialects.questionCompiler
    let dollar = TestDialects.dollarCompiler

    @Test func fetchAllSelectsEveryAttributeAndOrdersByKey() throws {
        let fetch = try compiler.fetch(FetchRequest(entity: "Todo").erased)
        #expect(fetch.statement.sql == "SELECT \(todoColumns) FROM \"todo\" AS t0 ORDER BY t0.\"id\" ASC")
        #expect(fetch.statement.bindings.isEmpty)
        #expect(
            fetch.columns.map(\.name) == [
                "id", "title", "notes", "priority", "ordering", "done", "due", "attachment", "categoryID"
            ])
        #expect(
            fetch.columns.map(\.type) == [
                .integer, .text, .text, .integer, .double, .bool, .date, .binary,
                .integer
            ])
    }

    @Test func propertiesToFetchPutTheKeyFirst() throws {
        let request = FetchRequest(entity: "Todo", propertiesToFetch: ["title", "done", "title"])
        let fetch = try compiler.fetch(request.erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id", t0."title" AS "title", t0."done" AS "done" "#
                + #"FROM "todo" AS t0 ORDER BY t0."id" ASC"#)
        #expect(
            fetch.columns == [
                ResultColumn(name: "id", type: .integer), ResultColumn(name: "title", type: .text),
                ResultColumn(name: "done", type: .bool)
            ])
    }

    @Test func textPrimaryKeyEndsTheOrder() throws {
        let fetch = try compiler.fetch(FetchRequest(entity: "Note", sortDescriptors: [.descending("pinned")]).erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."slug" AS "slug", t0."body" AS "body", t0."pinned" AS "pinned" "#
                + #"FROM "note" AS t0 ORDER BY t0."pinned" DESC, t0."slug" ASC"#)
    }

    @Test func whereClauseBindsValues() throws {
        let predicate = FetchPredicate.and([
            .comparison(.init(.key("done"), .equal, .value(false))),
            .comparison(.init(.key("priority"), .greaterThan, .value(2)))
        ])
        let fetch = try compiler.fetch(FetchRequest(entity: "Todo", predicate: predicate, propertiesToFetch: []).erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id" FROM "todo" AS t0 "#
                + #"WHERE (t0."done" = ? AND t0."priority" > ?) ORDER BY t0."id" ASC"#)
        #expect(fetch.statement.bindings == [.bool(false), .integer(2)])
    }

    @Test func sortAndSectionKeyPathsShareOneJoin() throws {
        var request = FetchRequest(
            entity: "Todo",
            predicate: .comparison(.init(.key("category.name"), .beginsWith, .value("W"))),
            sortDescriptors: [.ascending("category.name"), .ascending("category.position"), .descending("priority")],
            propertiesToFetch: ["title"])
        request.sectionNameKeyPath = "category.name"
        let fetch = try compiler.fetch(request.erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id", t0."title" AS "title", "#
                + #"t1."name" AS "category.name", t1."position" AS "category.position", t0."priority" AS "priority" "#
                + #"FROM "todo" AS t0 LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE t1."name" LIKE ? ESCAPE '\' "#
                + #"ORDER BY t1."name" ASC NULLS FIRST, t1."position" ASC NULLS FIRST, t0."priority" DESC, "#
                + #"t0."id" ASC"#)
        #expect(fetch.statement.bindings == [.text("W%")])
        #expect(fetch.columns.map(\.name) == ["id", "title", "category.name", "category.position", "priority"])
        #expect(fetch.columns.map(\.type) == [.integer, .text, .text, .integer, .integer])
    }

    @Test func sortsFoldCaseAndPlaceNulls() throws {
        let request = FetchRequest(
            entity: "Todo",
            sortDescriptors: [
                .ascending("title", caseInsensitive: true), .descending("ordering"),
                .ascending("notes", caseInsensitive: true),
                .ascending("priority", caseInsensitive: true)
            ],
            propertiesToFetch: [])
        let fetch = try compiler.fetch(request.erased)
        #expect(
            fetch.statement.sql.hasSuffix(
                #"ORDER BY fk_casefold(t0."title") ASC, t0."ordering" DESC NULLS LAST, "#
                    + #"fk_casefold(t0."notes") ASC NULLS FIRST, t0."priority" ASC, t0."id" ASC"#))
    }

    @Test func dollarDialectCollatesTextAndEmulatesNullOrdering() throws {
        let request = FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("notes"), .descending("category.name", caseInsensitive: true)],
            propertiesToFetch: [])
        let fetch = try dollar.fetch(request.erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id", t0."notes" AS "notes", "#
                + #"t1."name" AS "category.name" "#
                + #"FROM "todo" AS t0 LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"ORDER BY (t0."notes" COLLATE "C" IS NULL) DESC, t0."notes" COLLATE "C" ASC, "#
                + #"(lower(t1."name") COLLATE "C" IS NULL) ASC, lower(t1."name") COLLATE "C" DESC, t0."id" ASC"#)
    }

    @Test func sortingByTheKeyNeedsNoTiebreaker() throws {
        let fetch = try compiler.fetch(
            FetchRequest(
                entity: "Todo", sortDescriptors: [.descending("id")],
                propertiesToFetch: []
            ).erased)
        #expect(fetch.statement.sql.hasSuffix(#"ORDER BY t0."id" DESC"#))
        let folded = try compiler.fetch(
            FetchRequest(
                entity: "Note", sortDescriptors: [.ascending("slug", caseInsensitive: true)], propertiesToFetch: []
            ).erased)
        #expect(folded.statement.sql.hasSuffix(#"ORDER BY fk_casefold(t0."slug") ASC, t0."slug" ASC"#))
    }

    @Test func limitAndOffsetAreBound() throws {
        let both = try compiler.fetch(
            FetchRequest(
                entity: "Note", fetchLimit: 10, fetchOffset: 20,
                propertiesToFetch: []
            ).erased)
        #expect(both.statement.sql.hasSuffix(#"ORDER BY t0."slug" ASC LIMIT ? OFFSET ?"#))
        #expect(both.statement.bindings == [.integer(10), .integer(20)])
        let limit = try compiler.fetch(FetchRequest(entity: "Note", fetchLimit: 0, propertiesToFetch: []).erased)
        #expect(limit.statement.sql.hasSuffix(#"ASC LIMIT ?"#))
        #expect(limit.statement.bindings == [.integer(0)])
        let offset = try compiler.fetch(FetchRequest(entity: "Note", fetchOffset: 5, propertiesToFetch: []).erased)
        #expect(offset.statement.sql.hasSuffix(#"ASC LIMIT -1 OFFSET ?"#))
        #expect(offset.statement.bindings == [.integer(5)])
        let dollarOffset = try dollar.fetch(FetchRequest(entity: "Note", fetchOffset: 5, propertiesToFetch: []).erased)
        #expect(dollarOffset.statement.sql.hasSuffix(#"ASC OFFSET $1"#))
    }

    @Test func placeholdersAreNumberedInTextOrder() throws {
        let predicate = FetchPredicate.or([
            .comparison(.init(.key("title"), .equal, .value("a"))),
            .comparison(.init(.key("category.name"), .equal, .value("b")))
        ])
        let fetch = try dollar.fetch(
            FetchRequest(
                entity: "Todo", predicate: predicate, fetchLimit: 3, fetchOffset: 4,
                propertiesToFetch: []
            ).erased)
        #expect(
            fetch.statement.sql == #"SELECT t0."id" AS "id" FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE (t0."title" = $1 OR t1."name" = $2) ORDER BY t0."id" ASC LIMIT $3 OFFSET $4"#)
        #expect(fetch.statement.bindings == [.text("a"), .text("b"), .integer(3), .integer(4)])
    }

    @Test func countAppliesPredicateJoinsAndWindow() throws {
        let predicate = FetchPredicate.comparison(.init(.key("category.name"), .equal, .value("Work")))
        let count = try compiler.count(
            FetchRequest(
                entity: "Todo", predicate: predicate,
                sortDescriptors: [.ascending("title")]
            ).erased)
        #expect(
            count.sql == #"SELECT COUNT(*) FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" WHERE t1."name" = ?"#)
        #expect(count.bindings == [.text("Work")])
        let all = try compiler.count(FetchRequest(entity: "Category").erased)
        #expect(all == SQLStatement(sql: #"SELECT COUNT(*) FROM "category" AS t0"#, bindings: []))
        let windowed = try dollar.count(
            FetchRequest(
                entity: "Category",
                predicate: .comparison(
                    .init(.key("position"), .lessThan, .value(5))), fetchLimit: 2, fetchOffset: 1
            ).erased)
        #expect(
            windowed.sql == #"SELECT COUNT(*) FROM (SELECT 1 FROM "category" AS t0 WHERE t0."position" < $1 "#
                + #"LIMIT $2 OFFSET $3) AS c"#)
        #expect(windowed.bindings == [.integer(5), .integer(2), .integer(1)])
    }

    @Test func requestErrorsAreReported() throws {
        #expect(throws: FetchKitError.unknownEntity("Tsk")) { try compiler.fetch(FetchRequest(entity: "Tsk").erased) }
        #expect(throws: FetchKitError.unknownKey("titel", entity: "Todo", offset: nil)) {
            try compiler.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("titel")]).erased)
        }
        #expect(throws: FetchKitError.unknownKey("nmae", entity: "Category", offset: nil)) {
            var request = FetchRequest(entity: "Todo")
            request.sectionNameKeyPath = "category.nmae"
            return try compiler.fetch(request.erased)
        }
        #expect(
            throws: FetchKitError.invalidPredicate(
                "sort key 'todos.title' crosses the to-many relationship 'todos'", offset: nil)
        ) {
            try compiler.fetch(FetchRequest(entity: "Category", sortDescriptors: [.ascending("todos.title")]).erased)
        }
        #expect(throws: FetchKitError.unknownKey("color", entity: "Todo", offset: nil)) {
            try compiler.fetch(FetchRequest(entity: "Todo", propertiesToFetch: ["color"]).erased)
        }
        #expect(throws: FetchKitError.invalidValue("fetchLimit must not be negative, got -1")) {
            try compiler.count(FetchRequest(entity: "Todo", fetchLimit: -1).erased)
        }
        #expect(throws: FetchKitError.invalidValue("fetchOffset must not be negative, got -2")) {
            try compiler.fetch(FetchRequest(entity: "Todo", fetchOffset: -2).erased)
        }
    }
}
