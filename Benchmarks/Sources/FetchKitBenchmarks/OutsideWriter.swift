import Foundation

/// Another process writing single-row updates as fast as it can for a while: `pgbench` on PostgreSQL, a
/// python3 `sqlite3` loop on SQLite. Each update bumps `v` and stamps `at` with the writer's clock (seconds
/// since 1970), so a reader sees how old the newest write it shows is.
struct OutsideWriter {
    let process: Process
    let output: Pipe

    /// `pgbench -c clients -j clients -T seconds` running `UPDATE table SET v = v + 1, at = now WHERE id = random`.
    static func pgbench(url: String, table: String, rows: Int, clients: Int, seconds: Int) throws -> OutsideWriter {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-sustained-\(UUID()).sql")
        try """
        \\set id random(1, \(rows))
        UPDATE \(table) SET v = v + 1, at = extract(epoch from clock_timestamp()) WHERE id = :id;

        """.write(to: script, atomically: true, encoding: .utf8)
        return try start(
            "pgbench", ["-n", "-c", "\(clients)", "-j", "\(clients)", "-T", "\(seconds)", "-f", script.path, url])
    }

    /// A python3 loop committing one update at a time into the SQLite file at `path`, pausing 0.1 ms after each
    /// commit (without a pause the loop holds the write lock so continuously that no other writer gets it).
    static func sqlite(path: String, rows: Int, seconds: Int) throws -> OutsideWriter {
        let program = """
            import random, sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            rows, end, n = int(sys.argv[2]), time.time() + float(sys.argv[3]), 0
            while time.time() < end:
                db.execute("UPDATE hot SET v = v + 1, at = ? WHERE id = ?", (time.time(), random.randint(1, rows)))
                n += 1
                time.sleep(0.0001)
            print("transactions: %d, tps %.0f" % (n, n / float(sys.argv[3])))
            """
        return try start("python3", ["-c", program, path, "\(rows)", "\(seconds)"])
    }

    /// Starts `tool` with no signal blocked: a child inherits the spawning thread's signal mask, and pgbench's
    /// `-T` ends on a SIGALRM that the Swift runtime's threads block.
    private static func start(_ tool: String, _ arguments: [String]) throws -> OutsideWriter {
        let unblock =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "os.execvp(sys.argv[1], sys.argv[1:])"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", unblock, tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return OutsideWriter(process: process, output: output)
    }

    /// Waits for the writer to end (polling, off the pool's threads' blocking calls); returns what it printed.
    func finish() async throws -> String {
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }
}
