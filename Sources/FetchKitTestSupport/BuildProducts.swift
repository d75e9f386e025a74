import Foundation

/// The executables SwiftPM built beside the running tests (`swift build --build-tests` builds every
/// product), found the same way on Linux and macOS.
///
/// The tests' own image is the anchor: on Linux `swift test` runs `…/debug/<Package>PackageTests.xctest`,
/// an executable in the build products folder; on macOS that path is a bundle loaded by a test runner that
/// lives elsewhere, its binary in `Contents/MacOS`. Either way the products folder is the first folder above
/// the image that holds the executable. When it is none of them (the image was copied elsewhere), the
/// package's `.build/debug` is tried, found from the calling file.
///
/// ```swift
/// let fetchkit = try BuildProducts.executable("fetchkit")
/// ```
public enum BuildProducts {
    /// A class of this module, so `Bundle(for:)` names the image the tests run in (this module is linked
    /// into it statically).
    private final class Anchor {}

    /// The executable `name` built beside the tests.
    ///
    /// - Parameter filePath: a file of the package, for the fallback to its `.build/debug`.
    /// - Throws: ``NotBuilt`` listing the folders searched.
    public static func executable(_ name: String, filePath: StaticString = #filePath) throws -> URL {
        let folders = candidateFolders(filePath: filePath)
        for folder in folders {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw NotBuilt(name: name, searched: folders.map(\.path))
    }

    /// The folders that may hold the build products, most likely first.
    static func candidateFolders(filePath: StaticString) -> [URL] {
        var folders: [URL] = []
        let images = [Bundle(for: Anchor.self).executableURL, Bundle.main.executableURL].compactMap { $0 }
        for image in images {
            // The image's folder and, for a macOS bundle (X.xctest/Contents/MacOS/X), the bundle's folder.
            var folder = image.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 where folder.path != "/" {
                if !folders.contains(folder) { folders.append(folder) }
                folder = folder.deletingLastPathComponent()
            }
        }
        folders.append(packageRoot(filePath: filePath).appendingPathComponent(".build/debug").resolvingSymlinksInPath())
        return folders
    }

    /// The nearest folder above `filePath` that holds a `Package.swift`: the package a test's source belongs to,
    /// however deep in the test tree it sits (the working directory, where `swift test` runs, when none does).
    ///
    /// ```swift
    /// let readme = BuildProducts.packageRoot().appendingPathComponent("README.md")
    /// ```
    public static func packageRoot(filePath: StaticString = #filePath) -> URL {
        var directory = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// No folder that may hold the build products holds the executable.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// The executable's name.
        public let name: String
        /// The folders searched, in order.
        public let searched: [String]

        public var description: String {
            "\(name) is not built beside the tests (searched \(searched.joined(separator: ", "))): "
                + "build it first (swift build --build-tests)"
        }
    }
}
