import FetchKit
import Foundation
import Testing

@testable import FetchKitPostgres

/// A row image from the log reads as a fetch reads the row: binary values in PostgreSQL's wire format, NULLs,
/// and unchanged TOASTed values named rather than guessed.
@Suite("pgoutput row images")
struct PgOutputRowTests {
    static let board = PgOutputMessage.Relation(
        id: 1, namespace: "public", name: "card", replicaIdentity: "d",
        columns: [
            .init(name: "id", isKey: true, typeID: 20, typeModifier: -1),
            .init(name: "done", isKey: false, typeID: 16, typeModifier: -1),
            .init(name: "score", isKey: false, typeID: 701, typeModifier: -1),
            .init(name: "title", isKey: false, typeID: 25, typeModifier: -1),
            .init(name: "due", isKey: false, typeID: 1_184, typeModifier: -1),
            .init(name: "notes", isKey: false, typeID: 25, typeModifier: -1)
        ])

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> UInt64($0)) }
    }

    @Test func binaryValuesReadAsAFetchReadsThem() throws {
        // 2026-11-28 00:00:00 UTC, in microseconds since 2000-01-01.
        let due = Date(timeIntervalSince1970: 1_795_824_000)
        let micros = Int64(due.timeIntervalSince1970 * 1_000_000) - 946_684_800_000_000
        let row = try Self.board.row([
            .binary(Self.bigEndian(42)), .binary([1]), .binary(Self.bigEndian(2.5.bitPattern)),
            .binary(Array("héllo".utf8)), .binary(Self.bigEndian(UInt64(bitPattern: micros))), .unchanged
        ])
        #expect(row.values["id"] == .integer(42))
        #expect(row.values["done"] == .bool(true))
        #expect(row.values["score"] == .double(2.5))
        #expect(row.values["title"] == .text("héllo"))
        #expect(row.values["due"] == .date(due))
        #expect(row.values["notes"] == nil)
        #expect(row.missing == ["notes"])
    }

    @Test func nullsTextAndKeysOnly() throws {
        let key = try Self.board.row([.binary(Self.bigEndian(7)), .null, .null, .text("plain"), .null, .null])
        #expect(key.values["id"] == .integer(7))
        #expect(key.values["done"] == .null)
        #expect(key.values["title"] == .text("plain"))
        #expect(key.missing.isEmpty)
    }

    @Test func aMismatchIsATypedErrorAndAnUnreadableValueIsMissing() throws {
        #expect {
            try Self.board.row([.null])
        } throws: { error in
            (error as? FetchKitError)?.code == .inconsistency
                && "\(error)".contains("has 1 columns; its relation has 6")
        }
        // A double sent as text (no binary send function would do that; the feed refuses to guess), and a
        // binary integer of the wrong size: missing, so the row is re-read.
        let row = try Self.board.row([.binary(Self.bigEndian(7)), .null, .text("2.5"), .null, .binary([0, 1]), .null])
        #expect(row.values["id"] == .integer(7))
        #expect(row.missing == ["score", "due"])
        #expect(row.values["score"] == nil)
    }

    /// `numeric` in its binary form: the digit count, the weight, the sign, the display scale, then base-10000
    /// digits.
    static func numeric(_ digits: [UInt16], weight: Int16, negative: Bool = false, scale: UInt16 = 0) -> [UInt8] {
        let words = [UInt16(digits.count), UInt16(bitPattern: weight), negative ? 0x4000 : 0, scale] + digits
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }

    static let ledger = PgOutputMessage.Relation(
        id: 2, namespace: "public", name: "ledger", replicaIdentity: "d",
        columns: [
            .init(name: "id", isKey: true, typeID: 1_700, typeModifier: -1),
            .init(name: "amount", isKey: false, typeID: 1_700, typeModifier: -1),
            .init(name: "mood", isKey: false, typeID: 16_501, typeModifier: -1),
            .init(name: "code", isKey: false, typeID: 1_042, typeModifier: 10)
        ])

    /// A `numeric(p, 0)` reads as its exact integer (a fetch casts it to bigint), past 2⁵³ too; a fraction, or an
    /// integer beyond Int64, as the nearest double. An enum's or citext's value (a type the database numbered)
    /// reads as its text, and `char(n)` keeps its padding here (the image maker drops it).
    @Test func numericsReadExactlyAndTypesOfTheDatabaseReadAsText() throws {
        let row = try Self.ledger.row([
            .binary(Self.numeric([99, 9999, 9999, 9999, 9999], weight: 4)),
            .binary(Self.numeric([12, 5000], weight: 0, scale: 1)), .binary(Array("happy".utf8)),
            .binary(Array("ab  ".utf8))
        ])
        #expect(row.values["id"] == .integer(999_999_999_999_999_999))
        #expect(row.values["amount"] == .double(12.5))
        #expect(row.values["mood"] == .text("happy"))
        #expect(row.values["code"] == .text("ab  "))
        let more = try Self.ledger.row([
            .binary(Self.numeric([922, 3372, 368, 5477, 5807], weight: 4, negative: true)),
            .binary(Self.numeric([922, 3372, 368, 5477, 5808], weight: 4)), .binary([0xff, 0xfe]), .null
        ])
        #expect(more.values["id"] == .integer(-9_223_372_036_854_775_807))
        #expect(more.values["amount"] == .double(9_223_372_036_854_775_808), "beyond Int64: the nearest double")
        #expect(more.missing == ["mood"], "bytes that are not UTF-8 are not guessed at")
        let round = try Self.ledger.row([
            .binary(Self.numeric([1], weight: 2)), .binary(Self.numeric([], weight: 0)), .null, .null
        ])
        #expect(round.values["id"] == .integer(100_000_000), "trailing zero digits are not sent")
        #expect(round.values["amount"] == .integer(0))
    }
}
