import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// The logical-replication stream's messages decode as the server writes them; anything cut short, padded or
/// unknown is an error naming the byte, never a crash.
@Suite("pgoutput decoding")
struct PgOutputDecodingTests {
    static let hot = PgOutputMessage.Relation(
        id: 16_385, namespace: "public", name: "hot", replicaIdentity: "d",
        columns: [
            .init(name: "id", isKey: true, typeID: 20, typeModifier: -1),
            .init(name: "title", isKey: false, typeID: 1_043, typeModifier: 104),
            .init(name: "body", isKey: false, typeID: 25, typeModifier: -1)
        ])

    @Test func logPositionsReadAndPrintAsPostgreSQLDoes() throws {
        let position = try #require(LogPosition("16/B374D848"))
        #expect(position.value == 0x16_B374_D848)
        #expect(position.description == "16/B374D848")
        #expect(LogPosition("0/0") == .zero)
        #expect(LogPosition("0/1")! < LogPosition("1/0")!)
        for bad in ["", "16", "/1", "1/", "G/1", "1/2/3", "123456789/0"] { #expect(LogPosition(bad) == nil) }
    }

    @Test func streamMessagesDecode() throws {
        var data = PgOutputEncoder()
        data.ascii("w")
        data.position(LogPosition(value: 0x100))
        data.position(LogPosition(value: 0x180))
        data.int64(42)
        data.bytes += PgOutputEncoder.encode(.type(id: 70_000, namespace: "public", name: "mood"))
        let logData = try ReplicationStreamMessage(decoding: data.bytes)
        guard case .logData(let start, let end, let sentAt, let payload) = logData else {
            Issue.record("not log data: \(logData)")
            return
        }
        #expect(start.value == 0x100 && end.value == 0x180 && sentAt == 42)
        #expect(try PgOutputMessage(decoding: payload) == .type(id: 70_000, namespace: "public", name: "mood"))

        var keepalive = PgOutputEncoder()
        keepalive.ascii("k")
        keepalive.position(LogPosition(value: 7))
        keepalive.int64(-1)
        keepalive.byte(1)
        #expect(
            try ReplicationStreamMessage(decoding: keepalive.bytes)
                == .keepalive(end: LogPosition(value: 7), sentAt: -1, replyRequested: true))

        #expect(throws: ReplicationDecodingError(offset: 0, reason: "unknown stream message kind 'x'")) {
            try ReplicationStreamMessage(decoding: [UInt8(ascii: "x")])
        }
        #expect(throws: ReplicationDecodingError.self) {
            try ReplicationStreamMessage(decoding: Array(keepalive.bytes.dropLast()))
        }
    }

    @Test func aStatusUpdateIsThirtyFourBigEndianBytes() {
        let update = StandbyStatusUpdate(
            written: LogPosition(value: 0x0102_0304_0506_0708), flushed: LogPosition(value: 0x10),
            applied: .zero, sentAt: 0x7F, replyRequested: true)
        let bytes = update.encoded
        #expect(bytes.count == 34)
        #expect(bytes[0] == UInt8(ascii: "r"))
        #expect(Array(bytes[1...8]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(bytes[9...16]) == [0, 0, 0, 0, 0, 0, 0, 0x10])
        #expect(Array(bytes[17...24]) == [UInt8](repeating: 0, count: 8))
        #expect(Array(bytes[25...32]) == [0, 0, 0, 0, 0, 0, 0, 0x7F])
        #expect(bytes[33] == 1)
    }

    @Test func everyMessageKindDecodes() throws {
        let messages: [PgOutputMessage] = [
            .begin(finalPosition: LogPosition(value: 0x1_0000_0000), committedAt: 123_456, transactionID: 731),
            .origin(position: LogPosition(value: 9), name: "sub_1"),
            .relation(Self.hot),
            .type(id: 70_000, namespace: "public", name: "mood"),
            .insert(relation: 16_385, new: [.text("1"), .text("héllo"), .null]),
            .update(relation: 16_385, old: nil, new: [.text("1"), .text("x"), .unchanged]),
            .update(relation: 16_385, old: .key([.text("1"), .null, .null]), new: [.text("2"), .text("x"), .null]),
            .update(relation: 16_385, old: .row([.text("1"), .text("a"), .text("b")]), new: [.text("1"), .null, .null]),
            .delete(relation: 16_385, old: .key([.text("2"), .null, .null])),
            .delete(relation: 16_385, old: .row([.binary([0, 1, 2]), .null, .null])),
            .truncate(relations: [16_385, 16_390], cascade: true, restartIdentity: false),
            .truncate(relations: [], cascade: false, restartIdentity: true),
            .message(transactional: true, position: LogPosition(value: 5), prefix: "fk", content: [1, 2, 3]),
            .commit(position: LogPosition(value: 0x1_0000_0000), end: LogPosition(value: 0x1_0000_0030), committedAt: 1)
        ]
        for message in messages {
            #expect(try PgOutputMessage(decoding: PgOutputEncoder.encode(message)) == message)
        }
    }

    @Test func malformedMessagesAreRefusedWithTheirByte() {
        // Padding after a whole message.
        #expect(throws: ReplicationDecodingError(offset: 10, reason: "1 byte follows the message")) {
            try PgOutputMessage(decoding: PgOutputEncoder.encode(.origin(position: .zero, name: "")) + [0])
        }
        // A column of a kind the protocol does not have.
        var unknown = PgOutputEncoder()
        unknown.ascii("I")
        unknown.uint32(1)
        unknown.ascii("N")
        unknown.int16(1)
        unknown.ascii("x")
        #expect(
            throws: ReplicationDecodingError(offset: 8, reason: "column 0's value is of unknown kind 'x'")
        ) { try PgOutputMessage(decoding: unknown.bytes) }
        // A value longer than the message.
        var long = PgOutputEncoder()
        long.ascii("I")
        long.uint32(1)
        long.ascii("N")
        long.int16(1)
        long.ascii("t")
        long.int32(10)
        long.bytes += [65, 66]
        #expect(
            throws: ReplicationDecodingError(
                offset: 13, reason: "the message ends before column 0's value (10 bytes needed, 2 left)")
        ) { try PgOutputMessage(decoding: long.bytes) }
        // An insert without its new row.
        #expect(throws: ReplicationDecodingError.self) {
            try PgOutputMessage(decoding: [UInt8(ascii: "I"), 0, 0, 0, 1, UInt8(ascii: "K"), 0, 0])
        }
        #expect(throws: ReplicationDecodingError(offset: 0, reason: "unknown pgoutput message kind 0x0")) {
            try PgOutputMessage(decoding: [0])
        }
    }

    /// Random messages decode to themselves, and every shorter prefix of one is refused, never a crash.
    @Test func randomMessagesRoundTripAndTheirPrefixesAreRefused() throws {
        var random = SeededRandom(seed: 0x5EED_0DEC)
        func text() -> String {
            String((0..<random.int(0...12)).map { _ in "aé_1 ☃".randomElement(using: &random)! })
        }
        func values() -> [PgOutputMessage.Value] {
            (0..<random.int(0...6)).map { _ in
                switch random.int(0..<4) {
                case 0: .null
                case 1: .unchanged
                case 2: .text(text())
                default: .binary((0..<random.int(0...5)).map { _ in UInt8(random.int(0...255)) })
                }
            }
        }
        func position() -> LogPosition { LogPosition(value: random.next()) }
        for _ in 0..<500 {
            let message: PgOutputMessage
            switch random.int(0..<9) {
            case 0:
                message = .begin(
                    finalPosition: position(), committedAt: Int64(bitPattern: random.next()),
                    transactionID: UInt32(truncatingIfNeeded: random.next()))
            case 1: message = .commit(position: position(), end: position(), committedAt: 0)
            case 2:
                message = .relation(
                    .init(
                        id: UInt32(random.int(1...99_999)), namespace: text(), name: text(),
                        replicaIdentity: "dnfi".randomElement(using: &random)!,
                        columns: (0..<random.int(0...5)).map { _ in
                            .init(
                                name: text(), isKey: random.int(0...1) == 1, typeID: UInt32(random.int(16...5_000)),
                                typeModifier: Int32(random.int(-1...300)))
                        }))
            case 3: message = .insert(relation: 7, new: values())
            case 4: message = .update(relation: 7, old: random.int(0...2) == 0 ? nil : .key(values()), new: values())
            case 5: message = .delete(relation: 7, old: random.int(0...1) == 0 ? .key(values()) : .row(values()))
            case 6:
                message = .truncate(
                    relations: (0..<random.int(0...4)).map { UInt32($0) }, cascade: random.int(0...1) == 1,
                    restartIdentity: random.int(0...1) == 1)
            case 7: message = .type(id: 70_001, namespace: text(), name: text())
            default: message = .origin(position: position(), name: text())
            }
            let bytes = PgOutputEncoder.encode(message)
            #expect(try PgOutputMessage(decoding: bytes) == message)
            for length in 0..<bytes.count {
                #expect(throws: ReplicationDecodingError.self) {
                    try PgOutputMessage(decoding: Array(bytes[..<length]))
                }
            }
        }
    }
}
