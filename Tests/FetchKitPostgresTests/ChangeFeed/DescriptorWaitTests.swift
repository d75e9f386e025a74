import Foundation
import Testing

@testable import FetchKitPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The change source threads' wait, server-free: `poll(2)`'s millisecond timeout (the wait on every system but
/// Linux, run here too) and the platform's own wait, on a pipe.
@Suite("DescriptorWait")
struct DescriptorWaitTests {
    @Test(
        arguments: [
            (Duration.zero, 0), (.nanoseconds(-5), 0), (.seconds(-3), 0), (.nanoseconds(1), 1), (.microseconds(250), 1),
            (.milliseconds(1), 1), (.milliseconds(1) + .nanoseconds(1), 2), (.milliseconds(2500), 2_500),
            (.seconds(2_147_482) + .milliseconds(999), 2_147_482_999), (.seconds(2_147_483), Int(Int32.max)),
            (.seconds(Int64.max), Int(Int32.max))
        ] as [(Duration, Int)])
    func millisecondsRoundUpAndClamp(_ left: Duration, _ expected: Int) {
        #expect(Int(DescriptorWait.milliseconds(left: left)) == expected)
    }

    /// A pipe, closed after `body`.
    private static func withPipe(_ body: (_ readEnd: Int32, _ writeEnd: Int32) throws -> Void) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0, "could not create a pipe (errno \(errno))")
        defer {
            close(fds[0])
            close(fds[1])
        }
        try body(fds[0], fds[1])
    }

    @Test("Both waits time out no earlier than the deadline, and see a readable descriptor at once")
    func waitsOnAPipe() throws {
        let waits: [(String, (inout [pollfd], ContinuousClock.Instant?) -> Int32)] = [
            ("the platform's wait", DescriptorWait.wait), ("poll", DescriptorWait.millisecondWait)
        ]
        for (name, wait) in waits {
            try Self.withPipe { readEnd, writeEnd in
                var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
                let start = ContinuousClock.now
                let deadline = start + .milliseconds(30) + .microseconds(300)
                #expect(wait(&fds, deadline) == 0, "\(name): nothing to read")
                #expect(ContinuousClock.now >= deadline, "\(name) timed out before its deadline")

                var byte: UInt8 = 1
                #expect(write(writeEnd, &byte, 1) == 1)
                fds[0].revents = 0
                #expect(wait(&fds, nil) == 1, "\(name): the pipe is readable")
                #expect(fds[0].revents & Int16(POLLIN) != 0)
                fds[0].revents = 0
                #expect(wait(&fds, .now - .seconds(1)) == 1, "\(name): a passed deadline still reports what is ready")
            }
        }
    }
}
