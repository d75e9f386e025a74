import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// The tests' child processes never hold a thread of the cooperative pool and never wait past a deadline.
@Suite("Child processes of the tests")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func runReturnsTheStatusAndBothOutputs() async throws {
        let (status, output) = try await ChildProcess.run(Self.shell, ["-c", "echo out; echo err >&2; exit 3"])
        #expect(status == 3)
        #expect(output.contains("out\n") && output.contains("err\n"), "\(output)")
    }

    @Test func linesArriveAsTheChildWritesThem() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "echo one; sleep 0.2; printf 'two\\nthree'"])
        #expect(try await child.line(0) == "one")
        #expect(try await child.line(1) == "two")
        #expect(try await child.exit() == 0)
        // The last line has no newline: it is output, not a line.
        await #expect(throws: ChildProcess.Failure.self) { try await child.line(2) }
        #expect(child.output.hasSuffix("three"))
    }

    @Test func aChildPastItsDeadlineIsStoppedAndTheWaitThrows() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "echo waiting; exec sleep 600"])
        #expect(try await child.line(0) == "waiting")
        await #expect(throws: ChildProcess.Failure.self) { try await child.exit(within: .milliseconds(200)) }
        // Stopped by SIGTERM long before its own end.
        #expect(try await child.exit(within: .seconds(10)) == SIGTERM)
    }

    @Test func aLineThatNeverComesEndsTheWaitAtItsDeadline() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "exec sleep 600"])
        await #expect(throws: ChildProcess.Failure.self) { try await child.line(0, within: .milliseconds(200)) }
        #expect(try await child.exit(within: .seconds(10)) == SIGTERM)
    }

    /// A grandchild that inherited the child's output (a server a script starts, say) keeps the pipe open:
    /// the wait returns once the child exits, with what it wrote, while the grandchild still runs.
    @Test func aGrandchildHoldingTheOutputDoesNotHoldTheWait() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "sleep 300 & echo $!"])
        let grandchild = try #require(pid_t(try await child.line(0)))
        defer { kill(grandchild, SIGKILL) }
        #expect(try await child.exit() == 0)
        #expect(kill(grandchild, 0) == 0, "the wait lasted as long as the grandchild")
        #expect(child.output == "\(grandchild)\n")
    }
}
