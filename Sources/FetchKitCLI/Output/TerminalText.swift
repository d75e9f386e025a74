import FetchKit

/// Text from the database made safe for an operator's terminal and for a JSON consumer.
///
/// A value may hold escape sequences — `ESC]0;…` retitles the window, `ESC[2J` clears the screen, `ESC]52;…`
/// writes the clipboard — or bidirectional overrides that make text read differently from what it is.
/// Table output, section headers and error messages show each such character as a visible escape
/// (`\u{1B}`), as FetchKit's error messages quote identifiers (the core's `SafeText`); `--json` output writes
/// it as a JSON escape (`\u001b`), so a consumer decodes the exact text but no control is ever raw on the wire.
enum TerminalText {
    /// `text` with C0 and C1 controls, DEL and bidirectional controls written as `\u{…}`.
    static func safe(_ text: String) -> String { SafeText.escaped(text) }

    /// `text` with the same characters written as `\u{…}`, its line feeds and tabs kept: for messages of
    /// several lines (a database's message, usage text around an error).
    static func safeLines(_ text: String) -> String { SafeText.escaped(text, keepingLineBreaks: true) }

    /// `json` (JSON text) with every control and bidirectional character (see ``SafeText/isUnsafe(_:)``) that
    /// is still raw written as a `\uXXXX` escape. JSON encoders escape C0 controls only; the others can occur
    /// only inside strings, where the escape decodes back to the same character.
    static func safeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: SafeText.isUnsafe) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if SafeText.isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
