import Foundation

/// A PostgreSQL server of a test's own, started with Integration/scripts/pg-start.sh, for tests that restart
/// it (which would break every other test on the shared server).
final class PrivateServer: Sendable {
    let url: String
    private let environment: [String: String]
    private static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Integration/scripts")

    /// Starts a server (a few seconds: `initdb`, then `pg_ctl start`), with `settings` added to the script's
    /// (`-c wal_level=replica`).
    init(settings: String = "") throws {
        let output = try Self.script("pg-start.sh", environment: settings.isEmpty ? [:] : ["PG_SETTINGS": settings])
        let exported = Self.exports(output)
        guard let url = exported["DATABASE_URL"] else { throw ScriptFailure(output: output) }
        self.url = url
        self.environment = exported
    }

    /// Restarts the server (fast shutdown: every connection is cut), waiting until it accepts connections.
    func restart() throws {
        guard let root = environment["PGROOT"], let bin = environment["PGBIN"] else { throw ScriptFailure(output: "") }
        let asPostgres = getuid() == 0 ? "runuser -u postgres -- " : ""
        _ = try Self.shell(
            "\(asPostgres)\(bin)/pg_ctl -D \(root)/data -m fast -w -t 60 restart >/dev/null", environment: [:])
    }

    /// Stops the server and deletes its files.
    func stop() {
        guard let root = environment["PGROOT"] else { return }
        let pid =
            (try? String(contentsOfFile: "\(root)/data/postmaster.pid", encoding: .utf8))?
            .split(separator: "\n").first.map(String.init) ?? environment["PG_PID"] ?? "0"
        _ = try? Self.script("pg-stop.sh", environment: ["PGROOT": root, "PG_PID": pid])
    }

    /// Runs `body` (which blocks) on a new thread.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "a server script failed: \(output)" }
    }

    /// The `export NAME='value' …` lines a script printed, as a dictionary.
    static func exports(_ output: String) -> [String: String] {
        var exported: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            for assignment in line.dropFirst("export ".count).split(separator: " ") {
                let parts = assignment.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                exported[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            }
        }
        return exported
    }

    /// Runs Integration/scripts/`name` with `environment` (the shared server's variables cleared otherwise).
    static func script(_ name: String, environment: [String: String]) throws -> String {
        try shell("bash \(scripts.appendingPathComponent(name).path)", environment: environment)
    }

    /// Runs `command` with `sh -c` (through `popen`) and returns its standard output; the environment
    /// variables given are set for it, and the shared server's variables cleared.
    /// Runs `command` in a shell (blocking) and returns its standard output.
    static func run(_ command: String) throws -> String { try shell(command, environment: [:]) }

    private static func shell(_ command: String, environment: [String: String]) throws -> String {
        var assignments = ["PGROOT", "PGPORT", "PG_PID", "DATABASE_URL"].map { "unset \($0); " }.joined()
        for (key, value) in environment { assignments += "export \(key)='\(value)'; " }
        guard let stream = popen(assignments + command, "r") else { throw ScriptFailure(output: "popen failed") }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, stream)
            if count == 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        let status = pclose(stream)
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0 else { throw ScriptFailure(output: text) }
        return text
    }
}
