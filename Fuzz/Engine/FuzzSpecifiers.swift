/// Finds the specifiers of a format string outside its quoted strings, as the lexer reads them, so that a
/// mutated string can be given an argument for each.
enum FuzzSpecifiers {
    /// Every spelling the lexer takes, longest first.
    static let spellings: [String] = {
        var spellings = ["%@", "%K", "%s", "%S", "%c", "%C"]
        for length in ["ll", "hh", "l", "h", "q", "z", "t", "j", ""] {
            for conversion in ["d", "i", "u", "x", "X", "o"] { spellings.append("%" + length + conversion) }
        }
        for length in ["L", "l", ""] {
            for conversion in ["f", "F", "e", "E", "g", "G", "a", "A"] { spellings.append("%" + length + conversion) }
        }
        return spellings.sorted { $0.utf8.count > $1.utf8.count }
    }()

    /// The specifiers of `format` in order (`%%` is not one), skipping quoted strings and their escapes.
    static func scan(_ format: String) -> [String] {
        let bytes = Array(format.utf8)
        var found: [String] = []
        var index = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == open { quote = nil }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "%") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "%") {
                    index += 2
                    continue
                }
                if let spelling = spellings.first(where: { bytes[index...].starts(with: $0.utf8) }) {
                    found.append(spelling)
                    index += spelling.utf8.count
                    continue
                }
            }
            index += 1
        }
        return found
    }
}
