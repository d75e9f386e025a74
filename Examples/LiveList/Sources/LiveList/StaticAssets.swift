import Foundation
import Hummingbird

/// The page's files, read once at start: `Public/` of this example and FetchKit's JavaScript client
/// (`Clients/JavaScript/fetchkit-changeset.js`), found from this source file's place in the repository.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
    }

    private let assets: [String: Asset]

    /// Where the example's files are, in a checkout of FetchKit.
    static let exampleDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Reads the page's files.
    ///
    /// - Throws: when one is missing (the example runs from a checkout of FetchKit).
    init(directory: URL = StaticAssets.exampleDirectory) throws {
        let files: [(path: String, file: URL, type: String)] = [
            ("/", directory.appendingPathComponent("Public/index.html"), "text/html; charset=utf-8"),
            ("/app.js", directory.appendingPathComponent("Public/app.js"), "text/javascript; charset=utf-8"),
            ("/style.css", directory.appendingPathComponent("Public/style.css"), "text/css; charset=utf-8"),
            (
                "/fetchkit-changeset.js",
                directory.appendingPathComponent("../../Clients/JavaScript/fetchkit-changeset.js").standardizedFileURL,
                "text/javascript; charset=utf-8"
            )
        ]
        var assets: [String: Asset] = [:]
        for (path, file, type) in files {
            assets[path] = Asset(body: ByteBuffer(data: try Data(contentsOf: file)), contentType: type)
        }
        self.assets = assets
    }

    /// The file served at `path`, if any.
    subscript(path: String) -> Asset? { assets[path] }

    /// Every path served.
    var paths: [String] { assets.keys.sorted() }
}
