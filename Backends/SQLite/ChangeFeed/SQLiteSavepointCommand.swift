import FetchKitBackendKit
import Foundation

/// A savepoint statement, read from its SQL text: `SAVEPOINT n`, `RELEASE [SAVEPOINT] n`,
/// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] n`.
///
/// The change feed follows savepoints from the text of each statement as it starts running (the
/// authorizer cannot be used: it runs when a statement is prepared, and a cached statement runs
/// again without being prepared again). Names are compared as SQLite compares them: ASCII letters
/// case-insensitively, after removing the quotes (`"…"`, `[…]`, `` `…` ``, `'…'`).
///
/// Reading the text before the statement runs is exact because, through the store's API, a savepoint
/// statement fails only for a name no open savepoint has (which the log ignores as well): statements
/// run one at a time and to completion, so none is in progress when one runs.
enum SQLiteSavepointCommand: Equatable {
    case begin(String)
    case release(String)
    case rollbackTo(String)

    /// The command `sql` runs, or `nil` when it is no savepoint statement.
    ///
    /// - Complexity: O(*n*) in the length of the text read.
    init?(sql: String) {
        var scanner = Scanner(Array(sql.utf8))
        switch scanner.keyword() {
        case "SAVEPOINT":
            guard let name = scanner.name() else { return nil }
            self = .begin(name)
        case "RELEASE":
            scanner.skip(keyword: "SAVEPOINT")
            guard let name = scanner.name() else { return nil }
            self = .release(name)
        case "ROLLBACK":
            scanner.skip(keyword: "TRANSACTION")
            guard scanner.keyword() == "TO" else { return nil }
            scanner.skip(keyword: "SAVEPOINT")
            guard let name = scanner.name() else { return nil }
            self = .rollbackTo(name)
        default:
            return nil
        }
    }

    /// Whether the statement text `sql` might be a savepoint statement: a check on its first bytes
    /// that spares reading the text of every statement. Text starting with whitespace or a comment
    /// might be, except a one-line `--` comment (how SQLite names a trigger program it starts).
    static func mayBe(_ sql: UnsafePointer<CChar>) -> Bool {
        func byte(_ offset: Int) -> UInt8 { UInt8(bitPattern: sql[offset]) }
        func upper(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? byte - 32 : byte }
        switch byte(0) {
        case UInt8(ascii: "-"):
            guard byte(1) == UInt8(ascii: "-") else { return false }
            return strchr(sql, 0x0A) != nil
        case UInt8(ascii: "/"), UInt8(ascii: " "), 9...13:
            return true
        case UInt8(ascii: "S"), UInt8(ascii: "s"):
            return upper(byte(1)) == UInt8(ascii: "A")
        case UInt8(ascii: "R"), UInt8(ascii: "r"):
            let second = upper(byte(1))
            return second == UInt8(ascii: "E") || second == UInt8(ascii: "O")
        default:
            return false
        }
    }

    /// Reads words and names, skipping whitespace and comments.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next word of ASCII letters, uppercased; `nil` when the next token is something else.
        mutating func keyword() -> String? {
            skipSpaceAndComments()
            let start = index
            while index < bytes.count, Self.isLetter(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
        }

        /// Consumes `keyword` when it is the next word.
        mutating func skip(keyword: String) {
            let saved = index
            if self.keyword() != keyword { index = saved }
        }

        /// The next identifier or string literal, unquoted and ASCII-lowercased.
        mutating func name() -> String? {
            skipSpaceAndComments()
            guard index < bytes.count else { return nil }
            var name: [UInt8] = []
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                let quote = bytes[index]
                index += 1
                while index < bytes.count {
                    if bytes[index] == quote {
                        // A doubled quote stands for one.
                        guard index + 1 < bytes.count, bytes[index + 1] == quote else { break }
                        index += 1
                    }
                    name.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { return nil }
                index += 1
            case UInt8(ascii: "["):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    name.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { return nil }
                index += 1
            default:
                while index < bytes.count, Self.isIdentifierByte(bytes[index]) {
                    name.append(bytes[index])
                    index += 1
                }
                guard !name.isEmpty else { return nil }
            }
            return String(decoding: name.map(Self.asciiLowercased), as: UTF8.self)
        }

        private mutating func skipSpaceAndComments() {
            SQLText.skipSpaceAndComments(bytes, &index)
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }

        private static func isIdentifierByte(_ byte: UInt8) -> Bool {
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
        }

        private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
    }
}
