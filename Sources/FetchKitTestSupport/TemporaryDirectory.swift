import Foundation

/// A directory under the system's temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it.
    public func remove() {
        // Best effort: a test that already removed it, or a file still open, must not fail the test.
        try? FileManager.default.removeItem(at: url)
    }
}
