import Foundation
import Synchronization

/// One of the example's servers, run as the example runs: its executable in a process of its own, on a database
/// the test also opens, so the test can restart it and read its resident memory.
final class BoardServer: Sendable {
    /// The web frameworks the example has a server for, when built with their traits.
    enum Framework: String, CaseIterable, Sendable, CustomStringConvertible {
        case hummingbird, vapor

        var executable: String { "live-list-\(rawValue)" }
        var description: String { rawValue }

        /// The frameworks this build has (Integration/test.sh builds both).
        static var built: [Framework] {
            var frameworks: [Framework] = []
            #if Hummingbird
                frameworks.append(.hummingbird)
            #endif
            #if Vapor
                frameworks.append(.vapor)
            #endif
            return frameworks
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let framework: Framework
    let port: Int
    let environment: [String: String]
    let log: URL
    /// Where the server keeps its pages' resume states across a restart.
    let archive: URL
    private let process: Mutex<Process?>

    var url: String { "http://127.0.0.1:\(port)" }

    /// A server of `framework` on the store `store` (its tables named with `tablePrefix`), on a free port.
    init(framework: Framework, store: String, tablePrefix: String) throws {
        self.framework = framework
        self.port = try Self.freePort()
        archive = FileManager.default.temporaryDirectory.appendingPathComponent("live-list-\(UUID()).resume")
        let publicDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Public").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: publicDirectory + "/app.js") else {
            throw Failure(description: "the page is not built: run Examples/LiveList/build-page.sh (test.sh does)")
        }
        environment = ProcessInfo.processInfo.environment.merging([
            "LIVE_LIST_STORE": store, "LIVE_LIST_TABLE_PREFIX": tablePrefix, "LIVE_LIST_PORT": "\(port)",
            "LIVE_LIST_HOST": "127.0.0.1", "LIVE_LIST_PUBLIC": publicDirectory,
            "LIVE_LIST_RESUME_ARCHIVE": archive.path
        ]) { $1 }
        log = FileManager.default.temporaryDirectory.appendingPathComponent("\(framework.executable)-\(UUID()).log")
        process = Mutex(nil)
    }

    /// Starts the server and waits until it answers on its port.
    func start() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(framework.executable)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "\(executable.path) is not built: build with --traits \(framework.rawValue)")
        }
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let process = Process()
        process.executableURL = executable
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process.withLock { $0 = process }
        try await waitUntil("\(framework) answers on port \(port) (its log: \(log.path))", timeout: .seconds(60)) {
            guard process.isRunning else {
                throw Failure(description: "\(framework) exited with \(process.terminationStatus): see \(log.path)")
            }
            return Self.accepts(port: port)
        }
    }

    /// Stops the server as a deployment does (SIGTERM: a graceful shutdown), killing it after 20 s.
    func stop() async {
        guard let process = process.withLock({ $0 }), process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The server process's resident memory, in bytes (``ResidentMemory``).
    func residentBytes() throws -> Int {
        guard let pid = process.withLock({ $0?.processIdentifier }) else {
            throw Failure(description: "\(framework) is not running")
        }
        return try ResidentMemory.bytes(of: pid)
    }

    /// Removes the server's log and resume archive.
    func removeFiles() {
        for file in [log, archive] { try? FileManager.default.removeItem(at: file) }
    }

    /// The last lines the server logged, for a failure's message.
    func logTail() -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(30).joined(separator: "\n")
    }

    /// `SOCK_STREAM` as `socket(2)` takes it: glibc's is an enum case, musl's and Darwin's an `Int32`.
    #if canImport(Glibc)
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamSocket = SOCK_STREAM
    #endif

    /// A TCP port nobody listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `port`.
    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
