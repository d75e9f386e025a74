import Foundation

/// The process's resident memory by kind (`/proc/self/status`): anonymous pages (the heap, stacks), pages of
/// mapped files, and shared memory (SQLite's WAL index is a shared mapping of its `-shm` file). All zero where
/// there is no /proc (macOS).
struct ResidentKinds {
    var anonymous = 0
    var file = 0
    var shared = 0

    static func current() -> ResidentKinds {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .init() }
            return parse(text)
        #else
            return .init()
        #endif
    }

    /// The kinds `/proc/self/status`'s text `text` gives.
    static func parse(_ text: String) -> ResidentKinds {
        var kinds = ResidentKinds()
        for line in text.split(separator: "\n") {
            let fields = line.split { $0 == " " || $0 == "\t" }
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            switch fields[0] {
            case "RssAnon:": kinds.anonymous = kib * 1_024
            case "RssFile:": kinds.file = kib * 1_024
            case "RssShmem:": kinds.shared = kib * 1_024
            default: break
            }
        }
        return kinds
    }
}
