import FetchKit
import Foundation

extension PostgresNotification {
    /// The payload as the trigger writes it: `{"x":…,"s":…,"t":…,"o":…,"k":[…]}`, `"all":true` in place of
    /// the keys, or `{"x":…,"end":true}`.
    struct Payload: Equatable {
        var x: Int64
        var s: String?
        var t: String?
        var o: String?
        /// The followed foreign-key column of a reference notification.
        var c: String?
        /// The keys: JSON integers or strings.
        var k: [Value]?
        var all: Bool?
        var end: Bool?
    }
}

extension PostgresNotification.Payload: Decodable {
    private enum CodingKeys: String, CodingKey { case x, s, t, o, c, k, all, end }

    /// A key: a JSON integer or string.
    private struct Key: Decodable {
        let value: Value

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // A key is an integer or a string: a value that is not an integer is read as a string, whose
            // failure is the error.
            if let integer = try? container.decode(Int64.self) {
                value = .integer(integer)
            } else {
                value = .text(try container.decode(String.self))
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.decode(Int64.self, forKey: .x)
        s = try container.decodeIfPresent(String.self, forKey: .s)
        t = try container.decodeIfPresent(String.self, forKey: .t)
        o = try container.decodeIfPresent(String.self, forKey: .o)
        c = try container.decodeIfPresent(String.self, forKey: .c)
        k = try container.decodeIfPresent([Key].self, forKey: .k)?.map(\.value)
        all = try container.decodeIfPresent(Bool.self, forKey: .all)
        end = try container.decodeIfPresent(Bool.self, forKey: .end)
    }

    /// Any JSON object with these fields, through Foundation's decoder; `nil` when it is not one.
    init?(decoding payload: String) {
        // Not a payload FetchKit's trigger or a store's write sends: the listener reports it as unreadable and
        // resyncs (`ListenerStateMachine`), so the decoder's error adds nothing.
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(payload.utf8)) else { return nil }
        self = decoded
    }
}
