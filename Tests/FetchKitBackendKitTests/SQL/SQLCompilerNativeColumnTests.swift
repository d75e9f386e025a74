import FetchKit
import Foundation
import Testing

@testable import FetchKitBackendKit

/// Columns whose database type is not the dialect's standard type: read, compared and ordered through a cast
/// where their own semantics differ, compared as they are (their index serving) where they agree, written
/// through a cast where the database has no assignment cast, and checked against what they can hold.
@Suite("SQLCompiler: native column types")
struct SQLCompilerNativeColumnTests {
    static let entity = Entity(
        "Item", table: "item", primaryKey: .text("id"),
        attributes: [
            Attribute("mood", .text, optional: true), Attribute("at", .date, optional: true),
            Attribute("small", .integer, optional: true), Attribute("code", .text, optional: true)
        ])
    static let uuid = NativeColumn(
        typeName: #""pg_catalog"."uuid""#, reading: .cast, writing: .cast, keyComparison: .canonicalUUID,
        comparisonBinding: .cast)
    static let natives: NativeColumns = [
        "item": [
            "id": uuid,
            "mood": NativeColumn(typeName: #""app"."Mood""#, reading: .cast, writing: .cast),
            "at": NativeColumn(
                typeName: #""pg_catalog"."timestamp""#, reading: .utcTimestamp, writing: .utcTimestamp,
                keyComparison: .always, comparisonBinding: .utcTimestamp),
            "small": NativeColumn(typeName: #""pg_catalog"."int2""#, limit: .integer(-32_768...32_767)),
            "code": NativeColumn(
                typeName: #""pg_catalog"."bpchar""#, reading: .cast, keyComparison: .unpaddedText,
                comparisonBinding: .cast, limit: .characters(2, padded: true))
        ]
    ]
    static let key = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    let compiler = SQLCompiler(
        schema: try! Schema([SQLCompilerNativeColumnTests.entity]), dialect: TestDialects.dollar,
        nativeColumns: SQLCompilerNativeColumnTests.natives)

    @Test func columnsAreReadAndOrderedThroughTheirCasts() throws {
        let fetch = try compiler.fetch(
            FetchRequest(entity: "Item", sortDescriptors: [.ascending("mood"), .descending("at")]).erased)
        #expect(
            fetch.statement.sql.hasPrefix(
                #"SELECT CAST(t0."id" AS TEXT) AS "id", CAST(t0."mood" AS TEXT) AS "mood", (t0."at" AT TIME ZONE "#
                    + #"'UTC') AS "at", "#
                    + #"t0."small" AS "small", CAST(t0."code" AS TEXT) AS "code" FROM "item" AS t0 ORDER BY "#))
        #expect(fetch.statement.sql.contains(#"CAST(t0."mood" AS TEXT) COLLATE "C""#))
        #expect(fetch.statement.sql.hasSuffix(#", t0."id" ASC"#), "a uuid orders as it is: as its canonical text")
    }

    @Test func keyLookupsCompareTheColumnItselfOnlyForValuesItsEqualityAgreesOn() throws {
        let short = try compiler.fetch(
            FetchRequest(entity: "Item", predicate: .comparison(.init(.object, .in, .list([.text(Self.key)])))).erased)
        #expect(
            short.statement.sql.hasSuffix(#"WHERE t0."id" IN (CAST($1 AS "pg_catalog"."uuid")) ORDER BY t0."id" ASC"#))
        let keys = (0..<5).map { Value.text(String(Self.key.dropLast()) + "\($0)") }
        let long = try compiler.fetch(
            FetchRequest(entity: "Item", predicate: .comparison(.init(.object, .in, .list(keys)))).erased)
        #expect(long.statement.sql.contains(#"WHERE t0."id" = ANY(CAST($1 AS "pg_catalog"."uuid"[]))"#))
        let upper = try compiler.fetch(
            FetchRequest(entity: "Item", predicate: .key("id") == .text(Self.key.uppercased())).erased)
        #expect(upper.statement.sql.contains(#"WHERE CAST(t0."id" AS TEXT) = $1"#), "an uppercase UUID is another text")
        let padded = try compiler.fetch(FetchRequest(entity: "Item", predicate: .key("code") == "a ").erased)
        #expect(padded.statement.sql.contains(#"WHERE CAST(t0."code" AS TEXT) = $1"#))
        let unpadded = try compiler.fetch(FetchRequest(entity: "Item", predicate: .key("code") == "a").erased)
        #expect(unpadded.statement.sql.contains(#"WHERE t0."code" = CAST($1 AS "pg_catalog"."bpchar")"#))
        let enumOrder = try compiler.fetch(FetchRequest(entity: "Item", predicate: .key("mood") > "ok").erased)
        #expect(enumOrder.statement.sql.contains(#"WHERE CAST(t0."mood" AS TEXT) COLLATE "C" > $1"#))
        let time = try compiler.fetch(
            FetchRequest(entity: "Item", predicate: .key("at") >= .date(Date(timeIntervalSince1970: 0))).erased)
        #expect(time.statement.sql.contains(#"WHERE t0."at" >= ($1 AT TIME ZONE 'UTC')"#))
    }

    @Test func reReadsByKeyReuseAStatementOnlyForKeysOfTheSameForm() throws {
        func reRead(_ key: String) throws -> String {
            try compiler.fetch(
                FetchRequest(entity: "Item", predicate: .comparison(.init(.object, .in, .list([.text(key)])))).erased
            )
            .statement.sql
        }
        #expect(try reRead(Self.key).contains(#"t0."id" IN (CAST($1 AS "pg_catalog"."uuid"))"#))
        #expect(try reRead(Self.key.uppercased()).contains(#"CAST(t0."id" AS TEXT) IN ($1)"#))
        #expect(try reRead("not a uuid").contains(#"CAST(t0."id" AS TEXT) IN ($1)"#))
        #expect(
            try reRead(Self.key.replacingOccurrences(of: "a11", with: "b22")).contains(
                #"CAST($1 AS "pg_catalog"."uuid")"#))
    }

    @Test func writesBindThroughCastsAndRefuseWhatTheColumnCannotHold() throws {
        let insert = try compiler.insert(
            ["id": .text(Self.key), "mood": "ok", "at": .date(Date(timeIntervalSince1970: 0))], into: Self.entity)
        #expect(
            insert.sql
                == #"INSERT INTO "item" ("id", "mood", "at", "small", "code") VALUES (CAST($1 AS "#
                + #""pg_catalog"."uuid"), "#
                + #"CAST($2 AS "app"."Mood"), ($3 AT TIME ZONE 'UTC'), $4, $5) RETURNING "id""#)
        let update = try compiler.update(Self.entity, key: .text(Self.key), set: ["small": 5])
        #expect(update.sql == #"UPDATE "item" SET "small" = $1 WHERE "id" = CAST($2 AS "pg_catalog"."uuid")"#)
        for (row, column) in [(["small": 40_000], "item.small"), (["code": "abc"], "item.code")] as [(Row, String)] {
            #expect(throws: FetchKitError.self) { try compiler.update(Self.entity, key: .text(Self.key), set: row) }
            do {
                _ = try compiler.update(Self.entity, key: .text(Self.key), set: row)
            } catch let error as FetchKitError {
                #expect(error.description.contains(column), "\(error)")
            }
        }
        #expect(
            try compiler.update(Self.entity, key: .text(Self.key), set: ["code": "ab   "]).bindings.first == "ab   ")
    }
}
