import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process a test starts, reads and waits for without ever blocking a thread of Swift's
/// cooperative pool, and without ever waiting past a deadline.
///
/// `Process.waitUntilExit()` and `FileHandle.readDataToEndOfFile()` block the thread they run on. On the
/// cooperative pool (two threads on a two-core machine) two such waits stop every other test of the run —
/// including the one whose progress would end them. A `Pipe`'s descriptors are not close-on-exec either: a
/// shell another test starts with `popen` at the same moment (and a server that shell starts) inherits the
/// write end, and the output never reaches its end while that server runs.
///
/// Foundation's `Process` is no help on Linux either: it learns of a child's exit through a socket the child
/// inherits, so a grandchild that outlives the child (a server a script starts) hides the exit.
///
/// Here the child is started with `posix_spawn`, its output goes through a close-on-exec pipe read on a
/// thread of its own, another thread waits for its exit with `waitid`, and every wait has a deadline, after
/// which the child is stopped (`SIGTERM`, then `SIGKILL`) and the wait throws a ``Failure`` that names the
/// command and holds its output so far. A child still running when its `ChildProcess` goes away is killed.
///
/// ```swift
/// let fetchkit = try BuildProducts.executable("fetchkit")
/// let watch = try ChildProcess(fetchkit, ["watch", "--store", url, "--entity", "todo"])
/// let results = try await watch.line(0)
/// watch.interrupt()
/// #expect(try await watch.exit() == 0)
/// ```
package final class ChildProcess: Sendable {
    /// A wait that did not end well: its deadline passed (the child was stopped), or the output ended first.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private struct State {
        var output = Data()
        /// The complete lines so far, and where the incomplete one starts in `output`.
        var lines: [String] = []
        var lineStart = 0
        /// Every writer has closed the pipe.
        var outputEnded = false
        /// Set, under the lock, as the child is reaped: while it is `nil` the process identifier is the child's.
        var status: Int32?

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            output.append(contentsOf: bytes)
            while let newline = output[lineStart...].firstIndex(of: 10) {
                lines.append(String(decoding: output[lineStart..<newline], as: UTF8.self))
                lineStart = newline + 1
            }
        }
    }

    /// The command line, for messages.
    package let command: String
    private let pid: pid_t
    private let state: Mutex<State>

    /// Starts `executable` with `arguments`; its standard output (and, when `mergingStandardError`, its
    /// standard error) is read from now on.
    ///
    /// - Parameter environment: the child's whole environment; `nil` passes the test process's.
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        mergingStandardError: Bool = true
    ) throws {
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        state = Mutex(State())
        let (readEnd, writeEnd) = try Self.closeOnExecPipe()
        do {
            pid = try Self.spawn(
                executable.path, arguments, environment: environment, output: writeEnd,
                mergingStandardError: mergingStandardError)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        // The child holds its own copy (as its standard output): the output ends when the child's copies close.
        close(writeEnd)
        startReading(readEnd)
        startWaiting()
    }

    deinit {
        state.withLock { if $0.status == nil { kill(pid, SIGKILL) } }
    }

    /// Reads the output on a thread of its own until every writer has closed the pipe.
    private func startReading(_ readEnd: Int32) {
        Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    guard let self else { break }
                    buffer.withUnsafeBytes { bytes in
                        self.state.withLock { $0.append(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
                    }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(readEnd)
            self?.state.withLock { $0.outputEnded = true }
        }.start()
    }

    /// Waits for the exit on a thread of its own, and reaps the child under the lock that signals it.
    private func startWaiting() {
        let pid = self.pid
        Thread { [weak self] in
            // Blocks until the child exits, leaving it to be reaped.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            guard let self else {
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                return
            }
            self.state.withLock { state in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                // The exit code, or the number of the signal that ended it.
                state.status = status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
            }
        }.start()
    }

    /// Everything the child wrote so far.
    package var output: String {
        state.withLock { String(decoding: $0.output, as: UTF8.self) }
    }

    /// Line `index` (from 0) of the output, without its newline, once the child has written it.
    ///
    /// - Throws: ``Failure`` when the output ends first, or when `timeout` passes (the child is stopped).
    package func line(_ index: Int, within timeout: Duration = .seconds(60)) async throws -> String {
        enum Seen {
            case line(String)
            case ended
        }
        let seen = try await poll(within: timeout) { state -> Seen? in
            index < state.lines.count ? .line(state.lines[index]) : state.outputEnded ? .ended : nil
        }
        switch seen {
        case .line(let line): return line
        case .ended: throw Failure(description: "\(command): its output ended before line \(index): \(output)")
        case nil:
            await stop()
            throw Failure(description: "\(command): no line \(index) within \(timeout), so it was stopped: \(output)")
        }
    }

    /// Sends `SIGINT`, as Ctrl-C does.
    package func interrupt() {
        signal(SIGINT)
    }

    /// Sends `number` while the child runs (never to a process that took its identifier after it).
    private func signal(_ number: Int32) {
        state.withLock { if $0.status == nil { kill(pid, number) } }
    }

    /// The exit status — the exit code, or the number of the signal that ended the child — once it has exited
    /// and its output has ended.
    ///
    /// - Throws: ``Failure`` when the child is still running after `timeout` (it is stopped).
    package func exit(within timeout: Duration = .seconds(60)) async throws -> Int32 {
        guard let status = try await status(within: timeout) else {
            await stop()
            throw Failure(description: "\(command) did not exit within \(timeout), so it was stopped: \(output)")
        }
        // The output ends once every copy of the pipe's write end is closed; a grandchild still holding one
        // must not hold the test, so what was written by then is the output.
        _ = try await poll(within: .seconds(5)) { $0.outputEnded ? true : nil }
        return status
    }

    /// Runs `executable` to its end: its exit status and its output (standard output and error together).
    ///
    /// - Throws: ``Failure`` when it runs longer than `timeout` (it is stopped).
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        within timeout: Duration = .seconds(120)
    ) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = try await child.exit(within: timeout)
        return (status, child.output)
    }

    /// The exit status once the child exits within `timeout`, else `nil`.
    private func status(within timeout: Duration) async throws -> Int32? {
        try await poll(within: timeout) { $0.status }
    }

    /// What `found` reads from the state once it is there (checked every 10 ms), or `nil` when `timeout`
    /// passes first.
    private func poll<Found>(within timeout: Duration, _ found: (State) -> Found?) async throws -> Found? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = state.withLock({ found($0) }) { return value }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Terminates the child, and kills it if it is still running 5 s later.
    private func stop() async {
        signal(SIGTERM)
        if (try? await status(within: .seconds(5))) != nil { return }
        signal(SIGKILL)
        _ = try? await status(within: .seconds(5))
    }

    /// Starts the child with `posix_spawn`: `output` as its standard output (and error), no other descriptor
    /// of this process open in it.
    private static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]?, output: Int32,
        mergingStandardError: Bool
    ) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        if mergingStandardError { posix_spawn_file_actions_adddup2(&actions, output, 2) }
        #if os(Linux)
            // glibc 2.34's closefrom action, which Swift's Glibc module does not import: descriptors some
            // library opened without close-on-exec stay out of the child too.
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
            }
        #endif
        // The spawning thread's mask (a pool thread blocks most signals) and ignored signals must not pass
        // to the child: it would not end at SIGINT or SIGTERM.
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "\(path) could not be started: \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// A pipe whose two ends are close-on-exec from the start: no child but the one given an end (as its
    /// standard output, which clears the flag on that copy) ever holds one.
    private static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        #if os(Linux)
            // glibc's pipe2, which Swift's Glibc module does not import: the flag is set as the pipe is made,
            // with no moment in which another thread's fork could copy the descriptors without it.
            typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
            if let symbol = dlsym(nil, "pipe2") {
                let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
                guard pipe2(&descriptors, O_CLOEXEC) == 0 else {
                    throw Failure(description: "pipe2 failed: errno \(errno)")
                }
                return (descriptors[0], descriptors[1])
            }
        #endif
        guard pipe(&descriptors) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }
}
