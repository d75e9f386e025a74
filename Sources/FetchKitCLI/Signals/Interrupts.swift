import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The write end of the pipe the signal handler writes to: set before the handler is installed, never changed.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// Ctrl-C (SIGINT) and SIGTERM as an awaitable event that cannot be lost.
///
/// The handler is installed before this returns and writes one byte to a pipe (`write(2)` is safe in a signal
/// handler); a dedicated thread blocks on the pipe's read end. A signal that arrives at any time after
/// ``start()`` therefore ends the wait — unlike a dispatch signal source, which libdispatch registers
/// asynchronously, so that a signal ignored meanwhile was lost and `fetchkit watch` ran on after Ctrl-C.
enum Interrupts {
    /// Installs the handlers; the task completes at the first SIGINT or SIGTERM.
    static func start() -> Task<Void, Never> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // No pipe (descriptors exhausted): the default action, which ends the process, stays in place.
            return Task {
                // Sleep throws only when the task is cancelled, which is how the caller ends it.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
        }
        interruptPipeWriteEnd = ends[1]
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(interruptPipeWriteEnd, &byte, 1)
            }
        }
        let readEnd = ends[0]
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let reader = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            continuation.yield()
            continuation.finish()
        }
        reader.name = "fetchkit-interrupts"
        reader.start()
        return Task {
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

}
