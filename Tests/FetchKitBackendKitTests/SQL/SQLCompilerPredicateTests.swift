@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit

/// Shorthands for hand-built predicates.
private func compare(
    _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand,
    options: FetchPredicate.StringOptions = [], quantifier: FetchPredicate.Quantifier = .one
) -> FetchPredicate {
    .comparison(.init(lhs, op, rhs, options: options, quantifier: quantifier))
}

private func key(_ path: String) -> FetchPredicate.Operand { .key(FetchPredicate.Key(path)) }

/// The `WHERE` clause (and everything after it) of a count of `entity` with `predicate`, and its bindings.
private func filter(
    _ predicate: FetchPredicate, on entity: String = "Todo", _ compiler: SQLCompiler = TestDialects.questionCompiler
) throws -> SQLStatement {
    let statement = try compiler.count(FetchRequest(entity: entity, predicate: predicate).erased)
    let prefix = "SELECT COUNT(*) FROM \"\(entity.lowercased())\" AS t0 WHERE "
    #expect(statement.sql.hasPrefix(prefix), "no plain WHERE in \(statement.sql)")
    return SQLStatement(sql: String(statement.sql.dropFirst(prefix.count)), bindings: statement.bindings)
}

@Suite("SQLCompiler: predicates")
struct SQLCompilerPredicateTests {
    let dollar = TestDialects.dollarCompiler

    // MARK: Equality and NULL

