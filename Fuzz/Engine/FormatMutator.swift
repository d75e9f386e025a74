import FetchKit
import FetchKitFixtures
import FetchKitTesting

/// Changes a format string's bytes and tokens: bit flips, inserted and replaced bytes, deleted and duplicated
/// runs, splices with another string and token swaps. The result may be invalid UTF-8, which
/// `String(decoding:as:)` repairs as any caller's string would be.
struct FormatMutator {
    /// Tokens worth inserting: operators, keywords, specifiers, quotes, escapes, the new grammar's pieces.
    static let dictionary = [
        "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", "[", "]", "[cd]", ",", ".", "==", "<>", "=<", ">=",
        "IN",
        "BETWEEN", "LIKE", "MATCHES", "ANY ", "ALL ", "NONE ", "SELF", "NULL", "YES", "TRUEPREDICATE", "%@", "%K", "%d",
        "%lld", "%f", "%s", "%c", "%%", "%", "$X", "$", "#", "#in", "@count", ".@count", "@sum.", "'", "\"", "\\",
        "\\u", "\\uD83D", "\\u0000", "\\'", "0x", "-", "1e", "9223372036854775808", "CAST(", "'NSDate')", "SUBQUERY(",
        "$t.", "*", "+", "/", "**", "todos.", "category.", "title", "priority", " ", "\t", "é", "😀"
    ]

    var random: SeededRandom

    mutating func chance(_ percent: Int) -> Bool { random.int(0..<100) < percent }

    /// `format` with one to four mutations applied; `partner` is the other half of a splice.
    mutating func mutate(_ format: String, partner: String) -> String {
        var bytes = Array(format.utf8)
        for _ in 0..<(chance(60) ? 1 : random.int(2...4)) {
            switch random.int(0..<8) {
            case 0: flipBit(&bytes)
            case 1: insert(&bytes, Array(Self.dictionary[random.int(0..<Self.dictionary.count)].utf8))
            case 2: insert(&bytes, [UInt8(truncatingIfNeeded: random.next())])
            case 3: deleteRun(&bytes)
            case 4: duplicateRun(&bytes)
            case 5: bytes = splice(bytes, Array(partner.utf8))
            default: swapTokens(&bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func position(in bytes: [UInt8]) -> Int { random.int(0...bytes.count) }

    private mutating func flipBit(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes[random.int(0..<bytes.count)] ^= UInt8(1) << UInt8(random.int(0..<8))
    }

    private mutating func insert(_ bytes: inout [UInt8], _ piece: [UInt8]) {
        bytes.insert(contentsOf: piece, at: position(in: bytes))
    }

    private mutating func run(in bytes: [UInt8]) -> Range<Int> {
        let start = position(in: bytes)
        return start..<min(bytes.count, start + random.int(1...8))
    }

    private mutating func deleteRun(_ bytes: inout [UInt8]) {
        bytes.removeSubrange(run(in: bytes))
    }

    private mutating func duplicateRun(_ bytes: inout [UInt8]) {
        let run = run(in: bytes)
        bytes.insert(contentsOf: bytes[run], at: position(in: bytes))
    }

    private mutating func splice(_ bytes: [UInt8], _ partner: [UInt8]) -> [UInt8] {
        Array(bytes[..<position(in: bytes)]) + partner[position(in: partner)...]
    }

    /// Swaps two tokens, or replaces one with a dictionary token.
    private mutating func swapTokens(_ bytes: inout [UInt8]) {
        var tokens = Self.tokens(bytes)
        guard !tokens.isEmpty else { return }
        let first = random.int(0..<tokens.count)
        if chance(50) {
            tokens.swapAt(first, random.int(0..<tokens.count))
        } else {
            tokens[first] = Array(Self.dictionary[random.int(0..<Self.dictionary.count)].utf8)
        }
        bytes = tokens.flatMap { $0 }
    }

    /// Runs of name characters, of whitespace, and single other bytes: a crude split, enough to move words.
    static func tokens(_ bytes: [UInt8]) -> [[UInt8]] {
        func kind(_ byte: UInt8) -> Int {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...:
                return 0
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"): return 1
            default: return 2
            }
        }
        var tokens: [[UInt8]] = []
        for byte in bytes {
            if let last = tokens.last?.last, kind(last) == kind(byte), kind(byte) < 2 {
                tokens[tokens.count - 1].append(byte)
            } else {
                tokens.append([byte])
            }
        }
        return tokens
    }
}
