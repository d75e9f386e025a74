import FetchKitTestSupport
import Foundation
import Testing

/// `fetchkit doctor` on SQLite: one line per check, status 1 when one fails.
@Suite("fetchkit doctor")
struct DoctorCommandTests {
    @Test func checksASQLiteFileAndFailsOnABadURL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("checked.sqlite")
        let fresh = try await ChildProcess.run(try FetchKitBinary.url, ["doctor", "--store", "sqlite://\(file)"])
        #expect(fresh.status == 0, "\(fresh.output)")
        let lines = fresh.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("ok      ") }, "\(lines)")
        #expect(lines[0] == "ok      file: \(file) does not exist yet: a store creates it", "\(lines)")
        #expect(lines[2].hasPrefix("ok      sqlite: SQLite 3."), "\(lines)")

        let bad = try await ChildProcess.run(
            try FetchKitBinary.url, ["doctor", "--store", "sqlite://ann:secret@host/file.sqlite"])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.hasPrefix("failure url: ") && !bad.output.contains("secret"), "\(bad.output)")
    }
}
