import Logging
import Synchronization

/// Keeps every line logged through its ``logger``, at every level, for a test to read.
///
/// ```swift
/// let log = LogCapture()
/// let store = try await SQLiteStore.inMemory(schema: schema, options: .init(logger: log.logger))
/// #expect(log.lines.allSatisfy { $0.level <= .info })
/// ```
public final class LogCapture: Sendable {
    /// One line: its level, message and metadata (the logger's and the call's).
    public struct Line: Sendable, CustomStringConvertible {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
        public let source: String

        public var description: String { "\(level) \(message) \(metadata) \(source)" }
    }

    private let kept = Mutex<[Line]>([])

    public init() {}

    /// A logger at trace level whose lines this capture keeps.
    public var logger: Logger {
        Logger(label: "fetchkit.test") { _ in Handler(capture: self) }
    }

    /// Every line so far, in order.
    public var lines: [Line] { kept.withLock { $0 } }

    /// How many lines so far: ``lines(since:)`` of it reads what comes after.
    public var count: Int { kept.withLock { $0.count } }

    /// The lines logged after the first `count`.
    public func lines(since count: Int) -> [Line] {
        kept.withLock { Array($0.dropFirst(count)) }
    }

    fileprivate func keep(_ line: Line) {
        kept.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.keep(
                Line(
                    level: event.level, message: "\(event.message)",
                    metadata: metadata.merging(event.metadata ?? [:]) { $1 }, source: event.source))
        }
    }
}
