import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// The notification scanner reads what Foundation's JSON decoder reads, for every payload the trigger writes
/// and for any it refuses (those go to the decoder).
@Suite("Notification payload scanner")
struct PostgresNotificationPayloadTests {
    typealias Payload = PostgresNotification.Payload

    static let accepted = [
        #"{"x":1,"s":"public","t":"hot","o":"u","k":[5]}"#,
        #"{"x":9223372036854775807,"s":"a b","t":"t\"q","o":"i","k":[-9223372036854775808,0,-1,12]}"#,
        #"{"x":7,"s":"public","t":"todo","o":"d","k":["a","","é ü 中文 🎉","\\ \/ \b \f \n \r \t","\u00e9\ud83c\udf89"]}"#,
        #" { "x" : 3 , "s" : null , "t" : "hot" , "o" : "t" , "all" : true } "#,
        #"{"x":4,"end":true}"#,
        #"{"x":5,"s":"sch","t":"tab","o":"u","k":[],"all":false,"end":false}"#,
        "{\"x\":6,\n\"t\":\"tab\",\t\"o\":\"u\",\r\"k\":[ 1 , \"2\" ]}",
        #"{"x":8,"s":"s","t":"padded  ","o":"i","k":["ab  "]}"#
    ]

    static let refused = [
        #"{"x":1,"t":"hot","o":"u","k":[5],"extra":1}"#,  // an unknown field
        #"{"x":1,"x":2,"t":"hot","o":"u","k":[5]}"#,  // a repeated one
        #"{"x":1.0,"t":"hot","o":"u","k":[5]}"#,  // a fraction
        #"{"x":1,"t":"hot","o":"u","k":[1e3]}"#,  // an exponent
        #"{"x":01,"t":"hot","o":"u","k":[5]}"#,  // a leading zero
        #"{"x":9223372036854775808,"t":"hot","o":"u","k":[5]}"#,  // past Int64
        "{\"x\":1,\"t\":\"h\u{01}t\",\"o\":\"u\",\"k\":[5]}",  // a control character
        #"{"x":1,"t":"hot","o":"u","k":[5]} x"#,  // trailing text
        #"{"x":1,"t":"\udc00","o":"u","k":[5]}"#,  // a lone surrogate
        #"{"x":1,"t":"hot","o":"u","k":[null]}"#,  // a null key
        #"{"x":1,"t":"hot","o":"u","k":[5]"#,  // cut short
        #"{"t":"hot","o":"u","k":[5]}"#,  // no transaction
        #"[1]"#, "", "{}"
    ]

    @Test func theScannerReadsWhatTheDecoderReads() throws {
        for payload in Self.accepted {
            let scanned = try #require(Payload(scanning: payload), "\(payload)")
            #expect(scanned == Payload(decoding: payload), "\(payload)")
        }
    }

    @Test func whatTheScannerRefusesGoesToTheDecoder() {
        for payload in Self.refused {
            #expect(Payload(scanning: payload) == nil, "\(payload)")
            // The notification is what the decoder makes of it (nil when it cannot read it either).
            let decoded = Payload(decoding: payload)
            #expect((PostgresNotification(payload: payload) == nil) == (decoded == nil), "\(payload)")
        }
        #expect(Payload(decoding: #"{"x":1,"t":"hot","o":"u","k":[5],"extra":1}"#)?.k == [.integer(5)])
    }

    @Test func randomTriggerPayloadsReadAlike() throws {
        var random = SeededRandom(seed: 0x7061_796c)
        let pieces = [
            "a", "Z", " ", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041", "\\u00e9", "é", "中", "🎉",
            "\\ud83c\\udf89", "'", ","
        ]
        func text() -> String { (0..<random.int(0..<6)).map { _ in pieces[random.int(0..<pieces.count)] }.joined() }
        for _ in 0..<2_000 {
            var fields = ["\"x\":\(Int64(random.int(-1_000_000...1_000_000)))"]
            if random.int(0..<4) > 0 { fields.append("\"s\":\"\(text())\"") }
            fields.append("\"t\":\"\(text())\"")
            fields.append("\"o\":\"\(["i", "u", "d", "t"][random.int(0..<4)])\"")
            switch random.int(0..<3) {
            case 0: fields.append("\"all\":true")
            case 1: fields.append("\"end\":true")
            default:
                let keys = (0..<random.int(0..<5)).map { _ in
                    random.int(0..<2) == 0 ? "\(random.int(-99_999...99_999))" : "\"\(text())\""
                }
                fields.append("\"k\":[\(keys.joined(separator: ","))]")
            }
            let payload = "{" + fields.shuffled(using: &random).joined(separator: ",") + "}"
            let scanned = try #require(Payload(scanning: payload), "\(payload)")
            #expect(scanned == Payload(decoding: payload), "\(payload)")
        }
    }
}
