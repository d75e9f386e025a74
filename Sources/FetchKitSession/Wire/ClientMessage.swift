import FetchKit
import Foundation

/// What a client sends its session, one JSON object per WebSocket text message (see "The session protocol").
///
/// ```json
/// {"v": 1, "type": "open", "filter": "done == NO", "sort": [{"key": "title"}], "resume": "k1F9…"}
/// {"v": 1, "type": "move", "id": 7, "key": 3, "before": 12}
/// ```
public enum ClientMessage: Sendable, Equatable {
    /// Opens the list: the client's filter (format syntax) and sort, and the token of the last state it applied.
    case open(filter: String?, sort: [ClientSort], resume: String?)
    /// Moves the row `key` just above the row `before`, or to the end of the section `section`.
    case move(id: Int, key: Value, destination: MoveDestination)

    /// The longest message a session reads (a filter and a few sort keys fit many times over).
    public static let maximumLength = 16_384

    private struct Wire: Decodable {
        var v: Int?
        var type: String?
        var filter: String?
        var sort: [ClientSort]?
        var resume: String?
        var id: Int?
        var key: KeyValue?
        var before: KeyValue?
        var section: String?
    }

    /// A primary key as JSON: a whole number or a string.
    private struct KeyValue: Decodable {
        var value: Value

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int64.self) {
                value = .integer(integer)
            } else if let text = try? container.decode(String.self) {
                value = .text(text)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a key is a whole number or a string")
            }
        }
    }

    /// Decodes and checks one message.
    ///
    /// - Throws: ``SessionError`` with code `invalid`, saying what is wrong.
    public init(json text: String) throws(SessionError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw SessionError(.invalid, "a message is at most \(Self.maximumLength) bytes")
        }
        let wire: Wire
        do {
            wire = try SessionJSON.decoder().decode(Wire.self, from: Data(text.utf8))
        } catch {
            throw SessionError(.invalid, "not a message of the session protocol")
        }
        guard wire.v == SessionMessage<Row>.protocolVersion else {
            throw SessionError(
                .invalid,
                "protocol version \(wire.v.map(String.init) ?? "missing"); this server speaks "
                    + "\(SessionMessage<Row>.protocolVersion)")
        }
        switch wire.type {
        case "open":
            self = .open(filter: wire.filter, sort: wire.sort ?? [], resume: wire.resume)
        case "move":
            guard let id = wire.id else { throw SessionError(.invalid, "a move needs an 'id'") }
            guard let key = wire.key?.value else { throw SessionError(.invalid, "a move needs a 'key'") }
            switch (wire.before?.value, wire.section) {
            case (let before?, nil): self = .move(id: id, key: key, destination: .before(before))
            case (nil, let section?): self = .move(id: id, key: key, destination: .endOfSection(section))
            default:
                throw SessionError(.invalid, "a move names either the row it goes 'before' or the 'section' it ends")
            }
        case let type?:
            throw SessionError(.invalid, "unknown message type '\(type.prefix(40))'")
        case nil:
            throw SessionError(.invalid, "a message needs a 'type'")
        }
    }
}

/// One key of a client's sort: `{"key": "title", "ascending": false}` (ascending unless it says not).
public struct ClientSort: Sendable, Equatable, Decodable {
    /// The key path to sort by.
    public var key: String
    /// Ascending (`true`, the default) or descending.
    public var ascending: Bool

    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    private enum Key: String, CodingKey { case key, ascending }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        key = try container.decode(String.self, forKey: .key)
        ascending = try container.decodeIfPresent(Bool.self, forKey: .ascending) ?? true
    }
}
