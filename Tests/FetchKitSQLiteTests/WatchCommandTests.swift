import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// `fetchkit watch` on an existing SQLite file: the results first, then a batch when another process
/// writes, one JSON object per line; Ctrl-C (SIGINT) ends it cleanly.
@Suite("fetchkit watch")
struct WatchCommandTests {
    /// Reads a process's output line by line.
    final class Lines: @unchecked Sendable {
        // Guarded by `lock`.
        private var buffer = Data()
        private var lines: [String] = []
        private let lock = NSLock()

        init(_ handle: FileHandle) {
            handle.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.lock()
                self.buffer.append(data)
                while let newline = self.buffer.firstIndex(of: 10) {
                    self.lines.append(String(decoding: self.buffer[..<newline], as: UTF8.self))
                    self.buffer.removeSubrange(...newline)
                }
                self.lock.unlock()
            }
        }

        /// Waits (up to 30 s) for line `index`.
        func line(_ index: Int) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if let line = lock.withLock({ index < lines.count ? lines[index] : nil }) { return line }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw CancellationError()
        }
    }

    @Test func watchesAnExistingSQLiteTable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("watched.sqlite")
        let store = try await SQLiteStore.open(path: file, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }

        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("fetchkit")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["watch", "--store", "sqlite://\(file)", "--entity", "task", "--where", "done == 0",
                             "--sort", "title", "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        let lines = Lines(pipe.fileHandleForReading)
        try process.run()

        let first = try await lines.line(0)
        #expect(first.hasPrefix(#"{"type":"results""#), "\(first)")
        #expect(first.contains("Write report") && !first.contains("review PR"), "\(first)")
        try await store.write { tx in _ = try tx.insert(Fixtures.TaskRecord(title: "Aaa from another process", categoryID: 1)) }
        let second = try await lines.line(1)
        #expect(second.hasPrefix(#"{"type":"batch""#) && second.contains("Aaa from another process"), "\(second)")
        #expect(second.contains(#""countsBefore":[6]"#) && second.contains(#""countsAfter":[7]"#), "\(second)")

        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        await store.close()
    }
}
