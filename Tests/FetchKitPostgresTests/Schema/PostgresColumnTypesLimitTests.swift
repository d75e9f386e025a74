import FetchKit
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// What a native column cannot hold is refused before the write reaches the server, naming the table and
/// column; a type FetchKit does not map is refused when a store opens and by `describeTable`, naming the
/// table, the column and the type.
@Suite("PostgreSQL column types: limits and unsupported types", .requiresPostgreSQL)
struct PostgresColumnTypesLimitTests {
    static let entity = Entity(
        "Bounded", table: "bounded", primaryKey: .integer("id"),
        attributes: [
            Attribute("tiny", .integer, optional: true), Attribute("whole", .integer, optional: true),
            Attribute("price", .double, optional: true), Attribute("units", .integer, optional: true),
            Attribute("single", .double, optional: true), Attribute("label", .text, optional: true),
            Attribute("code", .text, optional: true)
        ])

    @Test func writesOutOfAColumnsRangeAreTypedErrorsNamingTheColumn() async throws {
        let namespace = try await NativeTables.namespace(
            """
            CREATE TABLE bounded (id smallint PRIMARY KEY, tiny smallint, whole integer, price numeric(5, 2),
                units numeric(4, 0), single real, label varchar(3), code char(2));
            """)
        let store = try await NativeTables.open(try Schema([Self.entity]), in: namespace)
        let refused: [(Row, String)] = [
            (["id": 1, "tiny": 40_000], "bounded.tiny"), (["id": 1, "tiny": -32_769], "bounded.tiny"),
            (["id": 1, "whole": 3_000_000_000], "bounded.whole"), (["id": 40_000], "bounded.id"),
            (["id": 1, "price": 1000.0], "bounded.price"), (["id": 1, "units": 12_345], "bounded.units"),
            (["id": 1, "single": 1e40], "bounded.single"), (["id": 1, "single": 1e-50], "bounded.single"),
            (["id": 1, "label": "abcd"], "bounded.label"), (["id": 1, "code": "abc"], "bounded.code")
        ]
        for (row, column) in refused {
            await NativeTables.expectError(containing: [column]) {
                try await store.write { tx in _ = try tx.insert(row, into: "Bounded") }
            }
            await NativeTables.expectError(containing: [column]) {
                try await store.write { tx in try tx.upsert(row, into: "Bounded") }
            }
        }
        try await store.write { tx in
            try tx.insert(
                [
                    "id": 1, "tiny": 32_767, "whole": .integer(Int64(Int32.min)), "price": 999.99, "units": 9999,
                    "single": 3.0e38, "label": "ab😀", "code": "ab   "
                ], into: "Bounded")
        }
        await NativeTables.expectError(containing: ["bounded.whole", "2147483648"]) {
            try await store.write { tx in _ = try tx.update("Bounded", key: 1, set: ["whole": 2_147_483_648]) }
        }
        await NativeTables.expectError(containing: ["bounded.label"]) {
            try await store.write { tx in _ = try tx.update("Bounded", where: .key("id") == 1, set: ["label": "long"]) }
        }
        let row = try #require(try await store.fetch(FetchRequest(entity: "Bounded")).first)
        #expect(row["whole"] == .integer(Int64(Int32.min)) && row["label"] == "ab😀")
        #expect(row["code"] == "ab", "char(n) drops the extra trailing blanks, as PostgreSQL does")
        #expect(row["price"] == 999.99 && row["units"] == 9999 && row["tiny"] == 32_767)
        await store.close()
    }

    @Test func unsupportedTypesAreNamedWhenAStoreOpensAndByDescribeTable() async throws {
        let namespace = try await NativeTables.namespace(
            """
            CREATE TABLE shapes (id bigint PRIMARY KEY, spot point, tags text[], span interval, name text NOT NULL);
            CREATE TABLE keyed (id double precision PRIMARY KEY, name text);
            """)
        for (column, type) in [("spot", "point"), ("tags", "text[]"), ("span", "interval")] {
            let entity = Entity("Shape", table: "shapes", attributes: [Attribute(column, .text, optional: true)])
            await NativeTables.expectError(containing: ["shapes", "'\(column)'", type]) {
                await (try await NativeTables.open(try Schema([entity]), in: namespace)).close()
            }
        }
        await NativeTables.expectError(containing: ["shapes", "'spot'", "point"]) {
            _ = try await NativeTables.describe("shapes", in: namespace)
        }
        await NativeTables.expectError(containing: ["keyed", "'id'", "double precision"]) {
            _ = try await NativeTables.describe("keyed", in: namespace)
        }
        let wrongType = Entity("Shape", table: "shapes", attributes: [Attribute("name", .integer)])
        await NativeTables.expectError(containing: ["shapes", "'name'", "text"]) {
            await (try await NativeTables.open(try Schema([wrongType]), in: namespace)).close()
        }
        // Columns the entity does not declare are not read, whatever their type.
        let store = try await NativeTables.open(
            try Schema([Entity("Shape", table: "shapes", attributes: [Attribute("name", .text)])]), in: namespace)
        try await store.write { tx in try tx.insert(["id": 1, "name": "circle"], into: "Shape") }
        #expect(try await store.fetch(FetchRequest(entity: "Shape")).map { $0["name"] } == ["circle"])
        await store.close()
    }
}
