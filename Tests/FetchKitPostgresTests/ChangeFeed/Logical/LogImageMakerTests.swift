import FetchKit
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// Every table gets row images, whatever its column types: `char(n)` text drops its padding, a value takes its
/// attribute type's canonical case, and only a row whose image lacks a value is left to be re-read.
@Suite("Log row images")
struct LogImageMakerTests {
    static let entity = Entity(
        "Ledger", table: "ledger", primaryKey: .integer("id"),
        attributes: [
            Attribute("amount", .double, optional: true), Attribute("code", .text, optional: true),
            Attribute("mood", .text, optional: true)
        ])
    /// `code` is `char(4)`, as PostgreSQL's catalog describes it to the store.
    static let natives: NativeColumns = [
        "ledger": [
            "code": NativeColumn(
                typeName: #""pg_catalog"."bpchar""#, reading: .cast, keyComparison: .unpaddedText,
                comparisonBinding: .cast, limit: .characters(4, padded: true))
        ]
    ]

    @Test func imagesReadAsAFetchReadsTheRowsWhateverTheColumnTypes() throws {
        let maker = LogImageMaker(schema: try Schema([Self.entity]), nativeColumns: Self.natives)
        var change = TableChange()
        change.record(.insert, key: 1)
        change.record(.update, key: 2)
        change.record(.delete, key: 3)
        let transaction = LogTransaction(
            transactionID: 7, commit: LogPosition(value: 10), end: LogPosition(value: 20),
            tables: ["ledger": change],
            rows: [
                "ledger": [
                    1: LogRow(values: ["id": 1, "amount": 5, "code": "ab  ", "mood": "ok"], missing: []),
                    2: LogRow(values: ["id": 2, "amount": 1.5, "mood": "sad"], missing: ["code"])
                ]
            ])
        let images = try #require(maker.changes(of: transaction)["ledger"]?.images)
        let expected: Row = ["id": 1, "amount": 5.0, "code": "ab", "mood": "ok"]
        #expect(images[1] == .row(expected), "char(n) without its padding, an integral numeric as a double")
        #expect(images[2] == nil, "a row missing a value is re-read, not guessed")
        #expect(images[3] == .absent)
    }

    @Test func aValueThatDoesNotFitItsAttributeTypeIsNotAnImage() throws {
        let maker = LogImageMaker(schema: try Schema([Self.entity]), nativeColumns: Self.natives)
        var change = TableChange()
        change.record(.insert, key: 1)
        let transaction = LogTransaction(
            transactionID: 8, commit: LogPosition(value: 10), end: LogPosition(value: 20),
            tables: ["ledger": change],
            rows: [
                "ledger": [1: LogRow(values: ["id": 1, "amount": "five", "code": .null, "mood": .null], missing: [])]
            ])
        #expect(maker.changes(of: transaction)["ledger"]?.images[1] == nil)
    }
}
