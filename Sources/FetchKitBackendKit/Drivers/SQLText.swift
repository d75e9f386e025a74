/// Small facts about raw SQL text, read without preparing it.
public enum SQLText {
    /// The first `limit` words of `sql`, uppercased, skipping whitespace and `--` / `/* */` comments;
    /// stops at the first character that is neither.
    ///
    /// - Complexity: O(*n*) in the length of the text read.
    public static func leadingKeywords(_ sql: String, limit: Int) -> [String] {
        let bytes = Array(sql.utf8)
        var index = 0
        var words: [String] = []
        while words.count < limit {
            skipSpaceAndComments(bytes, &index)
            let start = index
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            guard index > start else { break }
            words.append(String(decoding: bytes[start..<index], as: UTF8.self).uppercased())
        }
        return words
    }

    /// Whether `sql` begins, commits or rolls back a transaction (`ROLLBACK TO` a savepoint does not), in
    /// SQLite's or PostgreSQL's words (`START TRANSACTION`, `ABORT`, `PREPARE TRANSACTION` too).
    public static func controlsTransaction(_ sql: String) -> Bool {
        let words = leadingKeywords(sql, limit: 3)
        switch words.first {
        case "BEGIN", "COMMIT", "END", "ABORT":
            return true
        case "START":
            return words.dropFirst().first == "TRANSACTION"
        case "PREPARE":
            return words.dropFirst().first == "TRANSACTION"
        case "ROLLBACK":
            let rest = words.dropFirst().drop { $0 == "TRANSACTION" }
            return rest.first != "TO"
        default:
            return false
        }
    }

    /// Moves `index` past whitespace and `--` / `/* */` comments.
    public static func skipSpaceAndComments(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: " ") || (9...13).contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: "-") && next == UInt8(ascii: "-") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(bytes.count, index + 2)
            } else {
                return
            }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
