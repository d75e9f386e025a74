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
}
