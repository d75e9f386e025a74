import FetchKit
import FetchKitSQLite
import Foundation
import Testing

@testable import FetchKitTesting

/// What only SQLite can hold: values of another storage class than their column's (the store-agnostic
/// round trips of every type are conformance checks).
@Suite("SQLite store: records decode values of any storage class as Value does")
struct SQLiteRecordDecodingTests {
    typealias AllTypes = StoreConformance.AllTypes
    typealias RowTypes = StoreConformance.RowTypes

    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        try await SQLiteStore.inMemory(schema: try Schema([AllTypes.entity])).closing(after: body)
    }

    private func all(_ store: SQLiteStore) async throws -> [AllTypes] {
        try await store.fetch(FetchRequest(AllTypes.self, sortDescriptors: [.ascending("id")]), as: AllTypes.self)
    }

    private func allRows(_ store: SQLiteStore) async throws -> [RowTypes] {
        try await store.fetch(FetchRequest(RowTypes.self, sortDescriptors: [.ascending("id")]), as: RowTypes.self)
    }

    @Test("values stored in another class convert as Value does: an integer in a double column is a Double")
    func conversionsFallBackToValues() async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET double = 5, maybeDouble = -2, float = 3", [])
            }
            let record = try #require(try await all(store).first)
            #expect(record.double == 5.0 && record.maybeDouble == -2.0 && record.float == 3.0)
            #expect(try await allRows(store) == [RowTypes(record)])
        }
    }

    @Test(
        "RowDecodable records throw the same recordMapping as Codable ones",
        arguments: [
            ("int = 'abc'", "'int' expected Int, found \"abc\""),
            ("int32 = 3000000000", "'int32' expected Int32, found 3000000000"),
            ("flag = 2", "'flag' expected Bool, found 2"),
            ("\"when\" = 'tomorrow'", "'when' expected Date, found \"tomorrow\""),
            ("bytes = 'text'", "'bytes' expected Data, found \"text\""),
            ("uuid = 'not a uuid'", "'uuid' expected UUID, found \"not a uuid\""),
            ("maybeInt32 = 3000000000", "'maybeInt32' expected Int32, found 3000000000"),
            ("maybeFlag = 5", "'maybeFlag' expected Bool, found 5"),
            ("maybeWhen = 1.5", "'maybeWhen' expected Date, found 1.5")
        ])
    func rowDecodableMismatches(assignment: String, detail: String) async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET \(assignment)", [])
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await allRows(store)
            }
        }
    }

    @Test(
        "a value that does not fit its property throws recordMapping naming the property and the value",
        arguments: [
            ("int = 'abc'", "'int' expected Int, found \"abc\""),
            ("int8 = 300", "'int8' expected Int8, found 300"),
            ("uint = -1", "'uint' expected UInt, found -1"),
            ("flag = 2", "'flag' expected Bool, found 2"),
            ("\"when\" = 'tomorrow'", "'when' expected Date, found \"tomorrow\""),
            ("bytes = 'text'", "'bytes' expected Data, found \"text\""),
            ("maybeInt32 = 3000000000", "'maybeInt32' expected Int32, found 3000000000"),
            ("maybeFlag = 5", "'maybeFlag' expected Bool, found 5"),
            ("maybeWhen = 1.5", "'maybeWhen' expected Date, found 1.5")
        ])
    func mismatchesNameTheProperty(assignment: String, detail: String) async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET \(assignment)", [])
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await all(store)
            }
        }
    }

    @Test("a row failing midway through a fetch throws; the records before it are dropped, the store still works")
    func failureMidway() async throws {
        try await withStore { store in
            let records = (0..<200).map { AllTypes(int: $0, text: "record \($0)") }
            try await store.write { tx in
                for record in records { try tx.insert(record) }
                try tx.execute("UPDATE all_types SET flag = 7 WHERE id = 150", [])
            }
            let detail = "'flag' expected Bool, found 7"
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await all(store)
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await allRows(store)
            }
            try await store.write { tx in try tx.execute("UPDATE all_types SET flag = 0 WHERE id = 150", []) }
            #expect(try await all(store).map(\.text) == records.map(\.text))
            #expect(try await allRows(store).map(\.text) == records.map(\.text))
        }
    }
}
