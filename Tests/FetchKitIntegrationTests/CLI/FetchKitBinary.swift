import FetchKitTestSupport
import Foundation

/// The `fetchkit` binary built beside this test binary.
enum FetchKitBinary {
    static var url: URL {
        get throws { try BuildProducts.executable("fetchkit") }
    }

    /// Runs it with `arguments` to the end: its exit status, and its standard output and error together.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(try url, arguments)
    }

    /// Runs it with `arguments` and `FETCHKIT_PROGRESS=1`: its progress lines, one per update, as on a terminal
    /// they would rewrite one line.
    static func runShowingProgress(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["FETCHKIT_PROGRESS"] = "1"
        return try await ChildProcess.run(try url, arguments, environment: environment)
    }
}
