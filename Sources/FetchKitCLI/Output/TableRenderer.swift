import FetchKit

/// Renders rows as a plain-text table with a header and aligned columns.
struct TableRenderer {
    var maxWidth = 28

    func render(_ rows: [Row], columns: [String]? = nil) -> String {
        guard let first = rows.first else { return "(no rows)\n" }
        let names = (columns ?? first.names)
        let cells: [[String]] = rows.map { row in names.map { cell(row[$0] ?? .null) } }
        var widths = names.map { Self.displayWidth(TerminalText.safe($0)) }
        for line in cells {
            for (i, text) in line.enumerated() { widths[i] = max(widths[i], Self.displayWidth(text)) }
        }
        func format(_ line: [String]) -> String {
            zip(line, widths).map { $0 + String(repeating: " ", count: $1 - Self.displayWidth($0)) }.joined(
                separator: " | ")
        }
        var out = format(names.map(TerminalText.safe)) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "\n"
        for line in cells { out += format(line) + "\n" }
        return out
    }

    /// Terminal columns `text` occupies: East Asian wide characters and emoji take two.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: return width
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
                return width + 2
            default: return width + 1
            }
        }
    }

    private func cell(_ value: Value) -> String {
        let text: String
        switch value {
        case .null: text = "∅"
        case .text(let s): text = TerminalText.safe(s)
        default: text = TerminalText.safe(value.description)
        }
        return text.count > maxWidth ? String(text.prefix(maxWidth - 1)) + "…" : text
    }
}
