/// Text from the database made safe for an operator's terminal.
///
/// A value may hold escape sequences — `ESC]0;…` retitles the window, `ESC[2J` clears the screen, `ESC]52;…`
/// writes the clipboard — or bidirectional overrides that make text read differently from what it is.
/// Table output and section headers show each such character as a visible escape (`\u{1B}`); `--json` output
/// stays exact (JSON escapes controls itself).
enum TerminalText {
    /// `text` with C0 and C1 controls, DEL and bidirectional controls written as `\u{…}`.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls (tab and newline included: they break the table's layout), DEL, C1 controls, and the
    /// bidirectional marks, embeddings, overrides and isolates.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