    @Test func equalityBindsTheValue() throws {
        #expect(
            try filter(compare(key("title"), .equal, .value("a")))
                == SQLStatement(
                    sql: #"t0."title" = ?"#, bindings: [.text("a")]))
        #expect(
            try filter(compare(key("done"), .equal, .value(1)))
                == SQLStatement(
                    sql: #"t0."done" = ?"#, bindings: [.bool(true)]))
        #expect(try filter(compare(key("ordering"), .equal, .value(2))).bindings == [.double(2)])
    }

    @Test func equalityWithNullIsATest() throws {
        #expect(try filter(compare(key("notes"), .equal, .value(nil))).sql == #"t0."notes" IS NULL"#)
        #expect(try filter(compare(key("notes"), .notEqual, .value(nil))).sql == #"t0."notes" IS NOT NULL"#)
        #expect(try filter(compare(key("notes"), .equal, .value(nil))).bindings.isEmpty)
    }

    @Test func notEqualHoldsForNull() throws {
        #expect(try filter(compare(key("title"), .notEqual, .value("a"))).sql == #"t0."title" <> ?"#)
        #expect(
            try filter(compare(key("notes"), .notEqual, .value("a")))
                == SQLStatement(
                    sql: #"t0."notes" IS NOT ?"#, bindings: [.text("a")]))
        #expect(
            try filter(compare(key("notes"), .notEqual, .value("a")), dollar).sql
                == #"t0."notes" IS DISTINCT FROM $1"#)
    }

    @Test func keyToKeyComparisonsAreNullSafe() throws {
        #expect(try filter(compare(key("title"), .equal, key("notes"))).sql == #"t0."title" IS t0."notes""#)
        #expect(try filter(compare(key("title"), .notEqual, key("notes"))).sql == #"t0."title" IS NOT t0."notes""#)
        #expect(
            try filter(compare(key("title"), .equal, key("notes")), dollar).sql
                == #"t0."title" IS NOT DISTINCT FROM t0."notes""#)
        #expect(try filter(compare(key("priority"), .equal, key("id"))).sql == #"t0."priority" = t0."id""#)
        #expect(try filter(compare(key("priority"), .notEqual, key("id"))).sql == #"t0."priority" <> t0."id""#)
        #expect(
            try filter(compare(key("priority"), .lessThan, key("ordering"))).sql
                == #"t0."priority" < t0."ordering""#)
    }

    // MARK: Order comparisons

    @Test func orderComparisons() throws {
        let ops: [(FetchPredicate.Operator, String)] = [
            (.lessThan, "<"), (.lessThanOrEqual, "<="), (.greaterThan, ">"), (.greaterThanOrEqual, ">=")
        ]
        for (op, sql) in ops {
            #expect(
                try filter(compare(key("priority"), op, .value(3)))
                    == SQLStatement(
                        sql: #"t0."priority" "# + sql + " ?", bindings: [.integer(3)]))
        }
        #expect(try filter(compare(key("priority"), .greaterThan, .value(2.5))).bindings == [.double(2.5)])
        #expect(
            try filter(compare(key("title"), .lessThan, .value("m")), dollar).sql
                == #"t0."title" COLLATE "C" < $1"#)
        let due = Date(microsecondsSince1970: 1_000_000)
        #expect(try filter(compare(key("due"), .greaterThanOrEqual, .value(.date(due)))).bindings == [.date(due)])
    }

    @Test func aValueOnTheLeftIsFlipped() throws {
        #expect(
            try filter(compare(.value(5), .lessThan, key("priority")))
                == SQLStatement(
                    sql: #"t0."priority" > ?"#, bindings: [.integer(5)]))
        #expect(try filter(compare(.value("a"), .equal, key("title"))).sql == #"t0."title" = ?"#)
    }

    @Test func stringOptionsFoldBothSides() throws {
        #expect(
            try filter(compare(key("title"), .equal, .value("a"), options: .caseInsensitive)).sql
                == #"fk_casefold(t0."title") = fk_casefold(?)"#)
        let both: FetchPredicate.StringOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(
            try filter(compare(key("title"), .equal, .value("a"), options: both)).sql
                == #"fk_unaccent(fk_casefold(t0."title")) = fk_unaccent(fk_casefold(?))"#)
        #expect(
            try filter(compare(key("title"), .lessThan, .value("a"), options: .caseInsensitive), dollar).sql
                == #"lower(t0."title") COLLATE "C" < lower($1)"#)
        #expect(throws: FetchKitError.unsupported("diacritic-insensitive comparison ([d]) on DollarSQL", offset: nil)) {
            try filter(compare(key("title"), .equal, .value("a"), options: .diacriticInsensitive), dollar)
        }
    }

    /// A case-fold collation goes inside the fold, on both sides, in predicates and case-insensitive sorts.
    @Test func caseFoldCollationWrapsTheArgument() throws {
        var dialect = TestDialects.dollar
        dialect.caseFoldCollation = "und-x-icu"
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: dialect)
        #expect(
            try filter(compare(key("title"), .lessThan, .value("a"), options: .caseInsensitive), compiler).sql
                == #"lower(t0."title" COLLATE "und-x-icu") COLLATE "C" < (lower($1 COLLATE "und-x-icu") COLLATE "C")"#)
        let between = compare(key("title"), .between, .list([.text("a"), .text("b")]), options: .caseInsensitive)
        #expect(
            try filter(between, compiler).sql == #"lower(t0."title" COLLATE "und-x-icu") COLLATE "C" BETWEEN "#
                + #"(lower($1 COLLATE "und-x-icu") COLLATE "C") AND (lower($2 COLLATE "und-x-icu") COLLATE "C")"#)
        let sorted = try compiler.fetch(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title", caseInsensitive: true)]).erased)
        #expect(
            sorted.statement.sql.contains(#"ORDER BY lower(t0."title" COLLATE "und-x-icu") COLLATE "C" ASC"#),
            "\(sorted.statement.sql)")
    }

    // MARK: IN and BETWEEN

    @Test func inListsInline() throws {
        #expect(
            try filter(compare(key("priority"), .in, .list([1, 2, 3])))
                == SQLStatement(
                    sql: #"t0."priority" IN (?, ?, ?)"#, bindings: [.integer(1), .integer(2), .integer(3)]))
        #expect(try filter(compare(key("priority"), .in, .list([]))) == SQLStatement(sql: "1 = 0", bindings: []))
        #expect(
            try filter(compare(key("notes"), .in, .list(["a", nil])))
                == SQLStatement(
                    sql: #"(t0."notes" IN (?) OR t0."notes" IS NULL)"#, bindings: [.text("a")]))
        #expect(try filter(compare(key("notes"), .in, .list([nil]))).sql == #"t0."notes" IS NULL"#)
        #expect(
            try filter(compare(key("title"), .in, .list(["a", "b"]), options: .caseInsensitive), dollar).sql
                == #"lower(t0."title") IN (lower($1), lower($2))"#)
        #expect(try filter(compare(key("done"), .in, .list([0, 1]))).bindings == [.bool(false), .bool(true)])
    }

    @Test func longInListsBindOneParameter() throws {
        #expect(
            try filter(compare(.object, .in, .list([1, 2, 3, 4])))
                == SQLStatement(
                    sql: #"t0."id" IN (SELECT value FROM json_each(?))"#, bindings: [.text("[1,2,3,4]")]))
        #expect(
            try filter(compare(.object, .in, .list([1, 2, 3, 4])), dollar)
                == SQLStatement(
                    sql: #"t0."id" = ANY(CAST($1 AS BIGINT[]))"#, bindings: [.text("{1,2,3,4}")]))
        let texts: [Value] = ["a\"b", "c\\d", "e\nf", "\u{1}", "é"]
        #expect(
            try filter(compare(key("title"), .in, .list(texts))).bindings
                == [.text(#"["a\"b","c\\d","e\nf","\u0001","é"]"#)])
        #expect(
            try filter(compare(key("title"), .in, .list(texts)), dollar).bindings
                == [.text("{\"a\\\"b\",\"c\\\\d\",\"e\nf\",\"\u{1}\",\"é\"}")])
        let numbers: [Value] = [.double(-0.0), .double(1.5), .double(1e300), .double(2)]
        #expect(
            try filter(compare(key("ordering"), .in, .list(numbers))).bindings
                == [.text("[-0.0,1.5,1e+300,2.0]")])
        #expect(
            try filter(compare(key("done"), .in, .list([true, false, true, false, nil]))).bindings
                == [.text("[true,false,true,false]")])
        #expect(
            try filter(compare(key("done"), .in, .list([true, false, true, false])), dollar).sql
                == #"t0."done" = ANY(CAST($1 AS BOOLEAN[]))"#)
        let dates: [Value] = [-1, 0, 1_700_000_000_123_456, 951_782_400_000_000].map {
            .date(Date(microsecondsSince1970: $0))
        }
        #expect(
            try filter(compare(key("due"), .in, .list(dates))).bindings
                == [.text("[-1,0,1700000000123456,951782400000000]")])
        #expect(
            try filter(compare(key("due"), .in, .list(dates)), dollar).bindings == [
                .text(
                    #"{"1969-12-31 23:59:59.999999+00","1970-01-01 00:00:00.000000+00","#
                        + #""2023-11-14 22:13:20.123456+00","2000-02-29 00:00:00.000000+00"}"#)
            ])
    }

    @Test func longInListsStayInlineWhenTheyCannotBeEncoded() throws {
        let blobs: [Value] = (0..<4).map { .blob(Data([UInt8($0)])) }
        #expect(try filter(compare(key("attachment"), .in, .list(blobs))).sql == #"t0."attachment" IN (?, ?, ?, ?)"#)
        let infinite: [Value] = [.double(.infinity), 1, 2, 3]
        #expect(try filter(compare(key("ordering"), .in, .list(infinite))).sql == #"t0."ordering" IN (?, ?, ?, ?)"#)
        #expect(
            try filter(compare(key("ordering"), .in, .list(infinite)), dollar).bindings
                == [.text("{Infinity,1.0,2.0,3.0}")])
        let folded = try filter(compare(key("title"), .in, .list(["a", "b", "c", "d"]), options: .caseInsensitive))
        #expect(
            folded.sql == #"fk_casefold(t0."title") IN (fk_casefold(?), fk_casefold(?), fk_casefold(?), "#
                + #"fk_casefold(?))"#)
        let withNull = try filter(compare(key("notes"), .in, .list(["a", "b", "c", "d", nil])))
        #expect(
            withNull
                == SQLStatement(
                    sql: #"(t0."notes" IN (SELECT value FROM json_each(?)) OR t0."notes" IS NULL)"#,
                    bindings: [.text(#"["a","b","c","d"]"#)]))
    }

    @Test func between() throws {
        #expect(
            try filter(compare(key("priority"), .between, .list([1, 3])))
                == SQLStatement(
                    sql: #"t0."priority" BETWEEN ? AND ?"#, bindings: [.integer(1), .integer(3)]))
        #expect(
            try filter(compare(key("title"), .between, .list(["a", "m"]), options: .caseInsensitive), dollar)
                .sql == #"lower(t0."title") COLLATE "C" BETWEEN lower($1) AND lower($2)"#)
    }

    // MARK: String operators

    @Test func stringOperatorsEscapeTheUsersValue() throws {
        let hostile = #"50%_a\b"#
        #expect(
            try filter(compare(key("title"), .beginsWith, .value(.text(hostile))))
                == SQLStatement(
                    sql: #"t0."title" LIKE ? ESCAPE '\'"#, bindings: [.text(#"50\%\_a\\b%"#)]))
        #expect(
            try filter(compare(key("title"), .endsWith, .value(.text(hostile)))).bindings
                == [.text(#"%50\%\_a\\b"#)])
        #expect(
            try filter(compare(key("title"), .contains, .value(.text(hostile)))).bindings
                == [.text(#"%50\%\_a\\b%"#)])
        #expect(
            try filter(compare(key("title"), .contains, .value("é"), options: .caseInsensitive), dollar)
                == SQLStatement(sql: #"lower(t0."title") LIKE lower($1) ESCAPE '\'"#, bindings: [.text("%é%")]))
        #expect(try filter(compare(key("title"), .beginsWith, .value(nil))) == SQLStatement(sql: "1 = 0"))
    }

    @Test func likeTranslatesWildcards() throws {
        let pattern = #"a*b?c\*d\?e%f_g\\h"#
        #expect(
            try filter(compare(key("title"), .like, .value(.text(pattern))))
                == SQLStatement(
                    sql: #"t0."title" LIKE ? ESCAPE '\'"#, bindings: [.text(#"a%b_c*d?e\%f\_g\\h"#)]))
        #expect(try filter(compare(key("title"), .like, .value(#"x\"#))).bindings == [.text(#"x\\"#)])
        #expect(try filter(compare(key("title"), .like, .value(#"\%"#))).bindings == [.text(#"\%"#)])
    }

    @Test func stringOperatorWithAKeyEscapesInSQL() throws {
        #expect(
            try filter(compare(key("title"), .beginsWith, key("notes"))).sql
                == #"(t0."title" LIKE replace(replace(replace(t0."notes", '\', '\\'), '%', '\%'), '_', '\_') || '%' "#
                + #"ESCAPE '\' AND t0."notes" <> '')"#)
        #expect(
            try filter(compare(key("title"), .endsWith, key("notes"))).sql
                == #"(t0."title" LIKE '%' || replace(replace(replace(t0."notes", '\', '\\'), '%', '\%'), '_', '\_') "#
                + #"ESCAPE '\' AND t0."notes" <> '')"#)
        #expect(throws: FetchKitError.unsupported("LIKE with a key path as the pattern", offset: nil)) {
            try filter(compare(key("title"), .like, key("notes")))
        }
    }

    @Test func matchesIsUnsupported() throws {
        let matches = FetchKitError.unsupported(
            "MATCHES", detail: "regular expressions differ between backends", offset: nil)
        #expect(matches.message == "MATCHES (regular expressions differ between backends)")
        #expect(matches.construct == "MATCHES")
        #expect(throws: matches) {
            try filter(compare(key("title"), .matches, .value("a.*")))
        }
        var dialect = TestDialects.question
        dialect.regexOperator = "REGEXP"
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: dialect)
        #expect(try filter(compare(key("title"), .matches, .value("a.*")), compiler).sql == #"t0."title" REGEXP ?"#)
    }

    // MARK: Relationships

    @Test func toOneKeyPathsJoinOnce() throws {
        let predicate = FetchPredicate.and([
            compare(key("category.name"), .equal, .value("Work")),
            compare(key("category.position"), .lessThan, .value(3))
        ])
        let statement = try TestDialects.questionCompiler.count(
            FetchRequest(entity: "Todo", predicate: predicate).erased)
        #expect(
            statement.sql == #"SELECT COUNT(*) FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE (t1."name" = ? AND t1."position" < ?)"#)
        let negated = try TestDialects.questionCompiler.count(
            FetchRequest(
                entity: "Todo", predicate: .not(compare(key("category.position"), .lessThan, .value(3)))
            ).erased)
        #expect(negated.sql.hasSuffix(#"WHERE NOT COALESCE((t1."position" < ?), FALSE)"#))
    }

    @Test func aRelationshipComparesItsForeignKey() throws {
        #expect(
            try filter(compare(key("category"), .equal, .value(3)))
                == SQLStatement(
                    sql: #"t0."category_id" = ?"#, bindings: [.integer(3)]))
        #expect(try filter(compare(key("category"), .equal, .value(nil))).sql == #"t0."category_id" IS NULL"#)
        #expect(try filter(compare(key("category"), .in, .list([1, 2]))).sql == #"t0."category_id" IN (?, ?)"#)
    }

    @Test func selfComparesThePrimaryKey() throws {
        #expect(
            try filter(compare(.object, .equal, .value(5)))
                == SQLStatement(
                    sql: #"t0."id" = ?"#, bindings: [.integer(5)]))
        #expect(try filter(compare(.object, .in, .list(["a", "b"])), on: "Note").sql == #"t0."slug" IN (?, ?)"#)
    }

    @Test func quantifiersBecomeCorrelatedSubqueries() throws {
        let any = compare(key("todos.title"), .equal, .value("x"), quantifier: .any)
        #expect(
            try filter(any, on: "Category")
                == SQLStatement(
                    sql: #"EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t0."id" AND s1."title" = ?)"#,
                    bindings: [.text("x")]))
        let none = compare(key("todos.title"), .equal, .value("x"), quantifier: .none)
        #expect(
            try filter(none, on: "Category").sql
                == #"NOT EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t0."id" AND s1."title" = ?)"#)
        let all = compare(key("todos.priority"), .greaterThan, .value(1), quantifier: .all)
        #expect(
            try filter(all, on: "Category").sql == #"NOT EXISTS (SELECT 1 FROM "todo" AS s1 "#
                + #"WHERE s1."category_id" = t0."id" AND NOT (s1."priority" > ?))"#)
        let allNullable = compare(key("todos.notes"), .beginsWith, .value("x"), quantifier: .all)
        #expect(
            try filter(allNullable, on: "Category").sql == #"NOT EXISTS (SELECT 1 FROM "todo" AS s1 "#
                + #"WHERE s1."category_id" = t0."id" AND NOT COALESCE((s1."notes" LIKE ? ESCAPE '\'), FALSE))"#)
        let anyIn = compare(key("todos"), .in, .list([1, 2]), quantifier: .any)
        #expect(
            try filter(anyIn, on: "Category").sql == #"EXISTS (SELECT 1 FROM "todo" AS s1 "#
                + #"WHERE s1."category_id" = t0."id" AND s1."id" IN (?, ?))"#)
    }

    @Test func quantifiedKeyPathsJoinInsideAndOutsideTheSubquery() throws {
        let inside = compare(key("todos.category.name"), .equal, key("name"), quantifier: .any)
        #expect(
            try filter(inside, on: "Category").sql == #"EXISTS (SELECT 1 FROM "todo" AS s1 "#
                + #"LEFT JOIN "category" AS s2 ON s2."id" = s1."category_id" "#
                + #"WHERE s1."category_id" = t0."id" AND s2."name" IS t0."name")"#)
        let outside = compare(key("category.todos.done"), .equal, .value(true), quantifier: .any)
        let statement = try TestDialects.questionCompiler.count(FetchRequest(entity: "Todo", predicate: outside).erased)
        #expect(
            statement.sql == #"SELECT COUNT(*) FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t1."id" AND s1."done" = ?)"#)
    }

    @Test func countOfAToManyRelationship() throws {
        #expect(
            try filter(compare(.count("todos"), .greaterThan, .value(2)), on: "Category")
                == SQLStatement(
                    sql: #"(SELECT COUNT(*) FROM "todo" AS s1 WHERE s1."category_id" = t0."id") > ?"#,
                    bindings: [.integer(2)]))
        #expect(
            try filter(compare(.value(2), .lessThan, .count("todos")), on: "Category").sql
                == #"(SELECT COUNT(*) FROM "todo" AS s1 WHERE s1."category_id" = t0."id") > ?"#)
    }

    @Test func placeholdersAreNumberedThroughSubqueries() throws {
        let predicate = FetchPredicate.and([
            compare(key("name"), .equal, .value("a")),
            compare(key("todos.title"), .in, .list(["b", "c"]), quantifier: .any),
            compare(.count("todos"), .lessThan, .value(4))
        ])
        #expect(
            try filter(predicate, on: "Category", dollar)
                == SQLStatement(
                    sql: #"(t0."name" = $1 AND EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t0."id" "#
                        + #"AND s1."title" IN ($2, $3)) AND (SELECT COUNT(*) FROM "todo" AS s2 "#
                        + #"WHERE s2."category_id" = t0."id") < $4)"#,
                    bindings: [.text("a"), .text("b"), .text("c"), .integer(4)]))
    }

    // MARK: Logic

    @Test func constantsAndConnectives() throws {
        let statement = try TestDialects.questionCompiler.count(FetchRequest(entity: "Todo", predicate: .true).erased)
        #expect(statement.sql == #"SELECT COUNT(*) FROM "todo" AS t0"#)
        #expect(
            try TestDialects.questionCompiler.count(FetchRequest(entity: "Todo", predicate: .and([])).erased).sql
                == #"SELECT COUNT(*) FROM "todo" AS t0"#)
        #expect(try filter(.false).sql == "1 = 0")
        #expect(try filter(.or([])).sql == "1 = 0")
        #expect(try filter(.not(.true)).sql == "NOT (1 = 1)")
        #expect(try filter(.and([.true, .false])).sql == "(1 = 1 AND 1 = 0)")
        let done = compare(key("done"), .equal, .value(true))
        let notes = compare(key("notes"), .equal, .value("x"))
        #expect(try filter(.and([done])).sql == #"t0."done" = ?"#)
        #expect(
            try filter(.or([done, .and([notes, done])])).sql
                == #"(t0."done" = ? OR (t0."notes" = ? AND t0."done" = ?))"#)
        #expect(try filter(.not(done)).sql == #"NOT (t0."done" = ?)"#)
        #expect(try filter(.not(notes)).sql == #"NOT COALESCE((t0."notes" = ?), FALSE)"#)
        #expect(
            try filter(.not(.or([done, notes]))).sql
                == #"NOT COALESCE((t0."done" = ? OR t0."notes" = ?), FALSE)"#)
        #expect(try filter(.not(.and([done, done]))).sql == #"NOT (t0."done" = ? AND t0."done" = ?)"#)
        #expect(try filter(.not(.not(notes))).sql == #"NOT (NOT COALESCE((t0."notes" = ?), FALSE))"#)
        let exists = compare(key("todos.done"), .equal, .value(true), quantifier: .any)
        #expect(
            try filter(.not(exists), on: "Category").sql
                == #"NOT EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t0."id" AND s1."done" = ?)"#)
    }

    @Test func tooManyParametersAreReported() throws {
        var dialect = TestDialects.question
        dialect.maxBoundParameters = 2
        dialect.largeListExpansion = nil
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: dialect)
        #expect(throws: FetchKitError.unsupported("a statement with 5 bound values (QuestionSQL allows 2)")) {
            try compiler.count(
                FetchRequest(entity: "Todo", predicate: compare(.object, .in, .list([1, 2, 3, 4, 5]))).erased)
        }
    }
}
