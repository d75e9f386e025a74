import FetchKit
import Foundation
import Logging

/// Where the tool's log lines go: standard error, so standard output stays the command's own (tables, JSON lines),
/// at the level `FETCHKIT_LOG_LEVEL` names — `warning` when unset, `info` to see the store's events (which change
/// feed it chose and why, a lost and regained connection), `debug` or `trace` for each controller's.
enum ToolLogging {
    /// The level when `FETCHKIT_LOG_LEVEL` is unset.
    static let defaultLevel = Logger.Level.warning

    /// Bootstraps swift-log for the process; called once, first thing.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when `FETCHKIT_LOG_LEVEL` names no level.
    static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let level = try self.level(environment["FETCHKIT_LOG_LEVEL"])
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// The level `text` names, in any case; ``defaultLevel`` for `nil` or an empty text.
    static func level(_ text: String?) throws -> Logger.Level {
        guard let text, !text.isEmpty else { return defaultLevel }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw FetchKitError.invalidValue(
                "FETCHKIT_LOG_LEVEL '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
        }
        return level
    }
}
