@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit

@Suite("SQLCompiler: write statements")
struct SQLCompilerWriteTests {
    let compiler = TestDialects.questionCompiler
    let dollar = TestDialects.dollarCompiler
    let todoInsertColumns = #""title", "notes", "priority", "ordering", "done", "due", "attachment", "category_id""#

    @Test func insertFillsDefaultsAndLeavesOutAnAbsentIntegerKey() throws {
        let statement = try compiler.insert(["title": "Ship it", "ordering": 2], into: Fixtures.todo)
        #expect(
            statement.sql == "INSERT INTO \"todo\" (\(todoInsertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                + #"RETURNING "id""#)
        #expect(
            statement.bindings == [
                .text("Ship it"), .null, .integer(0), .double(2), .bool(false), .null, .null,
                .null
            ])
        let explicitNullKey = try compiler.insert(["id": nil, "title": "x"], into: Fixtures.todo)
        #expect(explicitNullKey.sql == statement.sql)
    }

    @Test func insertWritesAGivenKeyAndCoercesValues() throws {
        let due = Date(microsecondsSince1970: 1_700_000_000_000_001)
        let statement = try dollar.insert(
            [
                "id": 7.0, "title": "t", "done": 1, "due": .date(due), "attachment": .blob(Data([1, 2])),
                "categoryID": 3
            ],
            into: Fixtures.todo)
        #expect(
            statement.sql == #"INSERT INTO "todo" ("id", "# + todoInsertColumns
                + #") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id""#)
        #expect(
            statement.bindings == [
                .integer(7), .text("t"), .null, .integer(0), .null, .bool(true), .date(due),
                .blob(Data([1, 2])), .integer(3)
            ])
    }

    @Test func insertWithTextKeyAndNoReturning() throws {
        var dialect = TestDialects.question
        dialect.supportsReturning = false
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: dialect)
        let statement = try compiler.insert(["slug": "a", "body": "b"], into: Fixtures.note)
        #expect(
            statement
                == SQLStatement(
                    sql: #"INSERT INTO "note" ("slug", "body", "pinned") VALUES (?, ?, ?)"#,
                    bindings: [.text("a"), .text("b"), .bool(false)]))
    }

    @Test func insertRejectsBadValues() throws {
        #expect(throws: FetchKitError.unknownKey("colour", entity: "Todo", offset: nil)) {
            try compiler.insert(["title": "a", "colour": "red"], into: Fixtures.todo)
        }
        #expect(throws: FetchKitError.typeMismatch(key: "priority", expected: .integer, got: "\"high\"", offset: nil)) {
            try compiler.insert(["title": "a", "priority": "high"], into: Fixtures.todo)
        }
        #expect(throws: FetchKitError.typeMismatch(key: "priority", expected: .integer, got: "2.5", offset: nil)) {
            try compiler.insert(["title": "a", "priority": 2.5], into: Fixtures.todo)
        }
        #expect(throws: FetchKitError.invalidValue("Todo.ordering cannot store NaN")) {
            try compiler.insert(["title": "a", "ordering": .double(.nan)], into: Fixtures.todo)
        }
        #expect(throws: FetchKitError.invalidValue("Todo.title cannot store text containing NUL")) {
            try compiler.insert(["title": "a\u{0}b"], into: Fixtures.todo)
        }
        #expect(
            throws: FetchKitError.constraintViolation(
                .notNull, name: "todo.title", message: "Todo.title is required and has no value")
        ) {
            try compiler.insert(["notes": "no title"], into: Fixtures.todo)
        }
        #expect(
            throws: FetchKitError.constraintViolation(
                .notNull, name: "note.slug", message: "Note.slug is required and has no value")
        ) {
            try compiler.insert(["body": "no key"], into: Fixtures.note)
        }
        #expect(throws: FetchKitError.unknownEntity("Ghost")) {
            try compiler.insert(["title": "a"], into: Entity("Ghost", attributes: [Attribute("title", .text)]))
        }
    }

    @Test func upsertUpdatesOnlyTheNamedColumns() throws {
        let statement = try compiler.upsert(["id": 3, "title": "t", "done": true], into: Fixtures.todo)
        #expect(
            statement.sql == #"INSERT INTO "todo" ("id", "# + todoInsertColumns
                + #") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = excluded."title", "#
                + #""done" = excluded."done""#)
        #expect(
            statement.bindings == [
                .integer(3), .text("t"), .null, .integer(0), .null, .bool(true), .null, .null,
                .null
            ])
        let keyOnly = try dollar.upsert(["slug": "a", "body": "b"], into: Fixtures.note)
        #expect(
            keyOnly.sql == #"INSERT INTO "note" ("slug", "body", "pinned") VALUES ($1, $2, $3) "#
                + #"ON CONFLICT ("slug") DO UPDATE SET "body" = excluded."body""#)
        let nothing = try dollar.upsert(["id": 1, "name": "Work"], into: Fixtures.category)
        #expect(nothing.sql.hasSuffix(#"DO UPDATE SET "name" = excluded."name""#))
        let bare = try compiler.upsert(
            ["slug": "a", "body": "b"],
            into: Entity(
                "Note", table: "note", primaryKey: .text("slug"), attributes: [Attribute("body", .text)]))
        #expect(bare.sql.hasSuffix(#"DO UPDATE SET "body" = excluded."body""#))
        var noUpsert = TestDialects.question
        noUpsert.upsertSyntax = nil
        #expect(throws: FetchKitError.unsupported("upsert on QuestionSQL")) {
            try SQLCompiler(schema: Fixtures.schema, dialect: noUpsert).upsert(["slug": "a"], into: Fixtures.note)
        }
    }

    @Test func upsertOfOnlyTheKeyDoesNothingOnConflict() throws {
        let schema = try Schema([Entity("Tag", table: "tag", primaryKey: .text("name"), attributes: [])])
        let compiler = SQLCompiler(schema: schema, dialect: TestDialects.question)
        let statement = try compiler.upsert(["name": "x"], into: try schema.entity(named: "Tag"))
        #expect(statement.sql == #"INSERT INTO "tag" ("name") VALUES (?) ON CONFLICT ("name") DO NOTHING"#)
        let insert = try SQLCompiler(schema: try Schema([Entity("Tick", attributes: [])]), dialect: compiler.dialect)
            .insert([:], into: Entity("Tick", attributes: []))
        #expect(insert.sql == #"INSERT INTO "Tick" DEFAULT VALUES RETURNING "id""#)
    }

    @Test func updateByKey() throws {
        let statement = try dollar.update(Fixtures.todo, key: 7, set: ["priority": 2, "done": 1, "id": 7])
        #expect(
            statement
                == SQLStatement(
                    sql: #"UPDATE "todo" SET "priority" = $1, "done" = $2 WHERE "id" = $3"#,
                    bindings: [.integer(2), .bool(true), .integer(7)]))
        let notes = try compiler.update(Fixtures.todo, key: 7, set: ["notes": nil])
        #expect(
            notes
                == SQLStatement(
                    sql: #"UPDATE "todo" SET "notes" = ? WHERE "id" = ?"#,
                    bindings: [.null, .integer(7)]))
        #expect(throws: FetchKitError.invalidValue("an update of Todo must set at least one attribute")) {
            try compiler.update(Fixtures.todo, key: 7, set: [:])
        }
        #expect(throws: FetchKitError.invalidValue("an update cannot change the primary key 'id' of Todo")) {
            try compiler.update(Fixtures.todo, key: 7, set: ["id": 8])
        }
        #expect(throws: FetchKitError.invalidValue("the primary key 'id' of Todo cannot be NULL")) {
            try compiler.update(Fixtures.todo, key: nil, set: ["done": true])
        }
        #expect(throws: FetchKitError.typeMismatch(key: "id", expected: .integer, got: "\"7\"", offset: nil)) {
            try compiler.update(Fixtures.todo, key: "7", set: ["done": true])
        }
        #expect(
            throws: FetchKitError.constraintViolation(
                .notNull, name: "todo.title", message: "Todo.title is required and has no value")
        ) {
            try compiler.update(Fixtures.todo, key: 7, set: ["title": nil])
        }
    }

    @Test func updateWherePredicateNeedsNoJoin() throws {
        let predicate = FetchPredicate.comparison(.init(.key("priority"), .greaterThan, .value(3)))
        let statement = try dollar.update(Fixtures.todo, where: predicate, set: ["done": true])
        #expect(
            statement
                == SQLStatement(
                    sql: #"UPDATE "todo" SET "done" = $1 WHERE "todo"."priority" > $2"#,
                    bindings: [.bool(true), .integer(3)]))
        let all = try compiler.update(Fixtures.todo, where: .true, set: ["done": false])
        #expect(all == SQLStatement(sql: #"UPDATE "todo" SET "done" = ?"#, bindings: [.bool(false)]))
    }

    @Test func updateWhereCorrelatedSubqueryReferencesTheTable() throws {
        let predicate = FetchPredicate.comparison(.init(.key("todos.done"), .equal, .value(false), quantifier: .any))
        let statement = try compiler.update(Fixtures.category, where: predicate, set: ["position": 0])
        #expect(
            statement.sql == #"UPDATE "category" SET "position" = ? WHERE EXISTS (SELECT 1 FROM "todo" AS s1 "#
                + #"WHERE s1."category_id" = "category"."id" AND s1."done" = ?)"#)
        #expect(statement.bindings == [.integer(0), .bool(false)])
    }

    @Test func updateWhereWithJoinSelectsKeysInASubquery() throws {
        let predicate = FetchPredicate.comparison(.init(.key("category.name"), .equal, .value("Work")))
        let statement = try dollar.update(Fixtures.todo, where: predicate, set: ["done": true])
        #expect(
            statement.sql == #"UPDATE "todo" SET "done" = $1 WHERE "id" IN (SELECT t0."id" FROM "todo" AS t0 "#
                + #"LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" WHERE t1."name" = $2)"#)
        #expect(statement.bindings == [.bool(true), .text("Work")])
        #expect(throws: FetchKitError.invalidValue("an update cannot change the primary key 'id' of Todo")) {
            try dollar.update(Fixtures.todo, where: predicate, set: ["id": 1])
        }
    }

    @Test func deleteByKeyAndWhere() throws {
        #expect(
            try compiler.delete(Fixtures.note, key: "a")
                == SQLStatement(
                    sql: #"DELETE FROM "note" WHERE "slug" = ?"#, bindings: [.text("a")]))
        #expect(
            try dollar.delete(Fixtures.todo, key: 9)
                == SQLStatement(
                    sql: #"DELETE FROM "todo" WHERE "id" = $1"#, bindings: [.integer(9)]))
        let done = FetchPredicate.comparison(.init(.key("done"), .equal, .value(true)))
        #expect(
            try compiler.delete(Fixtures.todo, where: done)
                == SQLStatement(
                    sql: #"DELETE FROM "todo" WHERE "todo"."done" = ?"#, bindings: [.bool(true)]))
        let empty = FetchPredicate.comparison(.init(.count("todos"), .equal, .value(0)))
        #expect(
            try dollar.delete(Fixtures.category, where: empty)
                == SQLStatement(
                    sql: #"DELETE FROM "category" WHERE (SELECT COUNT(*) FROM "todo" AS s1 "#
                        + #"WHERE s1."category_id" = "category"."id") = $1"#,
                    bindings: [.integer(0)]))
        let joined = FetchPredicate.comparison(.init(.key("category.position"), .lessThan, .value(2)))
        #expect(
            try compiler.delete(Fixtures.todo, where: joined).sql == #"DELETE FROM "todo" WHERE "id" IN "#
                + #"(SELECT t0."id" FROM "todo" AS t0 LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" "#
                + #"WHERE t1."position" < ?)"#)
        #expect(try compiler.delete(Fixtures.todo, where: .true).sql == #"DELETE FROM "todo""#)
        #expect(try compiler.delete(Fixtures.todo, where: .false).sql == #"DELETE FROM "todo" WHERE 1 = 0"#)
        #expect(throws: FetchKitError.unknownKey("compleet", entity: "Todo", offset: nil)) {
            try compiler.delete(Fixtures.todo, where: .comparison(.init(.key("compleet"), .equal, .value(true))))
        }
        #expect(throws: FetchKitError.invalidValue("the primary key 'slug' of Note cannot be NULL")) {
            try compiler.delete(Fixtures.note, key: nil)
        }
    }
}
