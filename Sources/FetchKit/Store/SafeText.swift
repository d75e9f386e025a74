/// Text from a database — an identifier, a key, a value — made safe to show: on a terminal, in a log, in an
/// error message.
///
/// A name may hold escape sequences (`ESC]0;…` retitles a terminal window, `ESC[2J` clears the screen,
/// `ESC]52;…` writes the clipboard, U+009B is a one-character CSI) or bidirectional controls that make text
/// read differently from what it is. ``escaped(_:)`` writes each such character as a visible escape
/// (`\u{1B}`); ``quoted(_:)`` does so between single quotes, as error messages quote identifiers.
public enum SafeText {
    /// `text` with C0 and C1 controls, DEL and bidirectional controls written as `\u{…}`; with
    /// `keepingLineBreaks`, line feeds and tabs are kept (a database's message of several lines).
    public static func escaped(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
            isUnsafe(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t"))
        }
        guard text.unicodeScalars.contains(where: mustEscape) else { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `'name'`, escaped: how an error message quotes an identifier, a key path or a value.
    public static func quoted(_ name: some CustomStringConvertible) -> String { "'" + escaped(name.description) + "'" }

    /// Whether `scalar` must not reach a terminal raw: C0 controls (tab and newline included: they would break
    /// a line or a table's layout), DEL, C1 controls, and the bidirectional marks (U+061C, U+200E, U+200F),
    /// embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
