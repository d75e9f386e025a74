import Foundation
import Testing

@testable import FetchKit
@testable import FetchKitSession

/// The archive's encoding: every value comes back exactly, a list comes back with its sections and order, and
/// an archive that is not whole and of this version is refused whole.
@Suite("Resume archive")
struct ResumeArchiveTests {
    static let edgeValues: [Value] = [
        .null, .integer(0), .integer(-1), .integer(.min), .integer(.max), .double(0), .double(-0.0),
        .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
        .double(1.0 / 3), .double(-1e-300), .text(""), .text("é"), .text("e\u{301}"), .text("日本 \u{1F600} \"q\" \\"),
        .text(String(repeating: "long ", count: 400)), .bool(true), .bool(false),
        .date(Date(microsecondsSince1970: 0)), .date(Date(microsecondsSince1970: 1_796_634_600_123_456)),
        .date(Date(microsecondsSince1970: -1)), .date(Date(microsecondsSince1970: -62_135_596_800_000_001)),
        .date(Date(microsecondsSince1970: 253_402_300_799_999_999)), .date(.distantPast), .date(.distantFuture),
        .blob(Data()), .blob(Data(0...255))
    ]

    @Test func everyValueComesBackExactly() throws {
        var writer = ArchiveWriter()
        writer.values(Self.edgeValues)
        var reader = ArchiveReader(writer.bytes)
        let read = try reader.values()
        #expect(reader.isAtEnd)
        #expect(read == Self.edgeValues)
        for (value, back) in zip(Self.edgeValues, read) {
            switch (value, back) {
            case (.double(let a), .double(let b)): #expect(a.bitPattern == b.bitPattern)
            case (.date(let a), .date(let b)):
                #expect(a == b && a.microsecondsSince1970 == b.microsecondsSince1970)
            case (.text(let a), .text(let b)): #expect(Array(a.utf8) == Array(b.utf8))
            default: break
            }
        }
    }

    @Test func numbersComeBackAndOverlongOnesAreRefused() throws {
        var writer = ArchiveWriter()
        let numbers: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, .max - 1, .max]
        for number in numbers { writer.count(number) }
        var reader = ArchiveReader(writer.bytes)
        #expect(try numbers.map { _ in try reader.number() } == numbers)
        var overlong = ArchiveReader(Array(repeating: 0xFF, count: 10) + [0x01])
        #expect(throws: ResumeArchiveError.self) { try overlong.number() }
        var huge = ArchiveReader([0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: ResumeArchiveError.truncated) { try huge.count() }
    }

    @Test func crc32IsTheStandardOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    /// A sectioned list with an empty section, as a table view keeps one the user emptied.
    private func sectioned() -> ResultsSnapshot<Row> {
        func row(_ id: Int64, _ lane: String) -> Row { ["id": .integer(id), "lane": .text(lane), "at": .double(-0.0)] }
        return ResultsSnapshot(
            sections: [
                (name: "A", entries: [row(3, "A"), row(1, "A")].map { (row: $0, object: $0) }),
                (name: "B", entries: []),
                (name: "C", entries: [row(2, "C")].map { (row: $0, object: $0) })
            ], primaryKey: "id", order: nil)
    }

    @Test func aListComesBackWithItsSectionsAndOrder() throws {
        let snapshot = sectioned()
        let session = ArchivedSession(
            id: "s", request: RequestIdentity(AnyFetchRequest(entity: "Card")), age: .milliseconds(1500),
            sent: [.init(sequence: 7, list: ArchivedList(snapshot)), .init(sequence: 8, list: ArchivedList(snapshot))])
        let archive = ResumeArchive(savedAt: Date(microsecondsSince1970: 42), sessions: [session])
        let read = try ResumeArchive(decoding: archive.encoded())
        #expect(read.savedAt.microsecondsSince1970 == 42)
        let back = try #require(read.sessions.first)
        #expect(back.id == "s" && back.request == session.request && back.age == .milliseconds(1500))
        #expect(back.sent.map(\.sequence) == [7, 8])
        let made = try #require(back.sent[0].list.snapshot(objects: { $0 }, current: snapshot))
        #expect(made.sectionNames == ["A", "B", "C"] && made.sectionStarts == [0, 2, 2])
        #expect(made.rows == snapshot.rows && made.keys == [3, 1, 2])
        let batch = try ResultsBatch(from: made, to: snapshot)
        #expect(batch.changeset?.isEmpty == true)
    }

    @Test func aListWhoseColumnsChangedIsNotMadeAgain() {
        let list = ArchivedList(sectioned())
        let other: [Row] = [["id": 1, "title": "x", "lane": "A"]]
        let current = ResultsSnapshot(rows: other, objects: other, primaryKey: "id", sectionKey: "lane", order: nil)
        #expect(list.snapshot(objects: { $0 }, current: current) == nil)
        #expect(list.snapshot(objects: { _ in throw CancellationError() }, current: ResultsSnapshot<Row>()) == nil)
    }

    @Test func anArchiveThatIsNotWholeIsRefusedWhole() throws {
        let session = ArchivedSession(
            id: "s", request: RequestIdentity(AnyFetchRequest(entity: "Card")), age: .zero,
            sent: [.init(sequence: 1, list: ArchivedList(sectioned()))])
        let bytes = ResumeArchive(savedAt: Date(), sessions: [session]).encoded()
        // Every prefix, and every single flipped byte, is refused (never read into something else, never a trap).
        for length in 0..<bytes.count {
            #expect(throws: ResumeArchiveError.self) { try ResumeArchive(decoding: Array(bytes.prefix(length))) }
        }
        for index in bytes.indices {
            var flipped = bytes
            flipped[index] ^= 0x01
            #expect(throws: ResumeArchiveError.self) { try ResumeArchive(decoding: flipped) }
        }
        var later = bytes
        later[8] = 2
        #expect(throws: ResumeArchiveError.version(2)) { try ResumeArchive(decoding: later) }
        #expect(throws: ResumeArchiveError.invalid("length")) { try ResumeArchive(decoding: bytes + [0]) }
    }
}
