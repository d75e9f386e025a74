import Foundation

/// The lines a process writes, read on a thread of their own (reading blocks).
final class OutputLines: @unchecked Sendable {
    // Read and written only by `next()`, one call at a time.
    private var pending = Data()
    private let handle: FileHandle

    init(_ handle: FileHandle) { self.handle = handle }

    struct Ended: Error {}

    /// The next line, without its newline.
    ///
    /// - Throws: ``Ended`` when the output ends first.
    func next() async throws -> String {
        try await PrivateServer.onThread { [self] in
            while true {
                if let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return line
                }
                let data = handle.availableData
                guard !data.isEmpty else { throw Ended() }
                pending.append(data)
            }
        }
    }
}
