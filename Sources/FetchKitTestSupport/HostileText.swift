import Foundation

/// Text a database may hold that must never reach a terminal or a JSON consumer raw: escape sequences,
/// C1 controls, DEL, bidirectional overrides and isolates. Each backend's tests store it as values and
/// identifiers and check every output path with ``unsafeScalars(in:allowingLineBreaks:)``.
public enum HostileText {
    /// Values and names: a window title (OSC 0), a screen clear, a clipboard write (OSC 52), a one-character
    /// CSI (U+009B), DEL, a right-to-left override, an isolate, CR, BEL, and a zero-width joiner (harmless: it
    /// may pass).
    public static let strings = [
        "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\u{1B}]52;c;SGVsbG8=\u{07}", "\u{9B}31mred", "del\u{7F}ete",
        "abc\u{202E}fed", "iso\u{2066}late\u{2069}d", "carriage\rreturn", "bell\u{07}rings", "zero\u{200D}width"
    ]

    /// ``strings`` and a NUL, for names that never reach a database or a command line (a key path asked for).
    public static let withNUL = strings + ["nul\u{0}byte"]

    /// The scalars of `text` that must not reach a terminal raw (C0 and C1 controls, DEL, bidirectional
    /// controls), as `U+XXXX`; line feeds and tabs are allowed when `allowingLineBreaks`.
    public static func unsafeScalars(in text: String, allowingLineBreaks: Bool = false) -> [String] {
        text.unicodeScalars.compactMap { scalar in
            if allowingLineBreaks && (scalar == "\n" || scalar == "\t") { return nil }
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                return "U+" + String(scalar.value, radix: 16, uppercase: true)
            default: return nil
            }
        }
    }

    /// Every string a decoded JSON value holds (object keys included).
    public static func strings(inJSON value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap { strings(inJSON: $0) }
        case let object as [String: Any]: return object.keys + object.values.flatMap { strings(inJSON: $0) }
        default: return []
        }
    }

    /// The first `count` lines `executable` (`fetchkit watch …`) prints with `arguments`, then Ctrl-C.
    package static func firstLines(of executable: URL, _ arguments: [String], count: Int) async throws -> String {
        let watch = try ChildProcess(executable, arguments, mergingStandardError: false)
        var output: [String] = []
        for index in 0..<count { output.append(try await watch.line(index)) }
        watch.interrupt()
        _ = try await watch.exit()
        return output.joined(separator: "\n")
    }

    /// Runs `executable` with `arguments` followed by each of `variants` — command lines that fail on a
    /// hostile name — and returns what went wrong: a run that exited 0, or whose output (standard output and
    /// error) holds a raw control.
    package static func failuresShowingRawText(
        of executable: URL, _ arguments: [String], variants: [[String]]
    ) async throws -> [String] {
        var problems: [String] = []
        for extra in variants {
            let (status, text) = try await ChildProcess.run(executable, arguments + extra)
            if status == 0 { problems.append("\(extra.debugDescription) succeeded: \(text)") }
            let unsafe = unsafeScalars(in: text, allowingLineBreaks: true)
            if !unsafe.isEmpty {
                problems.append("\(extra.debugDescription) printed \(unsafe): \(text.debugDescription)")
            }
        }
        return problems
    }
}
