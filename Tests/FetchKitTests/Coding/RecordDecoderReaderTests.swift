@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKit

/// A record of the six types decoders read typed, all required.
private struct Typed: Record, Equatable {
    static let entity = Entity(
        "Typed",
        attributes: [
            Attribute("name", .text), Attribute("score", .double), Attribute("flag", .bool),
            Attribute("created", .date), Attribute("bytes", .binary)
        ])
    var id: Int64
    var name: String
    var score: Double
    var flag: Bool
    var created: Date
    var bytes: Data
}

/// A class reader over fixed values that counts how it is read.
private final class CountingReader: ColumnReader {
    let names: [String]
    let values: [Value]
    private(set) var valueReads = 0
    private(set) var typedReads = 0

    init(_ row: Row) {
        names = row.names
        values = row.values
    }

    func columnIndex(of attribute: String) -> Int? { names.firstIndex(of: attribute) }

    func value(at index: Int) -> Value {
        valueReads += 1
        return values[index]
    }

    private func typed<T>(_ index: Int, _ payload: (Value) -> T?) -> T? {
        typedReads += 1
        return payload(values[index])
    }

    func integer(at index: Int) -> Int64? {
        typed(index) { if case .integer(let v) = $0 { v } else { nil } }
    }

    func double(at index: Int) -> Double? {
        typed(index) { if case .double(let v) = $0 { v } else { nil } }
    }

    func text(at index: Int) -> String? {
        typed(index) { if case .text(let v) = $0 { v } else { nil } }
    }

    func bool(at index: Int) -> Bool? {
        typed(index) { if case .bool(let v) = $0 { v } else { nil } }
    }

    func date(at index: Int) -> Date? {
        typed(index) { if case .date(let v) = $0 { v } else { nil } }
    }

    func blob(at index: Int) -> Data? {
        typed(index) { if case .blob(let v) = $0 { v } else { nil } }
    }
}

/// Where ``Keeper`` leaves the container it decoded with (only the one test that decodes a `Keeper` uses it).
private final class KeptContainer: @unchecked Sendable {
    var container: KeyedDecodingContainer<Keeper.CodingKeys>?
}

private let kept = KeptContainer()

/// A record that keeps its keyed container past `init(from:)`.
private struct Keeper: Record {
    static let entity = Entity("Keeper", attributes: [Attribute("name", .text)])
    enum CodingKeys: String, CodingKey { case id, name }
    var id: Int64?
    var name: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        kept.container = container
    }
}

@Suite("RecordDecoder: typed reads and the decoder's lifetime")
struct RecordDecoderReaderTests {
    fileprivate static let sample = Typed(
        id: 1, name: "row", score: 0.5, flag: true, created: Date(microsecondsSince1970: 1_700_000_000_000_001),
        bytes: Data([1, 2]))

    @Test("a reader's typed reads serve every property of the six attribute types: no Value is built")
    func typedReadsAvoidValues() throws {
        let decoder = RecordDecoder(Typed.self)
        let reader = CountingReader(try RecordCoding.encode(Self.sample))
        for _ in 0..<3 {
            #expect(try decoder.decode(from: reader) == Self.sample)
        }
        #expect(reader.valueReads == 0)
        #expect(reader.typedReads == 18)
    }

    @Test("a value the typed read does not give converts through value(at:)")
    func typedReadsFallBack() throws {
        var row = try RecordCoding.encode(Self.sample)
        row.set("score", to: .integer(3))
        row.set("flag", to: .integer(0))
        row.set("created", to: .integer(5))
        let reader = CountingReader(row)
        let decoded = try RecordDecoder(Typed.self).decode(from: reader)
        #expect(decoded.score == 3.0 && !decoded.flag && decoded.created == Date(microsecondsSince1970: 5))
        #expect(reader.valueReads == 3)
    }

    @Test("a decoder's state is freed with it")
    func stateIsFreed() throws {
        weak var state: RecordDecodingState?
        do {
            let decoder = RecordDecoder(Fixtures.TodoRecord.self)
            for todo in Fixtures.sampleTodos {
                #expect(try decoder.decode(from: RecordCoding.encode(todo)) == todo)
            }
            state = decoder.state
        }
        #expect(state == nil)
    }

    @Test("a container kept past init(from:) keeps the state alive: using it later throws, never crashes")
    func keptContainerKeepsTheStateAlive() throws {
        weak var state: RecordDecodingState?
        do {
            let decoder = RecordDecoder(Keeper.self)
            let row: Row = ["id": 1, "name": "kept"]
            #expect(try decoder.decode(from: row).name == "kept")
            state = decoder.state
        }
        #expect(state?.containerEscaped == true)
        let container = try #require(kept.container)
        #expect(throws: (any Error).self) {
            try container.decode(String.self, forKey: .name)
        }
    }
}
