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
}
