import Foundation
import Synchronization

/// How far a long operation (an import, a schema's evolution) is, on standard error: one line rewritten in place
/// on a terminal, at most ten times a second. Nothing when standard error is not a terminal — a pipe or a log
/// gets no carriage returns — unless `FETCHKIT_PROGRESS=1` asks for it (then each update is a line of its own);
/// `FETCHKIT_PROGRESS=0` turns it off on a terminal too.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let inPlace: Bool
    /// When the line was last written.
    private let written = Mutex<ContinuousClock.Instant?>(nil)

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let terminal = isatty(STDERR_FILENO) == 1
        switch environment["FETCHKIT_PROGRESS"] {
        case "1": (enabled, inPlace) = (true, terminal)
        case "0": (enabled, inPlace) = (false, false)
        default: (enabled, inPlace) = (terminal, terminal)
        }
    }

    /// Shows `text` (made safe for a terminal), unless the line was written less than 0.1 s ago and `always` is
    /// false.
    func update(_ text: @autoclosure () -> String, always: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = written.withLock { last -> Bool in
            guard always || last.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        write(TerminalText.safe(text()))
    }

    /// Clears the line (on a terminal), so that what is printed next starts on a clean one.
    func finish() {
        guard enabled, inPlace else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func write(_ text: String) {
        let line = inPlace ? "\r\u{1B}[K" + text : text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
