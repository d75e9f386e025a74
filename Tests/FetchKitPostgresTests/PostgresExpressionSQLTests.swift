import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTesting
import Testing

@testable import FetchKitBackendKit

/// Golden SQL of arithmetic, lists of key paths, a constant on the left, `%@ IN` a relationship, aggregates and
/// `SUBQUERY` in the PostgreSQL dialect (the conformance suite runs the same forms against the database).
@Suite("PostgreSQL SQL: expressions, aggregates and SUBQUERY")
struct PostgresExpressionSQLTests {
    /// (entity, format (`%@` is 5), the count statement after `SELECT COUNT(*) FROM `)
    static let cases: [(String, String, String)] = [
        (
            "Todo", #"priority * 2 > ordering + 4"#,
            #""todo" AS t0 WHERE (t0."priority" * $1) > (t0."ordering" + $2)"#
        ),
        (
            "Todo", #"priority / 2 == 1.5"#,
            #""todo" AS t0 WHERE (CAST(t0."priority" AS DOUBLE PRECISION) / NULLIF(CAST($1 AS DOUBLE PRECISION), "#
                + #"0)) = $2"#
        ),
        (
            "Todo", #"priority BETWEEN {ordering, 5}"#,
            #""todo" AS t0 WHERE t0."priority" BETWEEN t0."ordering" AND $1"#
        ),
        (
            "Todo", #"priority IN {ordering, 1}"#,
            #""todo" AS t0 WHERE (t0."priority" IS NOT DISTINCT FROM t0."ordering" OR t0."priority" = $1)"#
        ),
        (
            "Todo", #"'Buy milk and more' BEGINSWITH title"#,
            #""todo" AS t0 WHERE ($1 LIKE replace(replace(replace(t0."title", '\', '\\'), '%', '\%'), '_', '\_') || "#
                + #"'%' ESCAPE '\' AND t0."title" <> '')"#
        ),
        (
            "Category", #"%@ IN todos"#,
            #""category" AS t0 WHERE EXISTS (SELECT 1 FROM "todo" AS s1 WHERE s1."category_id" = t0."id" AND "#
                + #"s1."id" = $1)"#
        ),
        (
            "Category", #"todos.@sum.priority > 5"#,
            #""category" AS t0 WHERE (SELECT COALESCE(SUM(s1."priority"), 0) FROM "todo" AS s1 WHERE "#
                + #"s1."category_id" = t0."id") > $1"#
        ),
        (
            "Category", #"todos.@avg.priority > 2"#,
            #""category" AS t0 WHERE (SELECT CAST(AVG(s1."priority") AS DOUBLE PRECISION) FROM "todo" AS s1 WHERE "#
                + #"s1."category_id" = t0."id") > $1"#
        ),
        (
            "Category", #"todos.@max.title > 'W'"#,
            #""category" AS t0 WHERE (SELECT MAX(s1."title" COLLATE "C") FROM "todo" AS s1 WHERE s1."category_id" = "#
                + #"t0."id") COLLATE "C" > $1"#
        ),
        (
            "Todo", #"category.todos.@min.ordering < 1"#,
            #""todo" AS t0 LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" WHERE (SELECT "#
                + #"MIN(s1."ordering") FROM "todo" AS s1 WHERE s1."category_id" = t1."id") < $1"#
        ),
        (
            "Category", #"SUBQUERY(todos, $t, $t.done == NO AND $t.category.name BEGINSWITH[c] 'w').@count > 0"#,
            #""category" AS t0 WHERE (SELECT COUNT(*) FROM "todo" AS s1 LEFT JOIN "category" AS s2 ON s2."id" = "#
                + #"s1."category_id" WHERE s1."category_id" = t0."id" AND (s1."done" = $1 AND lower(s2."name") LIKE "#
                + #"lower($2) ESCAPE '\')) > $3"#
        ),
        (
            "Category",
            #"SUBQUERY(todos, $t, SUBQUERY($t.category.todos, $u, $u.priority > $t.priority).@count == 0).@count == 1"#,
            #""category" AS t0 WHERE (SELECT COUNT(*) FROM "todo" AS s1 LEFT JOIN "category" AS s2 ON s2."id" = "#
                + #"s1."category_id" WHERE s1."category_id" = t0."id" AND ((SELECT COUNT(*) FROM "todo" AS s3 WHERE "#
                + #"s3."category_id" = s2."id" AND (s3."priority" > s1."priority")) = $1)) = $2"#
        ),
        (
            "Category", #"SUBQUERY(todos, $t, $t == 5 AND $t.priority > position).@count == 1"#,
            #""category" AS t0 WHERE (SELECT COUNT(*) FROM "todo" AS s1 WHERE s1."category_id" = t0."id" AND "#
                + #"(s1."id" = $1 AND s1."priority" > t0."position")) = $2"#
        ),
        (
            "Todo", #"-ordering < -(priority)"#,
            #""todo" AS t0 WHERE (-t0."ordering") < (-t0."priority")"#
        )
    ]

    @Test("compiles to the expected SQL", arguments: 0..<cases.count)
    func compiles(index: Int) throws {
        let (entity, format, expected) = Self.cases[index]
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: .postgres)
        let predicate = try FetchPredicate(format: format, argumentArray: format.contains("%@") ? [5] : [])
            .validated(for: Fixtures.schema.entity(named: entity), in: Fixtures.schema)
        let statement = try compiler.count(FetchRequest(entity: entity, predicate: predicate).erased)
        #expect(statement.sql == "SELECT COUNT(*) FROM " + expected, "\(format)")
    }
}
